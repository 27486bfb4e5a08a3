package dev.operatorstarter.client.config;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and private keys: PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA
 * PRIVATE KEY}) and SEC1 ({@code EC PRIVATE KEY}), without a security provider beyond the JDK's.
 * Errors name {@code where} the text came from and never include key material. Every failure is an
 * {@link IllegalArgumentException}; the DER reader checks each length against the bytes that
 * remain (a crafted length can neither overflow nor send it back to an earlier offset), so
 * malformed input fails at once, with the offset of the bad element. Not API.
 */
final class Pem {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    private static final byte[] RSA_ALGORITHM = {
        0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    /** The contents of the OIDs rsaEncryption, id-ecPublicKey and id-Ed25519. */
    private static final byte[] RSA_OID = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
    private static final byte[] EC_OID = {0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final byte[] ED25519_OID = {0x2b, 0x65, 0x70};
    private static final byte[] EC_PUBLIC_KEY_OID = {
        0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

    private Pem() {
    }

    /** Every certificate in {@code pem}; at least one. */
    public static List<X509Certificate> certificates(byte[] pem, String where) {
        try {
            List<X509Certificate> certificates = new ArrayList<>();
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (var certificate : factory.generateCertificates(new ByteArrayInputStream(pem))) {
                certificates.add((X509Certificate) certificate);
            }
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException(where + " holds no PEM certificate");
            }
            return List.copyOf(certificates);
        } catch (CertificateException e) {
            throw new IllegalArgumentException(where + " is not a valid PEM certificate: " + e.getMessage(), e);
        }
    }

    /** The first private key in {@code pem}. */
    public static PrivateKey privateKey(byte[] pem, String where) {
        Matcher block = BLOCK.matcher(new String(pem, StandardCharsets.US_ASCII));
        while (block.find()) {
            String type = block.group(1);
            if (!type.endsWith("PRIVATE KEY")) {
                continue;
            }
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(block.group(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " has a " + type + " block that is not valid base64", e);
            }
            return switch (type) {
                case "PRIVATE KEY" -> pkcs8(der, where);
                case "RSA PRIVATE KEY" -> decode("RSA", wrap(RSA_ALGORITHM, der), where);
                case "EC PRIVATE KEY" -> decode("EC", wrap(ecAlgorithm(der, where), der), where);
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException(where
                        + " holds an encrypted private key; Kubernetes clients need an unencrypted one");
                default -> throw new IllegalArgumentException(where + " holds an unsupported key type: " + type);
            };
        }
        throw new IllegalArgumentException(where + " holds no PEM private key");
    }

    /**
     * A PKCS#8 key, by the algorithm its AlgorithmIdentifier names: the structure is checked here
     * first, so a malformed key fails at once with its offset and only one key factory is asked.
     */
    private static PrivateKey pkcs8(byte[] der, String where) {
        // PrivateKeyInfo ::= SEQUENCE { version INTEGER, AlgorithmIdentifier SEQUENCE { OID, parameters }, OCTET STRING }
        Der info = Der.at(der, 0, der.length, where);
        Der version = Der.at(der, info.require(0x30, where).contentStart, info.end, where).require(0x02, where);
        Der algorithm = Der.at(der, version.end, info.end, where).require(0x30, where);
        Der oid = Der.at(der, algorithm.contentStart, algorithm.end, where).require(0x06, where);
        byte[] name = Arrays.copyOfRange(der, oid.contentStart, oid.end);
        if (Arrays.equals(name, RSA_OID)) {
            return decode("RSA", der, where);
        }
        if (Arrays.equals(name, EC_OID)) {
            return decode("EC", der, where);
        }
        if (Arrays.equals(name, ED25519_OID)) {
            return decode("Ed25519", der, where);
        }
        throw new IllegalArgumentException(where + " holds a PKCS#8 private key of an algorithm other than RSA, EC and "
                + "Ed25519");
    }

    private static PrivateKey decode(String algorithm, byte[] pkcs8, String where) {
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException(where + " is not a readable " + algorithm + " private key", e);
        }
    }

