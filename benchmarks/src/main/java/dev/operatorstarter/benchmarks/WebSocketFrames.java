package dev.operatorstarter.benchmarks;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The server's side of RFC 6455, as much as {@link WebSocketEndpoint} needs: the handshake's accept key, the
 * headers of the unmasked frames a server sends, and reading (then ignoring) the masked frames a client sends.
 * No fragmentation on the way out, no extensions, no subprotocols.
 */
final class WebSocketFrames {

    /** A text frame: the API server sends each JSON watch event as one. */
    static final int TEXT = 0x1;
    static final int CLOSE = 0x8;

    /** Appended to the client's key before hashing (RFC 6455, section 1.3). */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private WebSocketFrames() {
    }

    /** The {@code Sec-WebSocket-Accept} value that answers a client's {@code Sec-WebSocket-Key}. */
    static String acceptKey(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key.strip() + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    /** The header of a final, unmasked frame of {@code opcode} carrying {@code length} payload bytes. */
    static byte[] header(int opcode, long length) {
        byte first = (byte) (0x80 | opcode);
        if (length < 126) {
            return new byte[] {first, (byte) length};
        }
        if (length <= 0xFFFF) {
            return new byte[] {first, 126, (byte) (length >>> 8), (byte) length};
        }
        byte[] header = new byte[10];
        header[0] = first;
        header[1] = 127;
        for (int i = 0; i < 8; i++) {
            header[2 + i] = (byte) (length >>> (56 - 8 * i));
        }
        return header;
    }

    /** A whole close frame with {@code code} and no reason. */
    static byte[] close(int code) {
        byte[] header = header(CLOSE, 2);
        return new byte[] {header[0], header[1], (byte) (code >>> 8), (byte) code};
    }

    /** One frame read from a client, its payload unmasked. */
    record Frame(int opcode, byte[] payload) {
    }

    /** Reads one frame; {@link EOFException} if the stream ends first. */
    static Frame read(InputStream in) throws IOException {
        int first = readByte(in);
        int second = readByte(in);
        long length = second & 0x7F;
        if (length == 126) {
            length = (readByte(in) << 8) | readByte(in);
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | readByte(in);
            }
        }
        if (length > 1 << 20) {
            throw new IOException("a client frame of " + length + " bytes: larger than any this server expects");
        }
        byte[] mask = (second & 0x80) != 0 ? in.readNBytes(4) : null;
        byte[] payload = in.readNBytes((int) length);
        if (payload.length < length || mask != null && mask.length < 4) {
            throw new EOFException("the client's frame ended early");
        }
        if (mask != null) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= mask[i & 3];
            }
        }
        return new Frame(first & 0x0F, payload);
    }

    private static int readByte(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the client closed the connection");
        }
        return b;
    }
}
