package dev.operatorstarter.client.pod;

import java.util.stream.Stream;
import reactor.core.publisher.Flux;

/**
 * A container's log, per its {@link LogOptions}: read at once, or as lines while they arrive.
 * Nothing is requested until a method is called; each call is a request of its own.
 *
 * <p>Refusals are the client's {@code ApiException}s naming the request (Pod, namespace and
 * container are in its URL): {@code NotFound} for a missing Pod, {@code BadRequest} for a container
 * the Pod does not have or a Pod not yet running, {@code Forbidden} without RBAC for
 * {@code pods/log}.
 */
public interface PodLogs {

    /**
     * The log as one string, within the client's request timeout and {@code maxResponseBytes}
     * (use {@link LogOptions#limitBytes} or {@link LogOptions#tailLines} for a long log). Blocks; not
     * on a Reactor I/O thread.
     *
     * @throws IllegalStateException with {@link LogOptions#follow}, which never ends: use {@link #lines()}
     */
    String read();

    /**
     * The log's lines, without their line ends, as they arrive, with backpressure: while the
     * subscriber requests nothing the socket is not read. Completes when the log ends (without
     * {@code follow}, at its end; with it, when the container stops); cancelling closes the
     * connection. No request timeout applies: bound a follow with {@code take}/{@code timeout}
     * or by cancelling. A line longer than the client's {@code maxResponseBytes} fails the flux.
     */
    Flux<String> lines();

    /**
     * {@link #lines()} as a blocking stream; closing the stream (try-with-resources) closes the
     * connection. Not on a Reactor I/O thread.
     */
    Stream<String> stream();
}
