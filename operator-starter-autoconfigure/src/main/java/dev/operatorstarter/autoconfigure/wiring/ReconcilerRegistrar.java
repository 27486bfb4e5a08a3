package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.manager.Manager;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanDefinitionStoreException;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.InstanceSupplier;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;

/**
 * Finds the {@link Reconciler} beans before any bean is created, and registers for each a
 * {@code Controller<T>} bean and, for every resource it informs on, a {@code Lister<T>} bean
 * (unless the application defines one), so that any bean can inject {@code Lister<ConfigMap>};
 * for every resource it caches as metadata only, a {@code Lister<PartialObjectMetadata>} named
 * {@code <resource>MetadataLister}.
 *
 * <p>The resource of a reconciler comes from {@link Reconciler#resource()}, else from the type
 * argument of its {@code ReconcileHandler<T>} (a class that implements it, or a {@code @Bean}
 * method that returns it); the watched resource of a {@link RequestMapper} or
 * {@link MetadataRequestMapper} from its type argument.
 *
 * <p>A {@code @Reconciler} that is not a bean (outside the scanned packages, excluded from
 * scanning, or in an application without {@code @ComponentScan}) is invisible here, and so is a
 * {@code ReconcileHandler} without the annotation; {@link OverlookedReconcilers} names both in a
 * warning: an application whose controller never starts is otherwise silent.
 */
final class ReconcilerRegistrar implements BeanFactoryPostProcessor, EnvironmentAware, ResourceLoaderAware {

    /** The bean holding the {@link ReconcilerDefinition}s found. */
    static final String DEFINITIONS_BEAN = "operatorReconcilerDefinitions";

