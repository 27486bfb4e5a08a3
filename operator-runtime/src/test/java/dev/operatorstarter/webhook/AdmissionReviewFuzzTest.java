package dev.operatorstarter.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fuzzes the admission endpoints' decoding (AdmissionReviews, AdmissionDecoder) with inputs made
 * from valid AdmissionReviews by a seeded generator: bytes flipped, truncated, values replaced by
 * deep nesting, huge numbers or the wrong type, bytes that are not UTF-8, or random bytes. For
 * every input the endpoint must return, within a bound, a well-formed AdmissionReview whose
 * response is an allowance or a denial with a code and message: {@link WebhookEndpoint} never
 * throws. {@code -Dfuzz.inputs=N} inputs: 10,000 in the default build, 100,000 with {@code -Pfuzz};
 * {@code -Dwebhook.fuzz.seed=S} run more or others (a failure names its seed and input number).
 */
class AdmissionReviewFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int TRIALS = Integer.getInteger("fuzz.inputs", 10_000);
    private static final long SEED = Long.getLong("webhook.fuzz.seed", 20261128L);
    /** Longer than any single input can take on a loaded machine; an input that takes it has hung. */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static final List<String> VALID = List.of("""
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1",
             "kind":{"group":"","version":"v1","kind":"ConfigMap"},
             "resource":{"group":"","version":"v1","resource":"configmaps"},"namespace":"ns","name":"c",
             "operation":"CREATE","userInfo":{"username":"alice","groups":["devs"],"extra":{"k":["v"]}},
             "object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns",
              "labels":{"a":"b"},"annotations":{"x":"y"}},"data":{"key":"value","n":"1"}},
             "oldObject":null,"dryRun":false,"options":{"apiVersion":"meta.k8s.io/v1","kind":"CreateOptions"}}}""",
            """
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-2",
             "kind":{"group":"","version":"v1","kind":"ConfigMap"},"operation":"UPDATE","userInfo":{"username":"bob"},
             "object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","resourceVersion":"7"},
              "data":{"deny":"yes"},"binaryData":{"b":"AAEC"}},
             "oldObject":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{}},"dryRun":true}}""",
            """
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-3",
             "kind":{"group":"","version":"v1","kind":"ConfigMap"},"operation":"DELETE","userInfo":{},
             "oldObject":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gone",
              "finalizers":["f"],"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"9"}]}}}}""");
    private static final List<String> ODD_VALUES = List.of("null", "true", "-1", "0.5", "\"\"", "[]", "{}",
            "\"\\u0000\\ud800\"", "1e999999", "-1e-999999", "9".repeat(2000), "0." + "0".repeat(1500) + "1",
            "123456789012345678901234567890", "[null,{},[]]", "{\"a\":1,\"a\":2}", "\"" + "x".repeat(10_000) + "\"");

    private final AdmissionEndpoint validating = AdmissionEndpoint.validating(ConfigMap.class, admission ->
            admission.subject().getData() != null && admission.subject().getData().containsKey("deny")
                    ? AdmissionVerdict.deny("denied") : AdmissionVerdict.allow());
    private final AdmissionEndpoint mutating = AdmissionEndpoint.mutating(ConfigMap.class, admission -> {
        ConfigMap map = admission.subject();
        if (admission.object() != null) {
            map.getMetadata().setLabels(Map.of("fuzzed", "true"));
        }
        return Mutation.allow(map);
    });

    @Test
    void everyGeneratedInputIsAnsweredWithAWellFormedReviewWithinABoundAndNothingThrows() throws Exception {
        AtomicLong done = new AtomicLong();
        byte[][] current = new byte[1][];
        ExecutorService runner = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "admission-fuzz");
            thread.setDaemon(true);
            return thread;
        });
        Future<?> run = runner.submit(() -> {
            Random random = new Random(SEED);
            for (int i = 0; i < TRIALS; i++) {
                byte[] input = generate(random);
                current[0] = input;
                AdmissionEndpoint endpoint = i % 2 == 0 ? validating : mutating;
                byte[] answer;
                try {
                    answer = endpoint.handle(input);
                } catch (Throwable e) {
                    throw new AssertionError("input " + i + " of seed " + SEED + " threw: " + preview(input), e);
                }
                checkWellFormed(answer, i, input);
                done.incrementAndGet();
            }
            return null;
        });
        long lastCount = -1;
        long lastProgress = System.nanoTime();
        try {
            while (true) {
                try {
                    run.get(1, TimeUnit.SECONDS);
                    break;
                } catch (TimeoutException stillRunning) {
                    long count = done.get();
                    if (count != lastCount) {
                        lastCount = count;
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > STALL_NANOS) {
                        fail("input " + count + " of seed " + SEED + " has not been answered in "
                                + TimeUnit.NANOSECONDS.toSeconds(STALL_NANOS) + " s: " + preview(current[0]));
                    }
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssertionError assertion) {
                throw assertion;
            }
            throw e;
        } finally {
            runner.shutdownNow();
        }
        assertThat(done.get()).isEqualTo(TRIALS);
    }

    private static void checkWellFormed(byte[] answer, int i, byte[] input) {
        String where = "input " + i + " of seed " + SEED + ": " + preview(input) + " answered ";
        JsonNode review;
        try {
            review = JSON.readTree(answer);
        } catch (RuntimeException e) {
            throw new AssertionError(where + "with what is not JSON: " + preview(answer), e);
        }
        JsonNode response = review.path("response");
        if (!review.isObject() || !review.path("apiVersion").isString() || review.path("apiVersion").asString().isEmpty()
                || !review.path("kind").isString() || review.path("kind").asString().isEmpty() || review.has("request")
                || !response.isObject() || !response.path("uid").isString() || !response.path("allowed").isBoolean()) {
            throw new AssertionError(where + "with a malformed review: " + preview(answer));
        }
        if (!response.path("allowed").asBoolean()) {
            JsonNode status = response.path("status");
            int code = status.path("code").asInt(0);
            if (code < 400 || code > 599 || status.path("message").asString("").isEmpty()
                    || !"Failure".equals(status.path("status").asString(""))) {
                throw new AssertionError(where + "with a denial without code or message: " + preview(answer));
            }
        } else if (response.has("patch")) {
            JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.path("patch").asString()));
            if (!patch.isArray() || !"JSONPatch".equals(response.path("patchType").asString(""))) {
                throw new AssertionError(where + "with a malformed patch: " + preview(answer));
            }
        }
    }

    /** One input: a valid review, mutated in one to three ways, or random bytes. */
    static byte[] generate(Random random) {
        if (random.nextInt(50) == 0) {
            byte[] noise = new byte[random.nextInt(200)];
            random.nextBytes(noise);
            return noise;
        }
        String text = VALID.get(random.nextInt(VALID.size()));
        int mutations = 1 + random.nextInt(3);
        byte[] bytes = null;
        for (int m = 0; m < mutations; m++) {
            switch (random.nextInt(6)) {
                case 0 -> text = replaceValue(text, random, ODD_VALUES.get(random.nextInt(ODD_VALUES.size())));
                case 1 -> text = replaceValue(text, random, nested(random));
                case 2 -> text = replaceValue(text, random, wrongType(random));
                case 3 -> text = text.substring(0, random.nextInt(text.length() + 1));
                case 4 -> text = text.replaceFirst(",", "," + "\"dup\":1,".repeat(1 + random.nextInt(3)));
                default -> {
                    bytes = text.getBytes(StandardCharsets.UTF_8);
                    int flips = 1 + random.nextInt(8);
                    for (int f = 0; f < flips && bytes.length > 0; f++) {
                        bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                    }
                    text = new String(bytes, StandardCharsets.ISO_8859_1);
                }
            }
        }
        return bytes != null && mutations == 1 ? bytes : text.getBytes(StandardCharsets.ISO_8859_1.newEncoder()
                .canEncode(text) ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    /** {@code text} with the value after one of its {@code ":"} replaced by {@code value}. */
    private static String replaceValue(String text, Random random, String value) {
        List<Integer> colons = new ArrayList<>();
        for (int i = text.indexOf("\":"); i >= 0; i = text.indexOf("\":", i + 1)) {
            colons.add(i + 2);
        }
        if (colons.isEmpty()) {
            return text;
        }
        int start = colons.get(random.nextInt(colons.size()));
        int end = endOfValue(text, start);
        return text.substring(0, start) + value + text.substring(end);
    }

    /** Where the JSON value starting at {@code start} ends, by bracket counting; the text's end when it does not. */
    private static int endOfValue(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    return i;
                }
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return text.length();
    }

    private static String nested(Random random) {
        int depth = 1 + random.nextInt(random.nextBoolean() ? 20 : 5000);
        boolean arrays = random.nextBoolean();
        return (arrays ? "[" : "{\"a\":").repeat(depth) + "1" + (arrays ? "]" : "}").repeat(depth);
    }

    private static String wrongType(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> "\"not the type\"";
            case 1 -> String.valueOf(random.nextLong());
            case 2 -> "[\"a\",1,null]";
            case 3 -> "{\"kind\":[],\"uid\":{}}";
            default -> "false";
        };
    }

    private static String preview(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        return text.length() <= 300 ? text : text.substring(0, 300) + "... (" + bytes.length + " bytes)";
    }
}
