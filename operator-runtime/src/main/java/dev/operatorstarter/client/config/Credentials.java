package dev.operatorstarter.client.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How requests are authenticated, apart from a TLS client certificate (see {@link TlsSettings}).
 * {@code toString} of every variant hides secrets.
 */
public sealed interface Credentials {

    /** No credentials beyond a client certificate, if any. */
    static Credentials none() {
        return None.INSTANCE;
    }

    /** No header is sent. */
    enum None implements Credentials {
        INSTANCE
    }

    /** A fixed bearer token. */
    record BearerToken(String token) implements Credentials {

        public BearerToken {
            Objects.requireNonNull(token, "token");
        }

        @Override
        public String toString() {
            return "BearerToken[<redacted>]";
        }
    }

    /**
     * A bearer token read from a file, and read again when the file changes: service-account
     * tokens are rotated by the kubelet, and a long-running client must follow.
     */
    record TokenFile(Path file) implements Credentials {

        public TokenFile {
            Objects.requireNonNull(file, "file");
        }
    }

    /** HTTP basic authentication. */
    record Basic(String username, String password) implements Credentials {

        public Basic {
            Objects.requireNonNull(username, "username");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Basic[" + username + ", <redacted>]";
        }
    }

    /**
     * A credential plugin run as a process (kubeconfig {@code users[].user.exec}), as in
     * client-go's {@code client.authentication.k8s.io} protocol.
     *
     * @param apiVersion {@code client.authentication.k8s.io/v1} or {@code .../v1beta1}
     * @param command the program; a relative path containing a separator resolves against {@code workingDirectory}
     * @param args its arguments
     * @param env extra environment variables
     * @param interactiveMode whether the plugin may use standard input
     * @param provideClusterInfo pass the cluster's server and CA in {@code KUBERNETES_EXEC_INFO}
     * @param installHint shown when the program cannot be found
     * @param workingDirectory the folder of the kubeconfig that declared the plugin
     */
    record Exec(String apiVersion, String command, List<String> args, Map<String, String> env,
            InteractiveMode interactiveMode, boolean provideClusterInfo, String installHint, Path workingDirectory)
            implements Credentials {

        public Exec {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }

        @Override
        public String toString() {
            // Arguments and environment values may hold secrets (an OIDC client secret): names only.
            return "Exec[" + apiVersion + ", " + command + " with " + args.size() + " arguments, env " + env.keySet() + "]";
        }
    }

    /** The exec plugin's {@code interactiveMode}. This client never has a terminal to offer. */
    enum InteractiveMode {
        /** The plugin never reads standard input. */
        NEVER,
        /** The plugin may read standard input if there is one (here: there is not). */
        IF_AVAILABLE,
        /** The plugin needs standard input: it cannot run under this client. */
        ALWAYS
    }
}