    private Environment environment = new StandardEnvironment();
    private ResourceLoader resourceLoader = new DefaultResourceLoader();

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setResourceLoader(ResourceLoader resourceLoader) {
        this.resourceLoader = resourceLoader;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
        if (!(beanFactory instanceof BeanDefinitionRegistry registry)) {
            throw new IllegalStateException("@Reconciler beans need a bean factory that accepts bean definitions");
        }
        List<ReconcilerDefinition> definitions = new ArrayList<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            // allowFactoryBeanInit=false: a post-processor must not create beans before their time
            Reconciler annotation = beanFactory.findAnnotationOnBean(beanName, Reconciler.class, false);
            if (annotation != null) {
                definitions.add(define(beanFactory, beanName, annotation));
            }
        }
        checkUniqueNames(definitions);
        new OverlookedReconcilers(beanFactory, definitions).report(environment, resourceLoader);
        Set<Class<? extends HasMetadata>> listers = new LinkedHashSet<>();
        Set<Class<? extends HasMetadata>> metadataListers = new LinkedHashSet<>();
        Map<String, String> controllerBeans = new LinkedHashMap<>();
        for (ReconcilerDefinition definition : definitions) {
            String name = unusedName(registry, definition.beanName() + "Controller", definition.beanName() + ".controller");
            registry.registerBeanDefinition(name, controllerBean(definition));
            controllerBeans.put(definition.beanName(), name);
            listers.addAll(definition.informedResources());
            metadataListers.addAll(definition.metadataResources());
        }
        registry.registerBeanDefinition(DEFINITIONS_BEAN, definitionsBean(definitions, controllerBeans));
        for (Class<? extends HasMetadata> type : listers) {
            ResolvableType listerType = ResolvableType.forClassWithGenerics(Lister.class, type);
            if (beanFactory.getBeanNamesForType(listerType, true, false).length == 0) {
                registry.registerBeanDefinition(unusedName(registry, beanName(type, "Lister"), type.getName() + ".lister"),
                        listerBean(listerType, new ListerSupplier(type)));
            }
        }
        ResolvableType metadataListerType = ResolvableType.forClassWithGenerics(Lister.class,
                PartialObjectMetadata.class);
        for (Class<? extends HasMetadata> type : metadataListers) {
            String name = beanName(type, "MetadataLister");
            if (isMetadataLister(registry, name)) { // made for another resource of the same simple name
                name = type.getName() + ".metadataLister";
            }
            if (!registry.containsBeanDefinition(name)) {
                registry.registerBeanDefinition(name, listerBean(metadataListerType, new MetadataListerSupplier(type)));
            }
        }
    }

    private static ReconcilerDefinition define(ConfigurableListableBeanFactory beanFactory, String beanName,
            Reconciler annotation) {
        beanFactory.getType(beanName, false); // resolves a @Bean method's return type into the definition
        RootBeanDefinition bean = (RootBeanDefinition) beanFactory.getMergedBeanDefinition(beanName);
        ResolvableType beanType = bean.getResolvableType();
        Method factoryMethod = bean.getResolvedFactoryMethod();
        AnnotatedElement declaredOn = factoryMethod != null ? factoryMethod : beanType.resolve(Object.class);
        return ReconcilerDefinition.describe(beanName, annotation, beanType, bean.getFactoryMethodName() != null,
                declaredOn);
    }

    private static void checkUniqueNames(List<ReconcilerDefinition> definitions) {
        Map<String, String> seen = new HashMap<>();
        for (ReconcilerDefinition definition : definitions) {
            String earlier = seen.putIfAbsent(definition.controllerName(), definition.beanName());
            if (earlier != null) {
                throw new BeanDefinitionStoreException("@Reconciler beans '" + earlier + "' and '"
                        + definition.beanName() + "' both name their controller '" + definition.controllerName()
                        + "' (metrics and logs need unique names); set @Reconciler(name = ...) on one of them");
            }
        }
    }

    private static RootBeanDefinition definitionsBean(List<ReconcilerDefinition> definitions,
            Map<String, String> controllerBeans) {
        ReconcilerDefinitions all = new ReconcilerDefinitions(definitions, controllerBeans);
        RootBeanDefinition bean = new RootBeanDefinition(ReconcilerDefinitions.class, () -> all);
        bean.setRole(RootBeanDefinition.ROLE_INFRASTRUCTURE);
        return bean;
    }

    private static RootBeanDefinition controllerBean(ReconcilerDefinition definition) {
        RootBeanDefinition bean = new RootBeanDefinition(Controller.class);
        bean.setTargetType(ResolvableType.forClassWithGenerics(Controller.class, definition.resource()));
        bean.setDependsOn(definition.beanName());
        bean.setLazyInit(false);
        bean.setInstanceSupplier(new ControllerSupplier(definition));
        return bean;
    }

    private static RootBeanDefinition listerBean(ResolvableType listerType, InstanceSupplier<?> supplier) {
        RootBeanDefinition bean = new RootBeanDefinition(Lister.class);
        bean.setTargetType(listerType);
        bean.setInstanceSupplier(supplier);
        return bean;
    }

    /** {@code preferred}, unless a bean of that name exists (two resources of one simple name, a user bean). */
    private static String unusedName(BeanDefinitionRegistry registry, String preferred, String fallback) {
        if (!registry.containsBeanDefinition(preferred)) {
            return preferred;
        }
        if (!registry.containsBeanDefinition(fallback)) {
            return fallback;
        }
        throw new BeanDefinitionStoreException("cannot name a bean of the operator: both '" + preferred + "' and '"
                + fallback + "' exist already");
    }

    /** Whether {@code name} is a metadata lister this registrar has made. */
    private static boolean isMetadataLister(BeanDefinitionRegistry registry, String name) {
        return registry.containsBeanDefinition(name) && registry.getBeanDefinition(name) instanceof RootBeanDefinition bean
                && bean.getInstanceSupplier() instanceof MetadataListerSupplier;
    }

    /** {@code configMapLister} for {@code (ConfigMap.class, "Lister")}. */
    private static String beanName(Class<? extends HasMetadata> type, String suffix) {
        String simple = type.getSimpleName();
        return Character.toLowerCase(simple.charAt(0)) + simple.substring(1) + suffix;
    }

    /** Builds a reconciler's controller when the bean is created. */
    private record ControllerSupplier(ReconcilerDefinition definition) implements InstanceSupplier<Controller<?>> {
        @Override
        public Controller<?> get(RegisteredBean registeredBean) {
            ReconcilerControllers.requireCleaner(definition, registeredBean.getBeanFactory().getBean(definition.beanName()));
            return registeredBean.getBeanFactory().getBean(ReconcilerControllers.class).controller(definition.beanName());
        }
    }

    /** Makes the lister of one resource when the bean is created. */
    private record ListerSupplier(Class<? extends HasMetadata> type) implements InstanceSupplier<Lister<?>> {
        @Override
        public Lister<?> get(RegisteredBean registeredBean) {
            return registeredBean.getBeanFactory().getBean(Manager.class).lister(type); // looks its caches up at each read
        }
    }

    /** Makes the metadata lister of one resource when the bean is created. */
    private record MetadataListerSupplier(Class<? extends HasMetadata> type)
            implements InstanceSupplier<Lister<PartialObjectMetadata>> {
        @Override
        public Lister<PartialObjectMetadata> get(RegisteredBean registeredBean) {
            return registeredBean.getBeanFactory().getBean(Manager.class).metadataLister(type);
        }
    }

    /**
     * The definitions found, as a bean.
     *
     * @param all the reconcilers
     * @param controllerBeans reconciler bean name → the name of its controller's bean
     */
    record ReconcilerDefinitions(List<ReconcilerDefinition> all, Map<String, String> controllerBeans) {

        ReconcilerDefinitions {
            all = List.copyOf(all);
            controllerBeans = Map.copyOf(controllerBeans);
        }
    }
}
