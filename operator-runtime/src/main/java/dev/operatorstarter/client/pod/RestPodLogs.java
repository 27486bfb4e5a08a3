package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.rest.Request;
import dev.operatorstarter.client.rest.ResponseTooLargeException;
import dev.operatorstarter.client.rest.RestClient;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.StringDecoder;
import org.springframework.core.io.buffer.DataBufferLimitException;
import reactor.core.publisher.Flux;

/** {@link PodLogs} over {@code GET .../pods/<name>/log}. */
final class RestPodLogs implements PodLogs {

    /** Lines handed over at a time by {@link #stream()}: the blocking stream's read-ahead. */
    private static final int STREAM_PREFETCH = 256;

    private final RestClient rest;
    private final Supplier<Request> request;
    private final LogOptions options;
    private final String what;

    RestPodLogs(RestClient rest, Supplier<Request> request, LogOptions options, String what) {
        this.rest = rest;
        this.request = request;
        this.options = options;
        this.what = what;
    }

    private Request withQuery() {
        // as client-go: the log is plain text, but errors come as a JSON Status (text/plain alone is refused with 406)
        Request get = request.get().accept("application/json, */*");
        if (options.container() != null) {
            get.param("container", options.container());
        }
        if (options.follow()) {
            get.param("follow", "true");
        }
        if (options.previous()) {
            get.param("previous", "true");
        }
        if (options.timestamps()) {
            get.param("timestamps", "true");
        }
        if (options.sinceSeconds() != null) {
            get.param("sinceSeconds", options.sinceSeconds().toString());
        }
        if (options.sinceTime() != null) {
            get.param("sinceTime", DateTimeFormatter.ISO_INSTANT.format(options.sinceTime()));
        }
        if (options.tailLines() != null) {
            get.param("tailLines", options.tailLines().toString());
        }
        if (options.limitBytes() != null) {
            get.param("limitBytes", options.limitBytes().toString());
        }
        return get;
    }

    @Override
    public String read() {
        if (options.follow()) {
            throw new IllegalStateException("read() of " + what + " with follow would never end: use lines() or stream()");
        }
        return new String(withQuery().bytes(), StandardCharsets.UTF_8);
    }

    @Override
    public Flux<String> lines() {
        int maxLine = rest.options().maxResponseBytes();
        StringDecoder decoder = StringDecoder.allMimeTypes(StringDecoder.DEFAULT_DELIMITERS, true);
        decoder.setMaxInMemorySize(maxLine);
        return Flux.defer(() -> decoder.decode(withQuery().stream(), ResolvableType.forClass(String.class), null,
                        Map.of()))
                .onErrorMap(DataBufferLimitException.class, e -> new ResponseTooLargeException(what
                        + " has a line longer than the client's maxResponseBytes (" + maxLine + " bytes)", e));
    }

    @Override
    public Stream<String> stream() {
        return lines().toStream(STREAM_PREFETCH);
    }
}
