package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.Request;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.client.rest.WebSocket;
import dev.operatorstarter.internal.DaemonThreads;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.Exceptions;

/** {@link PodStreams} over the REST client: logs as a streamed GET, the rest over WebSockets. */
final class RestPodStreams implements PodStreams {

    private final RestClient rest;
    private final String namespace;
    private final String name;

    RestPodStreams(RestClient rest, String namespace, String name) {
        this.rest = Objects.requireNonNull(rest, "rest");
        this.namespace = requireName(namespace, "namespace");
        this.name = requireName(name, "name");
    }

    private static String requireName(@Nullable String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " of the Pod must not be empty");
        }
        return value;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public String name() {
        return name;
    }

    private Request subresource(String subresource) {
        return rest.get().groupVersion("", "v1").namespace(namespace).resource("pods").name(name)
                .subresource(subresource);
    }

    /** The verb, Pod and container, for messages; never the command (it may carry a secret). */
    private String describe(String verb, @Nullable String container) {
        return verb + " in pod " + namespace + "/" + name + (container == null ? "" : " (container " + container + ")");
    }

    @Override
    public PodLogs logs(LogOptions options) {
        return new RestPodLogs(rest, () -> subresource("log"), options, "the log of pod " + namespace + "/" + name
                + (options.container() == null ? "" : " (container " + options.container() + ")"));
    }

    @Override
    public ExecSession exec(ExecOptions options) {
        if (options.command().isEmpty()) {
            throw new IllegalArgumentException("exec needs a command: ExecOptions.command(...)");
        }
        Request request = streamQuery(subresource("exec"), options);
        options.command().forEach(argument -> request.param("command", argument));
        return open(request, options, describe("exec", options.container()));
    }

    @Override
    public ExecSession attach(ExecOptions options) {
        if (!options.command().isEmpty()) {
            throw new IllegalArgumentException("attach takes no command (it joins the container's main process)");
        }
        return open(streamQuery(subresource("attach"), options), options, describe("attach", options.container()));
    }

    private static Request streamQuery(Request request, ExecOptions options) {
        if (options.container() != null) {
            request.param("container", options.container());
        }
        return request.param("stdin", Boolean.toString(options.stdin()))
                .param("stdout", Boolean.toString(options.stdout()))
                .param("stderr", Boolean.toString(options.stderr()))
                .param("tty", Boolean.toString(options.tty()));
    }

    private ExecSession open(Request request, ExecOptions options, String what) {
        WebSocket socket = connect(request, what, WebSocketExecSession.V5, WebSocketExecSession.V4);
        return new WebSocketExecSession(socket, what, options, rest.options().requestTimeout()).start();
    }

    @Override
    public PortForward openPort(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
        }
        String what = "port-forward to pod " + namespace + "/" + name + " port " + port;
        WebSocket socket = connect(subresource("portforward").param("ports", Integer.toString(port)), what,
                WebSocketExecSession.V4);
        return new WebSocketPortForward(socket, port, what, rest.options().requestTimeout()).start();
    }

    @Override
    public LocalPortForward portForward(int port, int localPort) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
        }
        String what = "port-forward to pod " + namespace + "/" + name + " port " + port;
        return SocketPortForward.listen(localPort, port, what, this::openPort,
                DaemonThreads.factory("port-forward-" + name + "-" + port));
    }

    /**
     * Opens the WebSocket within the client's request timeout; a refusal is rethrown as the same
     * kind of {@link ApiException}, and a transport failure as a {@link KubernetesClientException},
     * each named by {@code what} instead of the URL (which holds the command).
     */
    private static WebSocket connect(Request request, String what, String... protocols) {
        String url = "GET " + new RedactedUri(request.uri());
        try {
            WebSocket socket = request.webSocket(protocols).block();
            if (socket == null) {
                throw new KubernetesClientException(what + " failed: the connection ended during the handshake");
            }
            return socket;
        } catch (ApiException e) {
            throw ApiException.fromStatus(e.status(), what);
        } catch (KubernetesClientException e) {
            String message = String.valueOf(e.getMessage());
            throw new KubernetesClientException(message.contains(url) ? message.replace(url, what)
                    : what + " failed: " + message, e.getCause() == null ? e : e.getCause());
        } catch (RuntimeException e) {
            Throwable cause = Exceptions.unwrap(e);
            throw new KubernetesClientException(what + " failed: " + cause.getMessage(), cause);
        }
    }
}
