package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Mutated kubeconfigs (byte flips, truncation, duplicated lines and keys, values of the wrong
 * type, deep nesting, huge strings, YAML anchors and tags) never hang the loader, never escape as
 * anything but a {@link ConfigException}, and never put a secret of the input (token, password,
 * client key, exec plugin env value), or ten characters of one, into a message or a cause's
 * message, nor into the {@code toString} of a configuration that loads.
 *
 * <p>The generator is seeded ({@code -Dkubeconfig.fuzz.seed}, default fixed) and runs
 * {@code -Dfuzz.inputs} inputs: 10,000 in the default build, 100,000 with {@code -Pfuzz}. Parsing
 * one input costs about 0.15 ms of CPU (SnakeYAML). A failure prints the input's number
 * and the mutated text, which reproduces it with {@link KubeconfigLoader#read} directly.
 */
class KubeconfigLoaderFuzzTest {

    private static final long SEED = Long.getLong("kubeconfig.fuzz.seed", 20261128L);
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 10_000);
    /** How long one input may take before the loader counts as hung: generous, for a loaded machine. */
    private static final long HANG_SECONDS = 30;

    private static final TestCertificates CAROL = TestCertificates.ec("carol");
    private static final String TOKEN = "tok-SECRET-5b2f9c1e7a";
    private static final String PASSWORD = "pw-SECRET-8d3e6a0c4f";
    private static final String ENV_SECRET = "env-SECRET-1c9b7e5d3a";
    private static final String KEY_DATA = base64(CAROL.pkcs8KeyPem());
    private static final List<String> SECRETS = List.of(TOKEN, PASSWORD, ENV_SECRET, KEY_DATA, CAROL.pkcs8KeyPem());
    private static final int WINDOW = 10;
    private static final Set<String> SECRET_WINDOWS = windows();

    private static final String VALID = """
            apiVersion: v1
            kind: Config
            current-context: prod
            preferences: {}
            clusters:
            - name: prod-cluster
              cluster:
                server: https://10.0.0.1:6443
                insecure-skip-tls-verify: true
                tls-server-name: kubernetes.default
            - name: proxied
              cluster:
                server: "https://api.example.com:443"
                proxy-url: http://proxy.example:3128
            users:
            - name: alice
              user:
                token: %s
            - name: bob
              user:
                username: bob
                password: %s
            - name: carol
              user:
                client-certificate-data: %s
                client-key-data: %s
            - name: dave
              user:
                exec:
                  apiVersion: client.authentication.k8s.io/v1
                  command: kubelogin
                  args: [get-token, --server-id, x]
                  interactiveMode: Never
                  provideClusterInfo: true
                  env:
                  - name: OIDC_CLIENT_SECRET
                    value: %s
            contexts:
            - name: prod
              context: {cluster: prod-cluster, user: alice, namespace: team-a}
            - name: basic
              context:
                cluster: proxied
                user: bob
            - name: cert
              context: {cluster: prod-cluster, user: carol}
            - name: exec
              context: {cluster: proxied, user: dave}
            """.formatted(TOKEN, PASSWORD, base64(CAROL.certificatePem()), KEY_DATA, ENV_SECRET);
    private static final String[] CONTEXTS = {null, "prod", "basic", "cert", "exec", "missing"};
    private static final String[] WRONG_VALUES = {"[]", "{}", "[a, b]", "{x: y}", "123", "-1", "true", "null", "~", "''",
        "!!binary AAAA", "!!int x", "&anchor v", "*anchor", "[[[[", "{{", "\"unterminated", "'", "|\n  block", ">-",
        "- item", ": colon", "? key", "!!map {a: b}", "!custom tag", "%YAML 1.2", "\t", "\"\\u0000\"", "@", "`"};
    private static final byte[] INTERESTING = ":-[]{}\"'\n #&*!|>%@`,?\t\\".getBytes(StandardCharsets.US_ASCII);

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static Set<String> windows() {
        Set<String> windows = new HashSet<>();
        for (String secret : SECRETS) {
            // PEM armour (BEGIN/END lines) is no secret; the rest of every secret is
            String compact = String.join("", secret.lines().filter(line -> !line.startsWith("-----")).toList());
            for (int i = 0; i + WINDOW <= compact.length(); i++) {
                windows.add(compact.substring(i, i + WINDOW));
            }
        }
        return windows;
    }

    @Test
    void theUnmutatedKubeconfigLoadsEveryContextWithoutShowingASecret() {
        for (String context : List.of("prod", "basic", "cert", "exec")) {
            ClientConfig config = KubeconfigLoader.read(VALID.getBytes(StandardCharsets.UTF_8), Path.of("/fuzz/config"),
                    context);
            assertThat(leak(config.toString())).as(context).isNull();
        }
    }

    @Test
    void mutatedKubeconfigsFailOnlyWithAConfigExceptionThatShowsNoSecret() throws Exception {
        AtomicLong current = new AtomicLong(-1);
        ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kubeconfig-fuzz");
            thread.setDaemon(true); // a hung parse must not keep the test JVM alive
            return thread;
        });
        try {
            Future<List<String>> run = worker.submit(() -> fuzz(current));
            long seen = -2;
            while (true) {
                try {
                    List<String> failures = run.get(HANG_SECONDS, TimeUnit.SECONDS);
                    assertThat(failures).as("inputs that failed (of %d, seed %d)", INPUTS, SEED).isEmpty();
                    return;
                } catch (TimeoutException e) {
                    long now = current.get();
                    if (now == seen) {
                        fail("input " + now + " (seed " + SEED + ") did not finish loading within " + HANG_SECONDS
                                + " s:\n" + mutate(now));
                    }
                    seen = now;
                } catch (ExecutionException e) {
                    throw new AssertionError("the fuzz loop itself failed", e.getCause());
                }
            }
        } finally {
            worker.shutdownNow();
        }
    }

    private static List<String> fuzz(AtomicLong current) {
        List<String> failures = new ArrayList<>();
        Path file = Path.of("/fuzz/config");
        for (long i = 0; i < INPUTS && failures.size() < 5; i++) {
            current.set(i);
            String input = mutate(i);
            String context = CONTEXTS[new SplittableRandom(SEED * 31 + i).nextInt(CONTEXTS.length)];
            String problem;
            try {
                ClientConfig config = KubeconfigLoader.read(input.getBytes(StandardCharsets.UTF_8), file, context);
                problem = leak(config.toString());
            } catch (ConfigException e) {
                problem = leakIn(e);
            } catch (RuntimeException | StackOverflowError e) {
                problem = "escaped as " + e;
            }
            if (problem != null) {
                failures.add("input " + i + " (context " + context + "): " + problem + "\n--- input ---\n" + input);
            }
        }
        return failures;
    }

    private static @Nullable String leakIn(Throwable error) {
        for (Throwable each = error; each != null; each = each.getCause() == each ? null : each.getCause()) {
            String leak = leak(String.valueOf(each.getMessage()));
            if (leak != null) {
                return each.getClass().getSimpleName() + " message shows a secret (" + leak + "): " + each.getMessage();
            }
        }
        return null;
    }

    /** The part of a secret {@code text} shows, or null. */
    private static @Nullable String leak(String text) {
        String compact = text.replace("\n", "");
        for (int i = 0; i + WINDOW <= compact.length(); i++) {
            String window = compact.substring(i, i + WINDOW);
            if (SECRET_WINDOWS.contains(window)) {
                return window;
            }
        }
        return null;
    }

    /** Input {@code index}: the valid kubeconfig with one to three mutations, decided by the seed alone. */
    static String mutate(long index) {
        SplittableRandom random = new SplittableRandom(SEED ^ (index * 0x9E3779B97F4A7C15L));
        String text = VALID;
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations && !text.isEmpty(); m++) {
            // huge strings and deep nesting cost a thousand times a plain input: one mutation in a hundred each
            text = switch (random.nextInt(100)) {
                case 0 -> hugeString(text, random);
                case 1 -> deepNesting(text, random);
                default -> switch (random.nextInt(5)) {
                    case 0 -> flipBytes(text, random);
                    case 1 -> truncate(text, random);
                    case 2 -> duplicateLine(text, random);
                    case 3 -> wrongType(text, random);
                    default -> flipStructure(text, random);
                };
            };
        }
        return text;
    }

    private static String flipBytes(String text, SplittableRandom random) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Replaces a few characters by the ones YAML gives meaning to. */
    private static String flipStructure(String text, SplittableRandom random) {
        char[] chars = text.toCharArray();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            chars[random.nextInt(chars.length)] = (char) INTERESTING[random.nextInt(INTERESTING.length)];
        }
        return new String(chars);
    }

    private static String truncate(String text, SplittableRandom random) {
        return text.substring(0, random.nextInt(text.length()));
    }

    private static String duplicateLine(String text, SplittableRandom random) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        String line = lines.get(random.nextInt(lines.size()));
        // next to itself (a duplicated key), or anywhere (a key where it does not belong)
        int at = random.nextBoolean() ? lines.indexOf(line) : random.nextInt(lines.size());
        lines.add(at, line);
        return String.join("\n", lines);
    }

    private static String wrongType(String text, SplittableRandom random) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int index = random.nextInt(lines.size());
        String line = lines.get(index);
        int colon = line.indexOf(": ");
        if (colon < 0) {
            return text;
        }
        lines.set(index, line.substring(0, colon + 2) + WRONG_VALUES[random.nextInt(WRONG_VALUES.length)]);
        return String.join("\n", lines);
    }

    private static String deepNesting(String text, SplittableRandom random) {
        // past the parser's nesting limit (500) more depth tests nothing new, only costs time
        int depth = 10 + random.nextInt(700);
        String open = random.nextBoolean() ? "[" : "{a: ";
        String nested = open.repeat(depth) + (random.nextBoolean() ? (open.equals("[") ? "]" : "}").repeat(depth) : "");
        return replaceValue(text, random, nested);
    }

    private static String hugeString(String text, SplittableRandom random) {
        int length = 1_000 + random.nextInt(100_000);
        char filler = "xA0 -:".charAt(random.nextInt(6));
        return replaceValue(text, random, String.valueOf(filler).repeat(length));
    }

    private static String replaceValue(String text, SplittableRandom random, String value) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int index = random.nextInt(lines.size());
        String line = lines.get(index);
        int colon = line.indexOf(": ");
        lines.set(index, colon < 0 ? line + value : line.substring(0, colon + 2) + value);
        return String.join("\n", lines);
    }
}
