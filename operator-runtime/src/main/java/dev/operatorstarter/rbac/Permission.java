package dev.operatorstarter.rbac;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A permission a reconciler needs beyond what the framework derives from its declaration (like
 * kubebuilder's {@code +kubebuilder:rbac} markers): put it on the reconciler class, or on its
 * {@code @Bean} method, once per rule.
 *
 * <pre>{@code
 * @Reconciler(owns = CronJob.class)
 * @Permission(group = "batch", resources = "jobs", verbs = {"create", "delete"})
 * class BackupReconciler implements ReconcileHandler<BackupSchedule> { ... }
 * }</pre>
 *
 * <p>The build writes it into the chart's RBAC with the derived rules, and the operator checks it
 * with the API server at start-up. Namespaced resources are granted where the operator reconciles
 * (a Role in each watched namespace, or its ClusterRole when it watches all);
 * {@link #clusterScoped()} ones always by a ClusterRole.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(Permissions.class)
public @interface Permission {

    /** The API group; {@code ""} (the default) for the core group (ConfigMaps, Secrets, Pods, ...). */
    String group() default "";

    /**
     * The resources, as plurals in URLs ({@code jobs}), with a subresource after a slash
     * ({@code pods/log}, {@code deployments/scale}).
     */
    String[] resources();

    /** The verbs: {@code get}, {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete}, ... */
    String[] verbs();

    /** Only these objects, by name; default any. A create cannot be limited by name. */
    String[] resourceNames() default {};

    /**
     * Whether the resources are cluster-scoped (Namespaces, Nodes, ClusterRoles, a cluster-scoped
     * custom resource): granted by a ClusterRole, whichever namespaces the operator watches.
     */
    boolean clusterScoped() default false;
}
