package dev.operatorstarter.autoconfigure.wiring;

import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Spring AOT: the reflection hints of every class Jackson binds for the operator, so that the
 * processed application needs no reflection the build did not declare: each {@code @Reconciler}'s
 * resources (the primary, owned and watched ones, their nested types included) and the API types
 * the client, the leader election and the event recorder read and write. Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class ReconcilerAotProcessor implements BeanFactoryInitializationAotProcessor {

    /** What the runtime binds whatever the reconcilers are. */
    private static final List<Class<?>> ALWAYS = List.of(Status.class, PartialObjectMetadata.class, Scale.class,
            Lease.class, Event.class);

    @Override
    public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        if (!beanFactory.containsBeanDefinition(ReconcilerRegistrar.DEFINITIONS_BEAN)) {
            return null; // the operator is off
        }
        Set<Class<?>> bound = new LinkedHashSet<>(ALWAYS);
        for (ReconcilerDefinition definition : ReconcilerRegistrar.definitions(beanFactory).all()) {
            bound.addAll(definition.informedResources());
            bound.addAll(definition.metadataResources());
        }
        return (context, code) -> {
            BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();
            bound.forEach(type -> bindings.registerReflectionHints(context.getRuntimeHints().reflection(), type));
        };
    }
}
