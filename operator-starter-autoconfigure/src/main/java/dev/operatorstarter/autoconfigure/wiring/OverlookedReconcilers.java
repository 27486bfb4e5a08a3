package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.controller.ReconcileHandler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * Says, in one warning at start-up, what looks like a reconciler but gets no controller, since an
 * application that starts, leads and reconciles nothing is otherwise silent (a test then waits
 * for a reconcile until it times out):
 * <ul>
 *   <li>{@link Reconciler @Reconciler} classes of the application's packages (those of
 *       {@code @SpringBootApplication}) that are not beans: component scanning left them out;</li>
 *   <li>{@link ReconcileHandler} beans, and such classes of the application's packages, without
 *       {@code @Reconciler}.</li>
 * </ul>
 * Both whether or not other reconcilers exist. A handler of a resource that some reconciler
 * reconciles is not named (it is most likely that reconciler's delegate, or what its
 * {@code @Bean} method returns), nor one whose resource is a type variable (a wrapper such as a
 * logging or retrying handler). An application without any reconciler and nothing to name gets a
 * line at info: it may use only the client.
 *
 * <p>One scan of the application's packages, for both kinds of class, on the metadata of their
 * class files: a class is loaded only when it is a candidate.
 */
final class OverlookedReconcilers {

    private static final Logger log = LoggerFactory.getLogger(OverlookedReconcilers.class);
    private static final String NONE = "No @Reconciler bean found, so the operator runs no controller";

    private final ConfigurableListableBeanFactory beanFactory;
    private final List<ReconcilerDefinition> reconcilers;
    private final Set<Class<?>> reconciled = new LinkedHashSet<>();

    /**
     * @param reconcilers the {@code @Reconciler} beans found; their resources mark the handlers
     *     not to name
     */
    OverlookedReconcilers(ConfigurableListableBeanFactory beanFactory, List<ReconcilerDefinition> reconcilers) {
        this.beanFactory = beanFactory;
        this.reconcilers = List.copyOf(reconcilers);
        reconcilers.forEach(definition -> reconciled.add(definition.resource()));
    }

    /** Scans the application's packages and logs what it finds, or that there is no reconciler. */
    void report(Environment environment, ResourceLoader resourceLoader) {
        List<String> packages = AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory)
                : List.of();
        List<String> notBeans = new ArrayList<>();
        List<String> unannotated = new ArrayList<>();
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false,
                environment);
        scanner.setResourceLoader(resourceLoader);
        scanner.addIncludeFilter(new AnnotationTypeFilter(Reconciler.class));
        scanner.addIncludeFilter(new AssignableTypeFilter(ReconcileHandler.class));
        for (String in : packages) {
            for (BeanDefinition candidate : scanner.findCandidateComponents(in)) {
                String className = candidate.getBeanClassName();
                Class<?> type = className == null ? null : load(className);
                if (type == null || isBean(type)) {
                    continue;
                }
                boolean annotated = candidate instanceof AnnotatedBeanDefinition scanned
                        && scanned.getMetadata().isAnnotated(Reconciler.class.getName());
                if (annotated && !reconciled.contains(annotatedResource(type))) {
                    notBeans.add(className);
                } else if (!annotated && isUnclaimedHandler(ResolvableType.forClass(type))) {
                    unannotated.add(className + " (not a bean)");
                }
            }
        }
        unannotated.addAll(0, unannotatedBeans());
        if (notBeans.isEmpty() && unannotated.isEmpty()) {
            if (reconcilers.isEmpty()) {
                log.info(NONE + ". Annotate a class that implements ReconcileHandler<YourResource> with @Reconciler"
                        + (packages.isEmpty() ? "" : " in " + String.join(", ", packages) + " or a package below")
                        + ", or a @Bean method that returns one.");
            }
            return;
        }
        List<String> sentences = new ArrayList<>();
        if (reconcilers.isEmpty()) {
            sentences.add(NONE);
        }
        if (!notBeans.isEmpty()) {
            sentences.add("These @Reconciler classes in " + String.join(", ", packages) + " are not beans: "
                    + String.join(", ", notBeans) + ". Component scanning left them out (an exclude filter, or an "
                    + "application class without @ComponentScan such as @SpringBootConfiguration with "
                    + "@EnableAutoConfiguration): scan their package (@SpringBootApplication does) or @Import them");
        }
        if (!unannotated.isEmpty()) {
            sentences.add("These ReconcileHandler classes have no @Reconciler, so no controller calls them: "
                    + String.join(", ", unannotated) + ". Annotate the class with @Reconciler (a bean made by a "
                    + "@Bean method: annotate the method); if you build its controller yourself, ignore this");
        }
        log.warn(String.join(". ", sentences) + ".");
    }

    /** The {@code ReconcileHandler} beans without {@code @Reconciler}, as "class (bean 'name')". */
    private List<String> unannotatedBeans() {
        Set<String> reconcilerBeans = new LinkedHashSet<>();
        reconcilers.forEach(definition -> reconcilerBeans.add(definition.beanName()));
        List<String> named = new ArrayList<>();
        // allowEagerInit=false: a post-processor must not create beans before their time
        for (String beanName : beanFactory.getBeanNamesForType(ReconcileHandler.class, true, false)) {
            if (reconcilerBeans.contains(beanName) || beanFactory.containsBeanDefinition(beanName)
                    && beanFactory.getBeanDefinition(beanName).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
                continue;
            }
            Class<?> predicted = beanFactory.getType(beanName, false); // resolves a @Bean method's return type
            ResolvableType type = beanFactory.containsBeanDefinition(beanName)
                    && beanFactory.getMergedBeanDefinition(beanName) instanceof RootBeanDefinition root
                    ? root.getResolvableType() : ResolvableType.forClass(predicted);
            if (isUnclaimedHandler(type)) {
                named.add(type + " (bean '" + beanName + "')");
            }
        }
        return named;
    }

    /** A handler of a concrete resource that no reconciler reconciles. */
    private boolean isUnclaimedHandler(ResolvableType type) {
        Class<?> resource = type.as(ReconcileHandler.class).resolveGeneric(0);
        return resource != null && !reconciled.contains(resource);
    }

    /** The resource of an annotated class, as the registrar would infer it; null when it cannot. */
    private static @Nullable Class<?> annotatedResource(Class<?> type) {
        Reconciler annotation = type.getAnnotation(Reconciler.class);
        if (annotation != null && annotation.resource() != HasMetadata.class) {
            return annotation.resource();
        }
        return ResolvableType.forClass(type).as(ReconcileHandler.class).resolveGeneric(0);
    }

    /** Whether a bean of {@code type}, or of a subclass, is defined. */
    private boolean isBean(Class<?> type) {
        return beanFactory.getBeanNamesForType(type, true, false).length > 0;
    }

    private @Nullable Class<?> load(String className) {
        try {
            return ClassUtils.forName(className, beanFactory.getBeanClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            log.debug("Cannot load {} to check it for @Reconciler: {}", className, e.toString());
            return null;
        }
    }
}
