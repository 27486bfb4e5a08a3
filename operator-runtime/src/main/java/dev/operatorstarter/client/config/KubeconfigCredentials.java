package dev.operatorstarter.client.config;

import static dev.operatorstarter.client.config.KubeconfigParser.flag;
import static dev.operatorstarter.client.config.KubeconfigParser.isEmpty;
import static dev.operatorstarter.client.config.KubeconfigParser.shown;
import static dev.operatorstarter.client.config.KubeconfigParser.text;

import dev.operatorstarter.client.config.KubeconfigParser.WrongType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The credentials of a kubeconfig user entry (client-go's {@code AuthInfo}), exec plugins
 * included: apiVersion {@code client.authentication.k8s.io/v1} or {@code v1beta1}, with v1's
 * required {@code interactiveMode} and v1beta1's default {@code IfAvailable}.
 */
final class KubeconfigCredentials {

    private KubeconfigCredentials() {
    }

    /**
     * The credentials of the {@code user} entry: a token file (which wins over an inline token, as
     * in client-go), a token, basic auth, an exec plugin, or none; more than one method, or the
     * removed {@code auth-provider}, is an error naming the field.
     */
    static Credentials of(JsonNode user, KubeconfigField field) {
        List<String> methods = new ArrayList<>();
        if (!isEmpty(text(user, "token")) || !isEmpty(text(user, "tokenFile"))) {
            methods.add("token");
        }
        if (!isEmpty(text(user, "username")) || !isEmpty(text(user, "password"))) {
            methods.add("basic auth");
        }
        if (user.has("exec")) {
            methods.add("exec");
        }
        if (user.has("auth-provider")) {
            throw field.error("auth-provider", "is not supported (client-go removed its built-in providers in "
                    + "1.26); use an exec credential plugin such as kubelogin or gke-gcloud-auth-plugin");
        }
        if (methods.size() > 1) {
            throw field.error("user", "has more than one authentication method " + methods + "; only one is allowed");
        }
        String tokenFile = text(user, "tokenFile");
        if (tokenFile != null && !tokenFile.isEmpty()) {
            // As in client-go, a token file takes precedence over an inline token.
            return new Credentials.TokenFile(field.resolve(tokenFile));
        }
        String token = text(user, "token");
        if (token != null && !token.isEmpty()) {
            return new Credentials.BearerToken(token);
        }
        if (methods.contains("basic auth")) {
            String username = text(user, "username");
            String password = text(user, "password");
            if (username == null || password == null) {
                throw field.error(username == null ? "username" : "password",
                        "is missing: basic auth needs both username and password");
            }
            return new Credentials.Basic(username, password);
        }
        if (user.has("exec")) {
            return exec(user.get("exec"), field);
        }
        return Credentials.none();
    }

    private static Credentials.Exec exec(JsonNode exec, KubeconfigField field) {
        String apiVersion = text(exec, "apiVersion");
        if (!"client.authentication.k8s.io/v1".equals(apiVersion)
                && !"client.authentication.k8s.io/v1beta1".equals(apiVersion)) {
            throw field.error("exec.apiVersion", apiVersion == null ? "is missing"
                    : "\"" + shown(apiVersion) + "\" is not supported; use client.authentication.k8s.io/v1 or v1beta1");
        }
        String command = text(exec, "command");
        if (command == null || command.isEmpty()) {
            throw field.error("exec.command", "is missing");
        }
        List<String> args = new ArrayList<>();
        for (JsonNode arg : exec.path("args")) {
            if (arg.isContainer()) {
                throw new WrongType("exec.args[]", arg);
            }
            args.add(arg.asString());
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode variable : exec.path("env")) {
            String name = text(variable, "name");
            if (name == null) {
                throw field.error("exec.env", "has an entry without name");
            }
            String value = text(variable, "value");
            env.put(name, value == null ? "" : value);
        }
        String mode = text(exec, "interactiveMode");
        Credentials.InteractiveMode interactiveMode;
        if (mode == null || mode.isEmpty()) {
            // v1 requires the field; v1beta1 defaults to IfAvailable, as in client-go.
            if (apiVersion.endsWith("/v1")) {
                throw field.error("exec.interactiveMode", "is required for client.authentication.k8s.io/v1 "
                        + "(Never, IfAvailable or Always)");
            }
            interactiveMode = Credentials.InteractiveMode.IF_AVAILABLE;
        } else {
            interactiveMode = switch (mode) {
                case "Never" -> Credentials.InteractiveMode.NEVER;
                case "IfAvailable" -> Credentials.InteractiveMode.IF_AVAILABLE;
                case "Always" -> Credentials.InteractiveMode.ALWAYS;
                default -> throw field.error("exec.interactiveMode", "\"" + shown(mode)
                        + "\" is not one of Never, IfAvailable, Always");
            };
        }
        return new Credentials.Exec(apiVersion, command, args, env, interactiveMode,
                flag(exec, "provideClusterInfo"), isEmpty(text(exec, "installHint")) ? "" : text(exec, "installHint"),
                field.directory());
    }
}
