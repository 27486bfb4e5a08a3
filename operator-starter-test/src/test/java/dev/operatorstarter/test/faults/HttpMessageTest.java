package dev.operatorstarter.test.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link HttpHead} and {@link HttpBody}: reading and writing HTTP/1.1 messages. */
class HttpMessageTest {

    @Test
    void aHeadIsReadWithItsFieldsInOrderAndLooksUpNamesCaseInsensitively() throws IOException {
        HttpHead head = HttpHead.read(in("GET /api?watch=1 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\n"
                + "accept: a\n\r\nrest"));

        assertThat(head.method()).isEqualTo("GET");
        assertThat(head.target()).isEqualTo("/api?watch=1");
        assertThat(head.header("ACCEPT")).isEqualTo("a");
        assertThat(head.lists("connection", "upgrade")).isTrue();
        assertThat(head.without("host").headers()).extracting(h -> h.getKey()).containsExactly("Connection", "accept");
    }

    @Test
    void aStreamThatEndsBetweenMessagesHasNoHeadButOneThatEndsInsideOneIsAnError() throws IOException {
        assertThat(HttpHead.read(in(""))).isNull();
        assertThatThrownBy(() -> HttpHead.read(in("GET / HTTP/1.1\r\nHost"))).isInstanceOf(EOFException.class);
    }

    @Test
    void aChunkedBodyIsReadChunkByChunkIgnoringExtensionsAndTrailers() throws IOException {
        HttpHead head = HttpHead.read(in("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
        HttpBody body = HttpBody.ofResponse(head, "GET",
                in("3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\nnext"));

        List<String> pieces = new ArrayList<>();
        for (byte[] piece = body.next(); piece != null; piece = body.next()) {
            pieces.add(new String(piece, StandardCharsets.UTF_8));
        }

        assertThat(pieces).containsExactly("abc", "de");
    }

    @Test
    void aResponseBodyIsFramedByLengthByChunksOrByTheEndOfTheConnection() throws IOException {
        assertThat(framing("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n", "GET")).isEqualTo(HttpBody.Framing.LENGTH);
        assertThat(framing("HTTP/1.1 200 OK\r\n\r\n", "GET")).isEqualTo(HttpBody.Framing.UNTIL_CLOSE);
        assertThat(framing("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n", "HEAD")).isEqualTo(HttpBody.Framing.NONE);
        assertThat(framing("HTTP/1.1 204 No Content\r\n\r\n", "DELETE")).isEqualTo(HttpBody.Framing.NONE);
    }

    @Test
    void aBodyShorterThanItsLengthIsAnError() throws IOException {
        HttpHead head = HttpHead.read(in("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"));

        assertThatThrownBy(() -> HttpBody.ofResponse(head, "GET", in("short")).readAll(100))
                .isInstanceOf(EOFException.class);
    }

    @Test
    void chunksAreWrittenWithTheirSizeAndACutChunkClaimsMoreThanItHas() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        HttpBody.writeChunk(out, "hello".getBytes(StandardCharsets.US_ASCII));
        HttpBody.writeChunk(out, new byte[0]);
        HttpBody.writeChunkStart(out, 16, "cut".getBytes(StandardCharsets.US_ASCII));

        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("5\r\nhello\r\n10\r\ncut");
    }

    private static HttpBody.Framing framing(String head, String method) throws IOException {
        return HttpBody.ofResponse(HttpHead.read(in(head)), method, in("")).framing();
    }

    private static InputStream in(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
