package dev.operatorstarter.client.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapper the client uses for Kubernetes objects. Not API. */
public final class Json {

    /**
     * Unknown fields are ignored (a newer server may add some), nulls are not written (the server
     * would read an explicit null as "clear this field" in a patch).
     */
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(inclusion -> JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                    JsonInclude.Include.NON_NULL))
            .build();

    private Json() {
    }
}
