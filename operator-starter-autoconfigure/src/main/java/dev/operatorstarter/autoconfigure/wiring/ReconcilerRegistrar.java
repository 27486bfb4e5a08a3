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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanDefinitionStoreException;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
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

    /** The attribute marking the metadata listers made here, with their resource. */
    private static final String METADATA_LISTER = "operator.metadataLister";

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
        if (registry.containsBeanDefinition(DEFINITIONS_BEAN)) {
            return; // registered already: by Spring AOT's generated code, which keeps what this made at build time
        }
        List<ReconcilerDefinition> definitions = definitions(beanFactory).all();
        new OverlookedReconcilers(beanFactory, definitions).report(environment, resourceLoader);
        Set<Class<? extends HasMetadata>> full = new LinkedHashSet<>();
        Set<Class<? extends HasMetadata>> metadata = new LinkedHashSet<>();
        for (ReconcilerDefinition definition : definitions) {
            RootBeanDefinition controller = bean(Controller.class, definition.resource(), "controller",
                    definition.beanName());
            controller.setDependsOn(definition.beanName());
            controller.setLazyInit(false); // builds the reconciler bean at start-up, even with lazy initialization
            register(registry, definition.beanName() + "Controller", definition.beanName() + ".controller", controller);
            full.addAll(definition.informedResources());
            metadata.addAll(definition.metadataResources());
        }
        RootBeanDefinition all = new RootBeanDefinition(ReconcilerRegistrar.class);
        all.setFactoryMethodName("definitions");
        all.setAutowireMode(RootBeanDefinition.AUTOWIRE_CONSTRUCTOR);
        registry.registerBeanDefinition(DEFINITIONS_BEAN, all);
        for (Class<? extends HasMetadata> type : full) {
            if (beanFactory.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class, type), true, false)
                    .length == 0) {
                register(registry, beanName(type, "Lister"), type.getName() + ".lister", bean(Lister.class, type,
                        "lister", type));
            }
        }
        for (Class<? extends HasMetadata> type : metadata) {
            String name = beanName(type, "MetadataLister"); // another resource's of the same simple name: the fallback
            name = registry.containsBeanDefinition(name) && registry.getBeanDefinition(name).hasAttribute(METADATA_LISTER)
                    ? type.getName() + ".metadataLister" : name;
            if (!registry.containsBeanDefinition(name)) { // else the application's
                RootBeanDefinition lister = bean(Lister.class, PartialObjectMetadata.class, "metadataLister", type);
                lister.setAttribute(METADATA_LISTER, type);
                registry.registerBeanDefinition(name, lister);
            }
        }
    }

    /**
     * The {@code @Reconciler} beans of {@code beanFactory}; read again when the bean is made, so that
     * an application Spring AOT processed (whose bean definitions are generated code) has them too.
     */
    static ReconcilerDefinitions definitions(ConfigurableListableBeanFactory beanFactory) {
        List<ReconcilerDefinition> definitions = new ArrayList<>();
        Map<String, String> controllerNames = new HashMap<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            // allowFactoryBeanInit=false: a post-processor must not create beans before their time
            Reconciler annotation = beanFactory.findAnnotationOnBean(beanName, Reconciler.class, false);
            if (annotation == null) {
                continue;
            }
            ReconcilerDefinition definition = define(beanFactory, beanName, annotation);
            String earlier = controllerNames.putIfAbsent(definition.controllerName(), beanName);
            if (earlier != null) {
                throw new BeanDefinitionStoreException("@Reconciler beans '" + earlier + "' and '" + beanName
                        + "' both name their controller '" + definition.controllerName() + "' (metrics and logs need "
                        + "unique names); set @Reconciler(name = ...) on one of them");
            }
            definitions.add(definition);
        }
        return new ReconcilerDefinitions(definitions);
    }

    /** The controller bean of the reconciler bean {@code beanName}. */
    static Controller<?> controller(ReconcilerControllers controllers, String beanName) {
        return controllers.controller(beanName);
    }

    /** The lister bean of {@code type}: it looks its caches up at each read. */
    static Lister<?> lister(Manager manager, Class<? extends HasMetadata> type) {
        return manager.lister(type);
    }

    /** The metadata lister bean of {@code type}. */
    static Lister<PartialObjectMetadata> metadataLister(Manager manager, Class<? extends HasMetadata> type) {
        return manager.metadataLister(type);
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

    /**
     * A bean of type {@code raw<generic>} made by this class's static {@code factoryMethod}, given
     * {@code argument} and an autowired first argument: a factory method, not an instance supplier,
     * so that Spring AOT can write the bean definition as code.
     */
    private static RootBeanDefinition bean(Class<?> raw, Class<?> generic, String factoryMethod, Object argument) {
        RootBeanDefinition bean = new RootBeanDefinition(ReconcilerRegistrar.class);
        bean.setFactoryMethodName(factoryMethod);
        bean.setTargetType(ResolvableType.forClassWithGenerics(raw, generic));
        bean.setAutowireMode(RootBeanDefinition.AUTOWIRE_CONSTRUCTOR);
        bean.getConstructorArgumentValues().addIndexedArgumentValue(1, argument);
        return bean;
    }

    /** Registers {@code bean} as {@code preferred}, unless a bean of that name exists (a user's, or one of another resource of the same simple name). */
    private static void register(BeanDefinitionRegistry registry, String preferred, String fallback, RootBeanDefinition bean) {
        if (registry.containsBeanDefinition(preferred) && registry.containsBeanDefinition(fallback)) {
            throw new BeanDefinitionStoreException("cannot name a bean of the operator: both '" + preferred + "' and '"
                    + fallback + "' exist already");
        }
        registry.registerBeanDefinition(registry.containsBeanDefinition(preferred) ? fallback : preferred, bean);
    }

    /** {@code configMapLister} for {@code (ConfigMap.class, "Lister")}. */
    private static String beanName(Class<? extends HasMetadata> type, String suffix) {
        String simple = type.getSimpleName();
        return Character.toLowerCase(simple.charAt(0)) + simple.substring(1) + suffix;
    }

    /** The definitions found, as a bean. */
    record ReconcilerDefinitions(List<ReconcilerDefinition> all) {

        ReconcilerDefinitions {
            all = List.copyOf(all);
        }
    }
}
