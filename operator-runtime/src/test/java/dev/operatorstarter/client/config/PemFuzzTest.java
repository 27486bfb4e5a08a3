package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Generated inputs for {@link Pem#privateKey}: random DER structures, mutations of valid RSA
 * (PKCS#8 and PKCS#1), EC (PKCS#8 and SEC1) and Ed25519 keys, and random bytes, each under a PEM
 * label chosen at random. Every input either reads or fails with an {@link IllegalArgumentException},
 * none hangs, and no message (nor any cause's or suppressed exception's) repeats a run of the
 * input's bytes, in base64 or hex.
 *
 * <p>Seeded, so a failure names its seed and input and replays: {@code -Dpem.fuzz.seed=N}
 * (default fixed), {@code -Dfuzz.inputs=N} (10,000 in the default build, 100,000 with {@code -Pfuzz}).
 */
class PemFuzzTest {

    private static final long SEED = Long.getLong("pem.fuzz.seed", 20261128L);
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 10_000);
    private static final String[] LABELS = {"PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"};
    private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/]{16,}");
    private static final Pattern HEX_RUN = Pattern.compile("[0-9a-fA-F]{16,}");

    private record Input(String label, byte[] der) {
    }

    @Test
    void everyGeneratedInputReadsOrFailsWithAnIllegalArgumentExceptionAtOnceAndWithoutKeyMaterial() throws Exception {
        KeyPairGenerator rsaGenerator = KeyPairGenerator.getInstance("RSA");
        rsaGenerator.initialize(1024, new java.security.SecureRandom());
        PrivateKey rsa = rsaGenerator.generateKeyPair().getPrivate();
        PrivateKey ec = PemKeys.ec();
        PrivateKey ed25519 = PemKeys.ed25519();
        List<Input> valid = List.of(new Input("PRIVATE KEY", rsa.getEncoded()),
                new Input("RSA PRIVATE KEY", PemKeys.pkcs1(rsa)), new Input("PRIVATE KEY", ec.getEncoded()),
                new Input("EC PRIVATE KEY", PemKeys.sec1(ec)), new Input("PRIVATE KEY", ed25519.getEncoded()));
        Random random = new Random(SEED);
        AtomicInteger current = new AtomicInteger();
        int[] outcomes = new int[2];

        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int i = 0; i < INPUTS; i++) {
                current.set(i);
                Input input = switch (random.nextInt(4)) {
                    case 0 -> new Input(LABELS[random.nextInt(LABELS.length)], randomDer(random, 3));
                    case 1 -> new Input(LABELS[random.nextInt(LABELS.length)], randomBytes(random, 200));
                    default -> {
                        Input base = valid.get(random.nextInt(valid.size()));
                        String label = random.nextInt(8) == 0 ? LABELS[random.nextInt(LABELS.length)] : base.label();
                        yield new Input(label, mutate(random, base.der()));
                    }
                };
                outcomes[check(input, i)]++;
            }
        }, () -> "input " + current.get() + " of seed " + SEED + " did not finish");

        assertThat(outcomes[0]).as("inputs that failed").isGreaterThan(INPUTS / 2);
    }

    /** 0 when {@code input} failed as documented, 1 when it read; throws on anything else. */
    private static int check(Input input, int index) {
        byte[] pem = PemKeys.pem(input.label(), input.der());
        try {
            Pem.privateKey(pem, "fuzz input");
            return 1;
        } catch (IllegalArgumentException e) {
            String base64 = Base64.getEncoder().encodeToString(input.der());
            String hex = HexFormat.of().formatHex(input.der());
            for (String message : messages(e)) {
                assertNoRun(BASE64_RUN.matcher(message), base64, message, index);
                assertNoRun(HEX_RUN.matcher(message), hex, message, index);
            }
            return 0;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("input " + index + " of seed " + SEED + " (" + input.label() + ": "
                    + HexFormat.of().formatHex(input.der()) + ") threw an undocumented " + e, e);
        }
    }

    /** Fails when a run the matcher finds in {@code message} (lower-cased for hex) is part of {@code encoded}. */
    private static void assertNoRun(Matcher runs, String encoded, String message, int index) {
        while (runs.find()) {
            String run = encoded.equals(encoded.toLowerCase(Locale.ROOT)) ? runs.group().toLowerCase(Locale.ROOT)
                    : runs.group();
            assertThat(encoded).as("input %d of seed %d: message \"%s\" repeats the input", index, SEED, message)
                    .doesNotContain(run);
        }
    }

    /** The messages of {@code error}, its causes and its suppressed exceptions, and theirs. */
    private static List<String> messages(Throwable error) {
        List<String> messages = new ArrayList<>();
        List<Throwable> pending = new ArrayList<>(List.of(error));
        while (!pending.isEmpty() && messages.size() < 64) {
            Throwable next = pending.remove(pending.size() - 1);
            if (next.getMessage() != null) {
                messages.add(next.getMessage());
            }
            if (next.getCause() != null && next.getCause() != next) {
                pending.add(next.getCause());
            }
            pending.addAll(Arrays.asList(next.getSuppressed()));
        }
        return messages;
    }

    private static byte[] randomBytes(Random random, int max) {
        byte[] bytes = new byte[random.nextInt(max + 1)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A random tag-length-value tree, its lengths sometimes wrong: too long, too short, indefinite, huge, negative as an int. */
    private static byte[] randomDer(Random random, int depth) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        int children = depth == 0 ? 0 : random.nextInt(4);
        for (int i = 0; i < children; i++) {
            content.writeBytes(randomDer(random, depth - 1));
        }
        if (children == 0) {
            content.writeBytes(randomBytes(random, 40));
        }
        int[] tags = {0x30, 0x02, 0x04, 0x06, 0x05, 0x03, 0xa0, 0xa1, 0x1f, random.nextInt(256)};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tags[random.nextInt(tags.length)]);
        int length = content.size();
        switch (random.nextInt(8)) {
            case 0 -> Pem.writeDerLength(out, length + 1 + random.nextInt(300));
            case 1 -> Pem.writeDerLength(out, Math.max(0, length - 1 - random.nextInt(10)));
            case 2 -> out.write(0x80);
            case 3 -> out.writeBytes(new byte[] {(byte) 0x84, (byte) (0x80 | random.nextInt(128)), (byte) random.nextInt(),
                (byte) random.nextInt(), (byte) random.nextInt()});
            case 4 -> out.write(0x80 | (5 + random.nextInt(3)));
            default -> Pem.writeDerLength(out, length);
        }
        out.writeBytes(content.toByteArray());
        return out.toByteArray();
    }

    /** {@code der} with one to four changes: bytes set, flipped or made length-like, cut, inserted, removed, repeated. */
    private static byte[] mutate(Random random, byte[] der) {
        byte[] bytes = der.clone();
        for (int changes = 1 + random.nextInt(4); changes > 0; changes--) {
            if (bytes.length == 0) {
                return bytes;
            }
            int at = random.nextInt(bytes.length);
            switch (random.nextInt(7)) {
                case 0 -> bytes[at] = (byte) random.nextInt();
                case 1 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                case 2 -> bytes[at] = new byte[] {(byte) 0x80, (byte) 0x81, (byte) 0x82, (byte) 0x84, (byte) 0xff,
                    0x00, 0x7f}[random.nextInt(7)];
                case 3 -> bytes = Arrays.copyOf(bytes, at);
                case 4 -> {
                    byte[] inserted = randomBytes(random, 8);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(bytes, 0, at);
                    out.writeBytes(inserted);
                    out.write(bytes, at, bytes.length - at);
                    bytes = out.toByteArray();
                }
                case 5 -> {
                    int end = Math.min(bytes.length, at + 1 + random.nextInt(16));
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(bytes, 0, at);
                    out.write(bytes, end, bytes.length - end);
                    bytes = out.toByteArray();
                }
                default -> {
                    int end = Math.min(bytes.length, at + 1 + random.nextInt(32));
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(bytes, 0, end);
                    out.write(bytes, at, bytes.length - at);
                    bytes = out.toByteArray();
                }
            }
        }
        return bytes;
    }
}
