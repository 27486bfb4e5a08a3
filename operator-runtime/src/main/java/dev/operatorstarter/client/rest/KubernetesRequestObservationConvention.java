package dev.operatorstarter.client.rest;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientRequestObservationContext;
import org.springframework.web.reactive.function.client.DefaultClientRequestObservationConvention;

/**
 * Spring WebClient's {@code http.client.requests} observation with keys that say what a request
 * did in Kubernetes terms. One observation per HTTP attempt (a request retried after a 429 is
 * observed twice), made by the client's own {@code WebClient}, so no other WebClient observation
 * wraps it.
 *
 * <p>Low cardinality (bounded by the resource types the operator uses): Spring's {@code method},
 * {@code status}, {@code outcome}, {@code exception} and {@code client.name} (the API server's
 * host); {@code uri}, the path with the namespace and name left as {@code {namespace}} and
 * {@code {name}} ({@code /apis/apps/v1/namespaces/{namespace}/deployments/{name}}; where Spring
 * would write {@code none}); and two of ours: {@code resource} (resource[.group][/subresource], for
 * example {@code deployments.apps}; empty for a request to a path of its own such as
 * {@code /version}) and {@code verb} (Kubernetes' verb: {@code get}, {@code list}, {@code watch},
 * {@code create}, {@code update}, {@code patch}, {@code delete}, {@code deletecollection}; the
 * method in lower case for a path of its own). High cardinality: Spring's {@code http.url}, the
 * whole URL. The contextual name (a span's name) is the verb and resource, {@code list pods}.
 */
final class KubernetesRequestObservationConvention extends DefaultClientRequestObservationConvention {

    /** The request attribute that carries the {@link HttpTransport.Route} of a request. */
    static final String ROUTE = KubernetesRequestObservationConvention.class.getName() + ".route";

    @Override
    public KeyValues getLowCardinalityKeyValues(ClientRequestObservationContext context) {
        HttpTransport.Route route = route(context);
        KeyValues keys = super.getLowCardinalityKeyValues(context);
        return route == null ? keys : keys.and(KeyValue.of("resource", route.resource()), KeyValue.of("verb", route.verb()));
    }

    @Override
    protected KeyValue uri(ClientRequestObservationContext context) {
        HttpTransport.Route route = route(context);
        return route == null ? super.uri(context) : KeyValue.of("uri", route.uriTemplate());
    }

    @Override
    public @Nullable String getContextualName(ClientRequestObservationContext context) {
        HttpTransport.Route route = route(context);
        if (route == null) {
            return super.getContextualName(context);
        }
        return route.resource().isEmpty() ? route.verb() + " " + route.uriTemplate() : route.verb() + " " + route.resource();
    }

    private static HttpTransport.@Nullable Route route(ClientRequestObservationContext context) {
        ClientRequest request = context.getRequest();
        return request == null ? null : (HttpTransport.Route) request.attribute(ROUTE).orElse(null);
    }
}
