package dev.operatorstarter.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.lang.reflect.Modifier;
import tools.jackson.core.ErrorReportConfiguration;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.AnnotatedClass;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapper the client uses for Kubernetes objects. Not API. */
public final class Json {

    /**
     * Unknown fields are ignored (a newer server may add some), nulls are not written (the server
     * would read an explicit null as "clear this field" in a patch), and a custom resource class
     * decodes into itself (see {@link ConcreteResourceIntrospector}). A parse error never quotes
     * the input (no token, no excerpt): a malformed Secret in a watch or list would otherwise put
     * part of its data into a message, and from there into a log.
     */
    public static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .errorReportConfiguration(ErrorReportConfiguration.builder().maxErrorTokenLength(0)
                            .maxRawContentLength(0).build())
                    .build())
            .annotationIntrospector(new ConcreteResourceIntrospector())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(inclusion -> JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                    JsonInclude.Include.NON_NULL))
            .build();

    private Json() {
    }

    /**
     * fabric8's {@code KubernetesResource} interface names a deserializer that picks a class by
     * {@code kind} and falls back to {@code GenericKubernetesResource}. Every fabric8 model class
     * opts out for itself; a user's custom resource class usually does not, and would decode into
     * the wrong class. Here a concrete class that only inherits that deserializer is decoded as a
     * plain bean; interfaces keep the kind-based one.
     */
    static final class ConcreteResourceIntrospector extends JacksonAnnotationIntrospector {
        private static final long serialVersionUID = 1L;
        private static final String KIND_BASED = "io.fabric8.kubernetes.internal.KubernetesDeserializer";

        @Override
        public Object findDeserializer(MapperConfig<?> config, Annotated annotated) {
            Object deserializer = super.findDeserializer(config, annotated);
            if (deserializer instanceof Class<?> type && type.getName().equals(KIND_BASED)
                    && annotated instanceof AnnotatedClass annotatedClass) {
                Class<?> raw = annotatedClass.getRawType();
                if (!raw.isInterface() && !Modifier.isAbstract(raw.getModifiers())) {
                    return null;
                }
            }
            return deserializer;
        }
    }
}
