package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.rest.RestClient;

/**
 * The streaming subresources of one Pod: {@code log}, {@code exec}, {@code attach} and
 * {@code portforward}, through the REST client's TLS, proxy, credentials and rate limit.
 *
 * <pre>{@code
 * PodStreams pod = PodStreams.of(client.rest(), "shop", "postgres-0");
 * ExecResult ready = pod.exec(ExecOptions.command("pg_isready")).collect(Duration.ofSeconds(10));
 * }</pre>
 *
 * <p>Opening a session (exec, attach, port-forward) blocks until the server accepted it, within
 * the client's request timeout; a refusal is the client's {@code ApiException} ({@code NotFound}
 * for a missing Pod, {@code BadRequest} for a container it does not have, {@code Forbidden}
 * without RBAC for the subresource's {@code create}) naming the verb, Pod, namespace and container.
 * Messages never include credentials. Thread-safe; cheap to make.
 */
public interface PodStreams {

    /** The streams of Pod {@code name} in {@code namespace}. */
    static PodStreams of(RestClient rest, String namespace, String name) {
        return new RestPodStreams(rest, namespace, name);
    }

    String namespace();

    String name();

    /** The container log that {@code options} select. */
    PodLogs logs(LogOptions options);

    /** The whole current log of the default container. */
    default PodLogs logs() {
        return logs(LogOptions.defaults());
    }

    /**
     * Runs {@link ExecOptions#command} in the container. Blocks until the session is open.
     *
     * @throws IllegalArgumentException when the options have no command
     */
    ExecSession exec(ExecOptions options);

    /**
     * Attaches to the container's main process (its stdin needs {@code stdin: true} in the Pod
     * spec). Blocks until the session is open.
     *
     * @throws IllegalArgumentException when the options have a command
     */
    ExecSession attach(ExecOptions options);

    /** Opens one connection to the Pod's {@code port}. Blocks until the server accepted it. */
    PortForward openPort(int port);

    /**
     * Listens on loopback {@code localPort} (0: any free port) and forwards each connection to the
     * Pod's {@code port}.
     */
    LocalPortForward portForward(int port, int localPort);
}
