package dev.operatorstarter.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A CRD conversion webhook as a plain function: an {@code apiextensions.k8s.io/v1}
 * {@link ConversionReview} in, the review with every object converted to the
 * {@code desiredAPIVersion} out, through the {@link Converter}s of one kind.
 *
 * <pre>{@code
 * ConversionEndpoint endpoint = ConversionEndpoint.builder()
 *         .converter(GadgetV1alpha1.class, GadgetV1.class, converter)
 *         .build();
 * }</pre>
 *
 * <p>Each version is a class naming its group, version and kind ({@code @Group}, {@code @Version},
 * optionally {@code @Kind}); all share group and kind. An object is converted by the converter
 * between its version and the desired one (either direction), else through the hub when one is
 * declared (to the hub, then from it), else the request fails naming the two versions. An object
 * already in the desired version is returned as it came. {@code apiVersion} is set to the
 * desired one, {@code metadata} is kept as it came but for labels and annotations, which come
 * from the converter's result.
 *
 * <p>Errors: the request fails as a whole ({@code result.status: Failure}, with a message naming
 * the object and the step) when an object has an unknown version or kind, cannot be decoded, or
 * a converter throws anything, an {@link Error} included (then the message is generic and the
 * failure is logged); the API server then fails the client's request. A body that is not a
 * ConversionReview gets a Failure too, never a broken answer.
 */
public interface ConversionEndpoint extends WebhookEndpoint {

    static Builder builder() {
        return new Builder();
    }

    /** The API versions ({@code group/version}) this endpoint converts between. */
    Set<String> versions();

    /**
     * {@code review} answered: a new review with the response, without the request. The converted
     * objects are JSON trees ({@code tools.jackson.databind.JsonNode}), as they will be sent.
     */
    ConversionReview review(ConversionReview review);

    /** Collects converters and the optional hub; {@link #build()} checks they fit together. */
    final class Builder {

        private final List<ConversionRoutes.Registration<?, ?>> converters = new ArrayList<>();
        private @Nullable Class<? extends HasMetadata> hub;

        private Builder() {
        }

        /** Converts between {@code first} and {@code second}, both ways, with {@code converter}. */
        public <A extends HasMetadata, B extends HasMetadata> Builder converter(Class<A> first, Class<B> second,
                Converter<A, B> converter) {
            converters.add(new ConversionRoutes.Registration<>(Objects.requireNonNull(first, "first"),
                    Objects.requireNonNull(second, "second"), Objects.requireNonNull(converter, "converter")));
            return this;
        }

        /**
         * Declares the hub version: conversions between two other versions go through it, so each
         * other version needs only a converter with the hub. Default: none, every pair of versions
         * that is converted needs its own converter.
         */
        public Builder hub(Class<? extends HasMetadata> hub) {
            this.hub = Objects.requireNonNull(hub, "hub");
            return this;
        }

        /**
         * @throws IllegalArgumentException when there is no converter, a class names no version,
         *     classes differ in group or kind, two converters join the same versions, a converter
         *     joins a version to itself, or the hub is not one of the versions or lacks a converter
         *     with one of them
         */
        public ConversionEndpoint build() {
            return new ConvertingEndpoint(new ConversionRoutes(converters, hub));
        }
    }
}
