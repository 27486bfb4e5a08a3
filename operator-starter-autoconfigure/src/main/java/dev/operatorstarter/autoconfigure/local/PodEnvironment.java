package dev.operatorstarter.autoconfigure.local;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A container's environment as the kubelet would give it: the variables the kubelet sets first,
 * then {@code envFrom} (ConfigMaps and Secrets, with their prefix), then {@code env} in order,
 * each {@code value} with its {@code $(NAME)} references to earlier variables expanded
 * ({@code $$} for a literal {@code $}), and each {@code valueFrom} resolved: the pod's fields
 * (see {@link #field}), and keys of ConfigMaps and Secrets read through a {@link Lookup}. An
 * optional reference that finds nothing leaves the variable out; anything else that cannot be
 * resolved fails, naming the variable, as the kubelet would refuse to start the container.
 */
final class PodEnvironment {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([-._a-zA-Z][-._a-zA-Z0-9]*)\\)");
    private static final Pattern MAP_FIELD = Pattern.compile("metadata\\.(labels|annotations)\\['([^']+)'\\]");

    /** What a pod knows of itself, for {@code fieldRef}. */
    record Pod(String name, String namespace, String serviceAccount, String ip, Map<String, String> labels,
            Map<String, String> annotations) {
    }

    /** The ConfigMaps and Secrets of the pod's namespace, as key to (decoded) value; empty when there is none of that name. */
    interface Lookup {

        Optional<Map<String, String>> configMap(String name);

        Optional<Map<String, String>> secret(String name);
    }

    private PodEnvironment() {
    }

    /**
     * The environment of a container with {@code envFrom} and {@code env} in pod {@code pod},
     * after the kubelet's own variables {@code kubelet}.
     *
     * @throws IllegalStateException naming the variable that cannot be resolved and why
     */
    static Map<String, String> resolve(Map<String, String> kubelet, @Nullable List<EnvFromSource> envFrom,
            @Nullable List<EnvVar> env, Pod pod, Lookup lookup) {
        Map<String, String> environment = new LinkedHashMap<>(kubelet);
        for (EnvFromSource source : envFrom == null ? List.<EnvFromSource>of() : envFrom) {
            String prefix = source.getPrefix() == null ? "" : source.getPrefix();
            if (source.getConfigMapRef() != null) {
                String name = source.getConfigMapRef().getName();
                lookup.configMap(name).or(() -> absent(source.getConfigMapRef().getOptional(), "envFrom", "ConfigMap", name))
                        .ifPresent(data -> data.forEach((key, value) -> environment.put(prefix + key, value)));
            } else if (source.getSecretRef() != null) {
                String name = source.getSecretRef().getName();
                lookup.secret(name).or(() -> absent(source.getSecretRef().getOptional(), "envFrom", "Secret", name))
                        .ifPresent(data -> data.forEach((key, value) -> environment.put(prefix + key, value)));
            }
        }
        for (EnvVar variable : env == null ? List.<EnvVar>of() : env) {
            String name = variable.getName();
            EnvVarSource from = variable.getValueFrom();
            if (from == null) {
                environment.put(name, expand(variable.getValue() == null ? "" : variable.getValue(), environment));
            } else {
                valueOf(name, from, pod, lookup).ifPresent(value -> environment.put(name, value));
            }
        }
        return environment;
    }

    private static Optional<String> valueOf(String name, EnvVarSource from, Pod pod, Lookup lookup) {
        if (from.getFieldRef() != null) {
            return Optional.of(field(name, from.getFieldRef().getFieldPath(), pod));
        }
        if (from.getConfigMapKeyRef() != null) {
            ConfigMapKeySelector key = from.getConfigMapKeyRef();
            return lookup.configMap(key.getName()).map(data -> data.get(key.getKey()))
                    .or(() -> absent(key.getOptional(), name, "ConfigMap", key.getName() + " key " + key.getKey()));
        }
        if (from.getSecretKeyRef() != null) {
            SecretKeySelector key = from.getSecretKeyRef();
            return lookup.secret(key.getName()).map(data -> data.get(key.getKey()))
                    .or(() -> absent(key.getOptional(), name, "Secret", key.getName() + " key " + key.getKey()));
        }
        throw new IllegalStateException("variable " + name + ": only value, fieldRef, configMapKeyRef and secretKeyRef "
                + "can be resolved outside a cluster, not " + from);
    }

    private static <T> Optional<T> absent(@Nullable Boolean optional, String variable, String kind, String what) {
        if (Boolean.TRUE.equals(optional)) {
            return Optional.empty();
        }
        throw new IllegalStateException("variable " + variable + ": " + kind + " " + what + " does not exist, and the "
                + "reference is not optional (the kubelet would not start the container)");
    }

    /**
     * A {@code fieldRef}: {@code metadata.name}, {@code metadata.namespace},
     * {@code spec.serviceAccountName}, {@code metadata.labels['key']},
     * {@code metadata.annotations['key']} (of the Deployment's pod template), and
     * {@code status.podIP}, {@code status.podIPs} and {@code status.hostIP}, which are this
     * process's host as the pod's listeners are reached here.
     */
    static String field(String variable, String path, Pod pod) {
        switch (path) {
            case "metadata.name":
                return pod.name();
            case "metadata.namespace":
                return pod.namespace();
            case "spec.serviceAccountName":
                return pod.serviceAccount();
            case "status.podIP", "status.podIPs", "status.hostIP", "status.hostIPs":
                return pod.ip();
            default:
                Matcher map = MAP_FIELD.matcher(path);
                if (map.matches()) {
                    Map<String, String> values = map.group(1).equals("labels") ? pod.labels() : pod.annotations();
                    return values.getOrDefault(map.group(2), "");
                }
                throw new IllegalStateException("variable " + variable + ": fieldRef " + path + " cannot be resolved "
                        + "outside a cluster (supported: metadata.name, metadata.namespace, spec.serviceAccountName, "
                        + "metadata.labels['...'], metadata.annotations['...'], status.podIP, status.hostIP)");
        }
    }

    /** {@code $(NAME)} replaced by an earlier variable's value (left as it is when there is none), {@code $$} by {@code $}. */
    static String expand(String value, Map<String, String> earlier) {
        Matcher reference = REFERENCE.matcher(value);
        StringBuilder expanded = new StringBuilder();
        while (reference.find()) {
            String replacement = reference.group(1) == null ? "$"
                    : earlier.getOrDefault(reference.group(1), reference.group());
            reference.appendReplacement(expanded, Matcher.quoteReplacement(replacement));
        }
        reference.appendTail(expanded);
        return expanded.toString();
    }
}
