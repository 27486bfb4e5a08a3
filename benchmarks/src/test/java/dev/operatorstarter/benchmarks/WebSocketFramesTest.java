package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebSocketFramesTest {

    @Test
    void theAcceptKeyIsTheOneOfRfc6455sExample() {
        // section 1.3: the sample nonce and the accept value the RFC gives for it
        assertThat(WebSocketFrames.acceptKey("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @ParameterizedTest(name = "{0} bytes: {1}")
    @CsvSource({
        "0, 81 00",
        "125, 81 7d",
        "126, 81 7e 00 7e",
        "1024, 81 7e 04 00",
        "65535, 81 7e ff ff",
        "65536, 81 7f 00 00 00 00 00 01 00 00",
        "4294967296, 81 7f 00 00 00 01 00 00 00 00",
    })
    void aTextFrameHeaderCarriesItsLengthInTheShortestOfTheThreeForms(long length, String expected) {
        assertThat(hex(WebSocketFrames.header(WebSocketFrames.TEXT, length))).isEqualTo(expected);
    }

    @Test
    void aCloseFrameCarriesItsCodeAndNoMask() {
        assertThat(hex(WebSocketFrames.close(1000))).isEqualTo("88 02 03 e8");
    }

    @Test
    void aMaskedClientFrameIsReadUnmasked() throws IOException {
        // RFC 6455, section 5.7: a single-frame masked text message containing "Hello"
        byte[] frame = bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58");

        WebSocketFrames.Frame read = WebSocketFrames.read(new ByteArrayInputStream(frame));

        assertThat(read.opcode()).isEqualTo(WebSocketFrames.TEXT);
        assertThat(new String(read.payload(), StandardCharsets.UTF_8)).isEqualTo("Hello");
    }

    @Test
    void aClientCloseFrameWithALongerLengthFormIsReadWhole() throws IOException {
        byte[] payload = new byte[200];
        payload[0] = 0x03;
        payload[1] = (byte) 0xe8;
        byte[] frame = new byte[4 + 4 + payload.length];
        System.arraycopy(bytes("88 fe 00 c8"), 0, frame, 0, 4);
        // a zero mask leaves the payload as it is
        System.arraycopy(payload, 0, frame, 8, payload.length);

        WebSocketFrames.Frame read = WebSocketFrames.read(new ByteArrayInputStream(frame));

        assertThat(read.opcode()).isEqualTo(WebSocketFrames.CLOSE);
        assertThat(read.payload()).isEqualTo(payload);
    }

    @Test
    void aFrameCutShortEndsTheRead() {
        assertThatThrownBy(() -> WebSocketFrames.read(new ByteArrayInputStream(bytes("81 85 37 fa 21 3d 7f"))))
                .isInstanceOf(EOFException.class);
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes) {
            hex.append(hex.isEmpty() ? "" : " ").append(String.format("%02x", b & 0xFF));
        }
        return hex.toString();
    }

    private static byte[] bytes(String hex) {
        String[] parts = hex.split(" ");
        byte[] bytes = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return bytes;
    }
}
