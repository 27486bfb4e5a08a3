package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.InvalidReconcilerException;
import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.rbac.AccessRules;
import dev.operatorstarter.rbac.OperatorAccess;
import dev.operatorstarter.rbac.Permission;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.core.ResolvableType;

/**
 * What the {@link ReconcilerRegistrar} learned about one {@link Reconciler} bean before any bean
 * exists: its resource, the resources it owns and watches, and its annotation.
 *
 * @param beanName the reconciler bean
 * @param annotation its annotation
 * @param resource the primary resource's class
 * @param owned the classes of {@link Reconciler#owns()}
 * @param ownedMetadata the classes of {@link Reconciler#ownsMetadata()}, cached as metadata only
 * @param watched each {@link dev.operatorstarter.autoconfigure.RequestMapper} class of {@link Reconciler#watches()} with the resource it maps
 * @param watchedMetadata each {@link dev.operatorstarter.autoconfigure.MetadataRequestMapper} class of
 *     {@link Reconciler#watchesMetadata()} with the resource it maps, cached as metadata only
 * @param declared the {@link Permission}s on the reconciler's class or {@code @Bean} method
 */
record ReconcilerDefinition(String beanName, Reconciler annotation, Class<? extends HasMetadata> resource,
        List<Class<? extends HasMetadata>> owned, List<Class<? extends HasMetadata>> ownedMetadata,
        Map<Class<?>, Class<? extends HasMetadata>> watched, Map<Class<?>, Class<? extends HasMetadata>> watchedMetadata,
        AccessRules declared) {

    ReconcilerDefinition {
        owned = List.copyOf(owned);
        ownedMetadata = List.copyOf(ownedMetadata);
        watched = Collections.unmodifiableMap(new LinkedHashMap<>(watched));
        watchedMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(watchedMetadata));
    }

    /**
     * The definition of the reconciler bean {@code beanName} of type {@code beanType} (a class, or
     * a {@code @Bean} method's return type when {@code factoryMethod}), annotated with
     * {@code annotation} on {@code declaredOn}: its resource (the annotation's, else the type
     * argument of its {@code ReconcileHandler<T>}), and the resources its mappers watch.
     *
     * @throws InvalidReconcilerException naming the bean and the fix, for a declaration that cannot work
     */
    static ReconcilerDefinition describe(String beanName, Reconciler annotation, ResolvableType beanType,
            boolean factoryMethod, AnnotatedElement declaredOn) {
        Class<? extends HasMetadata> resource = annotation.resource();
        if (beanType.as(FactoryBean.class) != ResolvableType.NONE) {
            beanType = beanType.as(FactoryBean.class).getGeneric(0); // the handler a FactoryBean makes
        }
        Class<?> beanClass = beanType.resolve();
        if (beanClass != null && !ReconcileHandler.class.isAssignableFrom(beanClass)) {
            // caught here rather than as a ClassCastException when the controller is first built
            // (behind the health endpoint, say), which names neither the bean nor the fix
            String wanted = resource == HasMetadata.class ? "YourResource" : resource.getSimpleName();
            throw new InvalidReconcilerException(beanName, beanType.toString(), "does not implement "
                    + ReconcileHandler.class.getName() + ", so there is nothing to call for a reconcile",
                    "implement ReconcileHandler<" + wanted + ">" + (factoryMethod ? " (a @Bean method: return "
                            + "ReconcileHandler<" + wanted + ">)" : ""));
        }
        if (!annotation.finalizer().isEmpty() && beanClass != null && !Cleaner.class.isAssignableFrom(beanClass)) {
            throw new InvalidReconcilerException(beanName, beanType.toString(), "has @Reconciler(finalizer = \""
                    + annotation.finalizer() + "\") and so needs the bean to implement " + Cleaner.class.getName()
                    + ", which removes what the finalizer protects", "implement Cleaner" + (factoryMethod
                            ? " (a @Bean method: declare a return type that implements it)" : ""));
        }
        if (resource == HasMetadata.class) {
            Class<?> inferred = beanType.as(ReconcileHandler.class).resolveGeneric(0);
            if (inferred == null || !HasMetadata.class.isAssignableFrom(inferred) || inferred == HasMetadata.class) {
                throw new InvalidReconcilerException(beanName, beanType.toString(),
                        "does not say which resource it reconciles",
                        "implement ReconcileHandler<YourResource> or set @Reconciler(resource = YourResource.class)");
            }
            resource = inferred.asSubclass(HasMetadata.class);
        }
        Map<Class<?>, Class<? extends HasMetadata>> watched = mapped(beanName, annotation.watches(),
                RequestMapper.class);
        Map<Class<?>, Class<? extends HasMetadata>> watchedMetadata = mapped(beanName, annotation.watchesMetadata(),
                MetadataRequestMapper.class);
        AccessRules declared;
        try {
            declared = OperatorAccess.declared(declaredOn);
        } catch (IllegalArgumentException e) {
            throw new InvalidReconcilerException(beanName, beanType.toString(), "has an invalid @Permission: "
                    + e.getMessage(), "name lower-case plural resources and at least one verb in each @Permission");
        }
        return new ReconcilerDefinition(beanName, annotation, resource, Arrays.asList(annotation.owns()),
                Arrays.asList(annotation.ownsMetadata()), watched, watchedMetadata, declared);
    }

    /**
     * Each class of {@code mappers} with the resource it maps: the type argument of the
     * {@code mapperType} it implements.
     */
    private static Map<Class<?>, Class<? extends HasMetadata>> mapped(String beanName, Class<?>[] mappers,
            Class<?> mapperType) {
        Map<Class<?>, Class<? extends HasMetadata>> mapped = new LinkedHashMap<>();
        for (Class<?> mapper : mappers) {
            Class<?> type = ResolvableType.forClass(mapper).as(mapperType).resolveGeneric(0);
            if (type == null || !HasMetadata.class.isAssignableFrom(type) || type == HasMetadata.class) {
                throw new InvalidReconcilerException(beanName, "", "watches through " + mapper.getName()
                        + ", which does not say which resource it maps", "declare it as "
                        + mapperType.getSimpleName() + "<TheWatchedResource>");
            }
            mapped.put(mapper, type.asSubclass(HasMetadata.class));
        }
        return mapped;
    }

    /** The controller's name: the annotation's, else the kind in lower case. */
    String controllerName() {
        return annotation.name().isEmpty() ? HasMetadata.getKind(resource).toLowerCase(Locale.ROOT) : annotation.name();
    }

    /** Every resource this reconciler informs on with full objects, the primary first. */
    List<Class<? extends HasMetadata>> informedResources() {
        List<Class<? extends HasMetadata>> all = new ArrayList<>();
        all.add(resource);
        owned.stream().filter(type -> !all.contains(type)).forEach(all::add);
        watched.values().stream().filter(type -> !all.contains(type)).forEach(all::add);
        return all;
    }

    /** Every resource this reconciler informs on as metadata only, owned ones first. */
    List<Class<? extends HasMetadata>> metadataResources() {
        List<Class<? extends HasMetadata>> all = new ArrayList<>(ownedMetadata);
        watchedMetadata.values().stream().filter(type -> !all.contains(type)).forEach(all::add);
        return all;
    }
}
