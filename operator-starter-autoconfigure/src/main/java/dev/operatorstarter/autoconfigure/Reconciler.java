package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.controller.Cleaner;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.stereotype.Component;

/**
 * Marks a {@link dev.operatorstarter.controller.ReconcileHandler} bean as the logic of a
 * controller: the auto-configuration gives it shared informers for its resource and for the
 * resources it {@linkplain #owns() owns} or {@linkplain #watches() watches} (each in full, or as
 * metadata only with {@link #ownsMetadata()} and {@link #watchesMetadata()}), a rate-limited work
 * queue, workers, metrics, and starts it once the caches have synced and this replica leads.
 *
 * <pre>{@code
 * @Reconciler(owns = ConfigMap.class, watchesMetadata = SecretsToWidgets.class, generationChanged = true)
 * class WidgetReconciler implements ReconcileHandler<Widget> {
 *     public ReconcileResult reconcile(ReconcileRequest request) { ... }
 * }
 * }</pre>
 *
 * <p>Put it on a class or on a {@code @Bean} method. It is a stereotype, meta-annotated with
 * {@link Component @Component}, so component scanning registers an annotated class as a bean by
 * itself (a {@code @Component} beside it is redundant but harmless: still one bean); a class
 * outside the scanned packages, or excluded from scanning, is a reconciler only once registered
 * some other way ({@code @Import}, a {@code @Bean} method). Start-up logs a warning naming the
 * annotated classes of the application's packages that are not beans, and the
 * {@code ReconcileHandler} beans and classes of those packages that lack this annotation, since
 * nothing calls them. On a {@code @Bean} method the annotation marks the bean the method returns, and the
 * resource is read from the method's generic return type. The annotation and the
 * runtime interface have different names on purpose, so one file uses both without qualifying
 * either. Every resource a reconciler informs on in full also gets a {@code Lister<T>} bean, and
 * every resource cached as metadata a {@code <resource>MetadataLister}, which any bean can inject
 * to read the cache.
 *
 * <p>How each type is read, and what it costs: <b>in full</b> (the default) the cache holds whole
 * objects, and the auto-configured {@link dev.operatorstarter.cache.ObjectReader} reads them from
 * it; <b>metadata only</b> the cache holds names, labels, annotations and owner references, a
 * fraction of the memory, read through the {@code <resource>MetadataLister} (the reader reads
 * whole objects, so it asks the API server for them); <b>uncached</b> (a type no reconciler
 * informs on, or one listed in {@code operator.reader.uncached}) nothing is held and every read
 * through the reader goes to the API server. A reconciler that reads through the reader reads
 * every type the same way, whichever mode configuration chose.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface Reconciler {

    /**
     * The primary resource's model class; default: the type argument of the bean's
     * {@code ReconcileHandler<T>}. A fabric8 model class or a custom resource class with
     * {@code @Group} and {@code @Version}.
     */
    Class<? extends HasMetadata> resource() default HasMetadata.class;

    /**
     * The controller's name, in logs, metrics (the {@code controller} label) and the work queue;
     * default the resource's kind in lower case, as controller-runtime names controllers.
     */
    String name() default "";

    /**
     * Resources this controller creates with a controller owner reference: a change to one of
     * them reconciles its owner.
     */
    Class<? extends HasMetadata>[] owns() default {};

    /**
     * Owned resources cached as metadata only (controller-runtime's {@code Owns(..., OnlyMetadata)}):
     * like {@link #owns()}, a change to one reconciles its owner, but the informer holds
     * {@code PartialObjectMetadata} (names, labels, owner references; no data, spec or status), a
     * fraction of the memory. For each resource a {@code Lister<PartialObjectMetadata>} bean named
     * {@code <resource>MetadataLister} (for example {@code configMapMetadataLister}) reads that
     * cache; inject it by that name. A resource this reconciler caches in full ({@code owns},
     * {@code watches}) cannot be here too.
     */
    Class<? extends HasMetadata>[] ownsMetadata() default {};

    /**
     * A label selector the objects of {@link #owns()} and {@link #ownsMetadata()} must match to be
     * cached, for example {@code app.kubernetes.io/managed-by=my-operator} when this controller
     * labels what it creates: the cache then holds only those, not every ConfigMap or Secret of the
     * namespace. Empty (the default) for {@code operator.informers.resources.<resource>.label-selector},
     * else all objects. Placeholders are resolved.
     */
    String ownedLabelSelector() default "";

    /**
     * Other resources whose changes reconcile the requests a {@link RequestMapper} derives from
     * them. Each class is a {@code RequestMapper<O>}: the bean of that type if there is one,
     * else an instance created (and autowired) for this reconciler; {@code O} is the watched resource.
     */
    @SuppressWarnings("rawtypes")
    Class<? extends RequestMapper>[] watches() default {};

    /**
     * Watched resources cached as metadata only (controller-runtime's
     * {@code Watches(obj, handler, builder.OnlyMetadata)}): like {@link #watches()}, but each class
     * is a {@link MetadataRequestMapper MetadataRequestMapper<O>} that maps the
     * {@code PartialObjectMetadata} of the watched resource {@code O}, so the informer holds no
     * data, spec or status. The mapper is found or created as for {@code watches}, and each
     * resource gets the {@code <resource>MetadataLister} bean described at {@link #ownsMetadata()}.
     * A resource this reconciler caches in full ({@code owns}, {@code watches}) cannot be here too.
     */
    @SuppressWarnings("rawtypes")
    Class<? extends MetadataRequestMapper>[] watchesMetadata() default {};

    /**
     * The namespaces to watch; default {@code operator.informers.namespaces} (all namespaces when
     * that is empty). Placeholders such as {@code ${WATCH_NAMESPACE}} are resolved.
     */
    String[] namespaces() default {};

    /**
     * A label selector the primary objects must match; default {@code operator.informers.label-selector}.
     * Placeholders are resolved.
     */
    String labelSelector() default "";

    /** Reconciles running at once; 0 (the default) for {@code operator.controllers.workers}. */
    int workers() default 0;

    /**
     * Reconcile after an update only when {@code metadata.generation} changed (spec changes),
     * not for status, label or annotation changes. Creations and deletions always reconcile.
     */
    boolean generationChanged() default false;

    /**
     * A finalizer that this controller adds to every object before its first reconcile, and
     * removes after {@link Cleaner#cleanup} succeeded once the object is being deleted. The bean
     * must then implement {@link Cleaner}. Empty (the default) for none.
     */
    String finalizer() default "";
}
