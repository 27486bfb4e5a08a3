package dev.operatorstarter.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.function.Function;

/**
 * Converts objects of one kind between two of its versions, both ways: the logic behind a CRD's
 * conversion webhook. Register converters with {@link ConversionEndpoint#builder()}; with a hub
 * version declared, converting between two other versions goes through the hub.
 *
 * <pre>{@code
 * Converter<GadgetV1alpha1, GadgetV1> converter = Converter.of(
 *         old -> GadgetV1.painted(old.getSpec().colour()),
 *         current -> GadgetV1alpha1.coloured(current.getSpec().paint().colour()));
 * }</pre>
 *
 * <p>Contract: each direction receives its own decoded copy and returns a new object of the other
 * class (or the same object changed). Only {@code spec}, {@code status} and other fields of the
 * object's own count: the runtime sets {@code apiVersion} and {@code kind}, and keeps the
 * object's {@code metadata} as it came except for {@code labels} and {@code annotations}, the only
 * metadata the API server lets a conversion change (annotations are the usual place to keep what
 * one version cannot express, so converting there and back loses nothing). Be a pure function:
 * the API server converts on every read and write of a version other than the stored one, in
 * batches (a list), and may convert the same object many times.
 *
 * <p>Errors: an exception fails the whole conversion request with its message; the API server then
 * fails the client's read or write with it.
 *
 * @param <A> the class of one version
 * @param <B> the class of the other version
 */
public interface Converter<A extends HasMetadata, B extends HasMetadata> {

    /** {@code source} in the other version. */
    B convert(A source) throws Exception;

    /** {@code source} back in the first version. */
    A convertBack(B source) throws Exception;

    /** A converter of two functions, one per direction. */
    static <A extends HasMetadata, B extends HasMetadata> Converter<A, B> of(Function<A, B> forward,
            Function<B, A> backward) {
        Objects.requireNonNull(forward, "forward");
        Objects.requireNonNull(backward, "backward");
        return new Converter<>() {
            @Override
            public B convert(A source) {
                return forward.apply(source);
            }

            @Override
            public A convertBack(B source) {
                return backward.apply(source);
            }
        };
    }
}
