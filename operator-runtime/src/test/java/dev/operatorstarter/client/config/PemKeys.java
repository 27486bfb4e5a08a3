package dev.operatorstarter.client.config;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Private keys made with the JDK's {@link KeyPairGenerator}, as DER in the three forms kubeconfigs
 * hold (PKCS#8, PKCS#1 for RSA, SEC1 with its curve for EC), and as PEM. The DER helpers trust
 * their input: they only take apart what the JDK wrote.
 */
final class PemKeys {

    private PemKeys() {
    }

    static PrivateKey rsa() {
        return generate("RSA", null);
    }

    static PrivateKey ec() {
        return generate("EC", "secp256r1");
    }

    static PrivateKey ed25519() {
        return generate("Ed25519", null);
    }

    /** PKCS#1 {@code RSAPrivateKey}: the OCTET STRING inside the JDK's PKCS#8. */
    static byte[] pkcs1(PrivateKey rsa) {
        List<byte[]> info = children(rsa.getEncoded());
        return content(info.get(2));
    }

    /** SEC1 {@code ECPrivateKey} with its [0] curve parameters, as openssl writes it. */
    static byte[] sec1(PrivateKey ec) {
        List<byte[]> info = children(ec.getEncoded());
        byte[] curve = children(info.get(1)).get(1);
        List<byte[]> inner = children(content(info.get(2)));
        ByteArrayOutputStream sequence = new ByteArrayOutputStream();
        sequence.writeBytes(inner.get(0)); // version 1
        sequence.writeBytes(inner.get(1)); // the private key
        sequence.writeBytes(Pem.encodeDer(0xa0, curve));
        for (int i = 2; i < inner.size(); i++) {
            if ((inner.get(i)[0] & 0xff) != 0xa0) {
                sequence.writeBytes(inner.get(i)); // [1] public key
            }
        }
        return Pem.encodeDer(0x30, sequence.toByteArray());
    }

    static byte[] pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return ("-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n")
                .getBytes(StandardCharsets.US_ASCII);
    }


    /** The whole encodings of the elements inside the constructed element {@code der}. */
    private static List<byte[]> children(byte[] der) {
        byte[] content = content(der);
        List<byte[]> children = new ArrayList<>();
        int position = 0;
        while (position < content.length) {
            int[] header = header(content, position);
            int end = header[0] + header[1];
            byte[] child = new byte[end - position];
            System.arraycopy(content, position, child, 0, child.length);
            children.add(child);
            position = end;
        }
        return children;
    }

    private static byte[] content(byte[] der) {
        int[] header = header(der, 0);
        byte[] content = new byte[header[1]];
        System.arraycopy(der, header[0], content, 0, content.length);
        return content;
    }

    /** Where the content of the element at {@code start} begins, and its length. */
    private static int[] header(byte[] der, int start) {
        int first = der[start + 1] & 0xff;
        if (first < 0x80) {
            return new int[] {start + 2, first};
        }
        int bytes = first & 0x7f;
        int length = 0;
        for (int i = 0; i < bytes; i++) {
            length = (length << 8) | (der[start + 2 + i] & 0xff);
        }
        return new int[] {start + 2 + bytes, length};
    }

    private static PrivateKey generate(String algorithm, String curve) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (curve != null) {
                generator.initialize(new ECGenParameterSpec(curve));
            } else if (algorithm.equals("RSA")) {
                generator.initialize(2048);
            }
            return generator.generateKeyPair().getPrivate();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
