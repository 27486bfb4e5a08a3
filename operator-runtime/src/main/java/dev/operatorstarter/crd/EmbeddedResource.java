package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a property that holds a whole Kubernetes object ({@code apiVersion}, {@code kind},
 * {@code metadata}, ...), such as a template of something the operator creates. The API server
 * then checks that it has {@code apiVersion} and {@code kind}, validates its {@code metadata}
 * and keeps its other fields unvalidated.
 *
 * <p>On a property (field, getter, record component) of any object type, such as
 * {@code GenericKubernetesResource} or {@code Map<String, Object>}; produces
 * <pre>{@code
 * type: object
 * x-kubernetes-embedded-resource: true
 * x-kubernetes-preserve-unknown-fields: true
 * }</pre>
 * Properties whose type implements {@code HasMetadata} (a {@code ConfigMap}, a custom resource
 * class) get this schema without the annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface EmbeddedResource {
}
