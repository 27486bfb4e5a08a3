package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives this version of a custom resource the {@code scale} subresource, so that
 * {@code kubectl scale} and a HorizontalPodAutoscaler can change its replicas.
 *
 * <p>On a custom resource class; produces the version's {@code subresources.scale}:
 * <pre>{@code
 * @ScaleSubresource(labelSelectorPath = ".status.selector")
 *
 * subresources:
 *   scale:
 *     labelSelectorPath: .status.selector
 *     specReplicasPath: .spec.replicas
 *     statusReplicasPath: .status.replicas
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ScaleSubresource {

    /** Where the desired replicas are; default {@code .spec.replicas}. */
    String specReplicasPath() default ".spec.replicas";

    /** Where the observed replicas are; default {@code .status.replicas}. */
    String statusReplicasPath() default ".status.replicas";

    /**
     * Where the status holds the pods' label selector in its string form, which an autoscaler
     * needs; default none (the subresource then reports no selector).
     */
    String labelSelectorPath() default "";
}
