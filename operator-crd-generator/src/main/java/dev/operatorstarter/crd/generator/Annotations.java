package dev.operatorstarter.crd.generator;

import dev.operatorstarter.crd.ValidationRule;
import dev.operatorstarter.crd.ValidationRules;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.BeanPropertyDefinition;

/**
 * The annotations of one property or class, as Jackson collected them (mix-ins included). A
 * property's annotation may sit on any of its members, looked up in this order: getter, field,
 * creator parameter, setter; the first one found counts. That is where Jackson itself finds a
 * property's {@code @JsonProperty}, and where javac copies an annotation written on a record
 * component.
 */
final class Annotations {

    private final List<Annotated> members;

    private Annotations(List<Annotated> members) {
        this.members = members;
    }

    static Annotations of(BeanPropertyDefinition property) {
        return new Annotations(Stream.<Annotated>of(property.getGetter(), property.getField(),
                property.getConstructorParameter(), property.getSetter()).filter(Objects::nonNull).toList());
    }

    static Annotations of(Annotated annotated) {
        return new Annotations(List.of(annotated));
    }

    <A extends Annotation> @Nullable A find(Class<A> type) {
        for (Annotated member : members) {
            A annotation = member.getAnnotation(type);
            if (annotation != null) {
                return annotation;
            }
        }
        return null;
    }

    boolean has(Class<? extends Annotation> type) {
        return find(type) != null;
    }

    /** The {@link ValidationRule}s, one or repeated, in the order written. */
    List<ValidationRule> validationRules() {
        List<ValidationRule> rules = new ArrayList<>();
        ValidationRule single = find(ValidationRule.class);
        if (single != null) {
            rules.add(single);
        }
        ValidationRules repeated = find(ValidationRules.class);
        if (repeated != null) {
            rules.addAll(List.of(repeated.value()));
        }
        return rules;
    }
}
