package dev.operatorstarter.client;

import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import java.time.Duration;
import java.util.Objects;

/** {@link Evictions} on the {@link RestClient}: a typed {@link Eviction} posted as one attempt. */
final class RestEvictions implements Evictions {

    private final RestClient rest;
    private final Duration deadline;

    RestEvictions(RestClient rest) {
        this(rest, rest.options().requestTimeout());
    }

    private RestEvictions(RestClient rest, Duration deadline) {
        this.rest = rest;
        this.deadline = deadline;
    }

    @Override
    public Evictions withDeadline(Duration deadline) {
        return new RestEvictions(rest, Durations.requirePositive(deadline, "deadline"));
    }

    @Override
    public void evict(String namespace, String name, DeleteOptions options) {
        requireName(namespace, "namespace");
        requireName(name, "name");
        Objects.requireNonNull(options, "options");
        Eviction eviction = new EvictionBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withDeleteOptions(Json.MAPPER.convertValue(options.toBody(),
                        io.fabric8.kubernetes.api.model.DeleteOptions.class))
                .build();
        rest.post().deadline(deadline).groupVersion("", "v1").namespace(namespace).resource("pods").name(name)
                .subresource("eviction").body(eviction).bytes();
    }

    private static void requireName(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty()) {
            throw new IllegalArgumentException("an eviction needs the Pod's " + what + "; it was empty");
        }
    }
}