    /** The PKCS#8 AlgorithmIdentifier for a SEC1 key: id-ecPublicKey with the curve named inside the key. */
    private static byte[] ecAlgorithm(byte[] sec1, String where) {
        // ECPrivateKey ::= SEQUENCE { version, privateKey OCTET STRING, [0] parameters OID, [1] publicKey }
        Der sequence = Der.at(sec1, 0, sec1.length, where);
        if (sequence.tag != 0x30) {
            throw Der.malformed(where, "it does not start with a SEQUENCE", 0);
        }
        int position = sequence.contentStart;
        while (position < sequence.end) {
            Der element = Der.at(sec1, position, sequence.end, where);
            if (element.tag == 0xa0) {
                Der curve = Der.at(sec1, element.contentStart, element.end, where);
                ByteArrayOutputStream content = new ByteArrayOutputStream();
                content.writeBytes(EC_PUBLIC_KEY_OID);
                content.write(sec1, curve.start, curve.end - curve.start);
                return encodeDer(0x30, content.toByteArray());
            }
            position = element.end; // past the element's header at least, so the loop always advances
        }
        throw new IllegalArgumentException(where + " is an EC private key without its curve parameters");
    }

    private static byte[] wrap(byte[] algorithm, byte[] key) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        content.writeBytes(new byte[] {0x02, 0x01, 0x00}); // version 0
        content.writeBytes(algorithm);
        content.writeBytes(encodeDer(0x04, key));
        return encodeDer(0x30, content.toByteArray());
    }

    /**
     * One DER element: tag, where its header starts, where its content starts and where it ends.
     * {@code start < contentStart <= end <= limit} always holds, so a reader that moves on to
     * {@code end} always advances and never leaves the enclosing element.
     */
    private record Der(int tag, int start, int contentStart, int end) {

        /**
         * The element whose header starts at {@code start} and which must end by {@code limit}
         * (the end of the element around it).
         *
         * @throws IllegalArgumentException naming {@code where} and the offset, never the bytes,
         *     when the header is cut short, uses the indefinite or a non-minimal length form, or
         *     declares a length beyond {@code limit}
         */
        static Der at(byte[] der, int start, int limit, String where) {
            if (start + 2 > limit) {
                throw malformed(where, "an element header is cut short", start);
            }
            int tag = der[start] & 0xff;
            if ((tag & 0x1f) == 0x1f) {
                throw malformed(where, "an element has a multi-byte tag, which no key uses", start);
            }
            int first = der[start + 1] & 0xff;
            int contentStart = start + 2;
            long length;
            if (first < 0x80) {
                length = first;
            } else if (first == 0x80) {
                throw malformed(where, "an element has an indefinite length, which DER does not allow", start);
            } else {
                int bytes = first & 0x7f;
                if (bytes > 4) {
                    throw malformed(where, "an element's length takes " + bytes + " bytes (at most 4 are read)", start);
                }
                if (contentStart + bytes > limit) {
                    throw malformed(where, "an element's length is cut short", start);
                }
                length = 0;
                for (int i = 0; i < bytes; i++) {
                    length = (length << 8) | (der[contentStart + i] & 0xff);
                }
                contentStart += bytes;
            }
            if (length > limit - contentStart) {
                throw malformed(where, "an element declares " + length + " bytes but only " + (limit - contentStart)
                        + " remain", start);
            }
            return new Der(tag, start, contentStart, contentStart + (int) length);
        }

        /** This element, when its tag is {@code tag}. */
        Der require(int expected, String where) {
            if (tag != expected) {
                throw malformed(where, String.format("an element has tag 0x%02x where 0x%02x belongs", tag, expected),
                        start);
            }
            return this;
        }

        /** The error for a malformed key: what is wrong and at which byte offset, never the key's bytes. */
        static IllegalArgumentException malformed(String where, String what, int offset) {
            return new IllegalArgumentException(where + " holds a malformed private key: " + what + " (at byte offset "
                    + offset + " of its DER encoding)");
        }
    }

    /** A DER element: {@code tag}, the definite length of {@code content}, then {@code content} (package-private for the tests). */
    static byte[] encodeDer(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        writeDerLength(out, content.length);
        out.writeBytes(content);
        return out.toByteArray();
    }

    /** A definite DER length: short form below 128, else the long form in as few bytes as it needs. */
    static void writeDerLength(ByteArrayOutputStream out, int length) {
        if (length < 0x80) {
            out.write(length);
            return;
        }
        int bytes = length < 0x100 ? 1 : length < 0x10000 ? 2 : length < 0x1000000 ? 3 : 4;
        out.write(0x80 | bytes);
        for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
            out.write(length >> shift);
        }
    }
}
