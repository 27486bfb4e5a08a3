package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionEndpoint;
import dev.operatorstarter.webhook.ConversionEndpoint;
import dev.operatorstarter.webhook.Converter;
import dev.operatorstarter.webhook.MutatingHandler;
import dev.operatorstarter.webhook.ValidatingHandler;
import dev.operatorstarter.webhook.WebhookEndpoint;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;

/**
 * The webhook endpoints of an application, by path, from its {@link AdmissionWebhook} and
 * {@link ConversionWebhook} beans: a handler becomes an {@link AdmissionEndpoint} for its type
 * argument, converters with one path become one {@link ConversionEndpoint}, ready endpoints are
 * served as they are. A bean that cannot be served fails with an {@link InvalidWebhookException}
 * naming it and the fix.
 */
final class WebhookBeans {

    private WebhookBeans() {
    }

    /** One converter bean with the classes it joins. */
    private record ConverterBean(String beanName, Class<? extends HasMetadata> first,
            Class<? extends HasMetadata> second, Converter<?, ?> converter) {
    }

    /** An admission webhook as registered with the API server: its bean, path, resource and operations. */
    record AdmissionTarget(String beanName, String path, Class<? extends HasMetadata> type, boolean mutating,
            List<Admission.Operation> operations) {
    }

    /**
     * A conversion path as registered with the API server: the version classes its converter beans
     * join (empty for a ready {@link ConversionEndpoint} bean) and the API versions it converts.
     */
    record ConversionTarget(String path, Set<Class<? extends HasMetadata>> classes, Set<String> versions) {
    }

    /** What the application serves, described for registration with the API server. */
    record Targets(List<AdmissionTarget> admission, List<ConversionTarget> conversion) {
    }

    /** What {@link #endpoints} serves, described for registration: admission webhooks by bean, conversions by path. */
    static Targets targets(ConfigurableListableBeanFactory beanFactory, Map<String, WebhookEndpoint> endpoints) {
        List<AdmissionTarget> admissions = new ArrayList<>();
        Map<String, Set<Class<? extends HasMetadata>>> classes = new LinkedHashMap<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            AdmissionWebhook admission = beanFactory.findAnnotationOnBean(beanName, AdmissionWebhook.class, false);
            if (admission != null && endpoints.get(admission.path()) instanceof AdmissionEndpoint endpoint) {
                admissions.add(new AdmissionTarget(beanName, admission.path(), endpoint.type(), endpoint.mutating(),
                        List.of(admission.operations())));
            }
            ConversionWebhook conversion = beanFactory.findAnnotationOnBean(beanName, ConversionWebhook.class, false);
            if (conversion != null && endpoints.get(conversion.path()) instanceof ConversionEndpoint) {
                Set<Class<? extends HasMetadata>> joined = classes.computeIfAbsent(conversion.path(),
                        key -> new LinkedHashSet<>());
                if (beanFactory.getBean(beanName) instanceof Converter<?, ?>) {
                    ResolvableType type = beanType(beanFactory, beanName).as(Converter.class);
                    joined.add(resource(beanName, type, 0, "Converter<YourV1alpha1, YourV1>"));
                    joined.add(resource(beanName, type, 1, "Converter<YourV1alpha1, YourV1>"));
                }
            }
        }
        List<ConversionTarget> conversions = new ArrayList<>();
        classes.forEach((path, joined) -> conversions.add(new ConversionTarget(path, Set.copyOf(joined),
                ((ConversionEndpoint) endpoints.get(path)).versions())));
        return new Targets(List.copyOf(admissions), List.copyOf(conversions));
    }

    static Map<String, WebhookEndpoint> endpoints(ConfigurableListableBeanFactory beanFactory) {
        Map<String, WebhookEndpoint> endpoints = new LinkedHashMap<>();
        Map<String, String> owners = new LinkedHashMap<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            AdmissionWebhook admission = beanFactory.findAnnotationOnBean(beanName, AdmissionWebhook.class, false);
            if (admission != null) {
                String path = path(beanName, admission.path(), "@AdmissionWebhook");
                claim(owners, path, beanName);
                endpoints.put(path, admission(beanFactory, beanName));
            }
        }
        Map<String, List<ConverterBean>> converters = new LinkedHashMap<>();
        Map<String, ConversionEndpoint> ready = new LinkedHashMap<>();
        Map<String, Class<? extends HasMetadata>> hubs = new LinkedHashMap<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            ConversionWebhook conversion = beanFactory.findAnnotationOnBean(beanName, ConversionWebhook.class, false);
            if (conversion == null) {
                continue;
            }
            String path = path(beanName, conversion.path(), "@ConversionWebhook");
            if (endpoints.containsKey(path)) {
                claim(owners, path, beanName); // an admission webhook has it: fails naming both
            }
            hub(hubs, path, beanName, conversion.hub());
            Object bean = beanFactory.getBean(beanName);
            if (bean instanceof ConversionEndpoint endpoint) {
                if (ready.putIfAbsent(path, endpoint) != null) {
                    throw new InvalidWebhookException("two ConversionEndpoint beans serve " + path + " (one is '"
                            + beanName + "'): give each a path of its own");
                }
            } else if (bean instanceof Converter<?, ?> converter) {
                ResolvableType type = beanType(beanFactory, beanName).as(Converter.class);
                converters.computeIfAbsent(path, key -> new ArrayList<>()).add(new ConverterBean(beanName,
                        resource(beanName, type, 0, "Converter<YourV1alpha1, YourV1>"),
                        resource(beanName, type, 1, "Converter<YourV1alpha1, YourV1>"), converter));
            } else {
                throw new InvalidWebhookException("@ConversionWebhook bean '" + beanName + "' (" + bean.getClass().getName()
                        + ") is neither a " + Converter.class.getName() + " nor a " + ConversionEndpoint.class.getName()
                        + ": implement Converter<YourV1alpha1, YourV1>");
            }
        }
        converters.forEach((path, beans) -> {
            if (ready.containsKey(path)) {
                throw new InvalidWebhookException("the path " + path + " has both a ConversionEndpoint bean and converter "
                        + "beans (" + beans.stream().map(ConverterBean::beanName).toList() + "): give them different paths "
                        + "or add the converters to the endpoint");
            }
            ConversionEndpoint.Builder builder = ConversionEndpoint.builder();
            beans.forEach(bean -> add(builder, bean));
            Class<? extends HasMetadata> hub = hubs.get(path);
            if (hub != null) {
                builder.hub(hub);
            }
            try {
                endpoints.put(path, builder.build());
            } catch (IllegalArgumentException e) {
                throw new InvalidWebhookException("the @ConversionWebhook beans at " + path + " ("
                        + beans.stream().map(ConverterBean::beanName).toList() + ") do not fit together: "
                        + e.getMessage(), e);
            }
        });
        endpoints.putAll(ready);
        return endpoints;
    }

    private static WebhookEndpoint admission(ConfigurableListableBeanFactory beanFactory, String beanName) {
        Object bean = beanFactory.getBean(beanName);
        if (bean instanceof AdmissionEndpoint endpoint) {
            return endpoint;
        }
        boolean validating = bean instanceof ValidatingHandler<?>;
        boolean mutating = bean instanceof MutatingHandler<?>;
        if (validating && mutating) {
            throw new InvalidWebhookException("@AdmissionWebhook bean '" + beanName + "' is both a ValidatingHandler "
                    + "and a MutatingHandler: the API server calls them in different phases, so make them two beans "
                    + "with two paths");
        }
        if (!validating && !mutating) {
            throw new InvalidWebhookException("@AdmissionWebhook bean '" + beanName + "' (" + bean.getClass().getName()
                    + ") is neither a ValidatingHandler nor a MutatingHandler: implement ValidatingHandler<YourResource> "
                    + "or MutatingHandler<YourResource>");
        }
        ResolvableType beanType = beanType(beanFactory, beanName);
        if (validating) {
            Class<? extends HasMetadata> type = resource(beanName, beanType.as(ValidatingHandler.class), 0,
                    "ValidatingHandler<YourResource>");
            return validating(type, (ValidatingHandler<?>) bean);
        }
        Class<? extends HasMetadata> type = resource(beanName, beanType.as(MutatingHandler.class), 0,
                "MutatingHandler<YourResource>");
        return mutating(type, (MutatingHandler<?>) bean);
    }

    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> AdmissionEndpoint validating(Class<T> type, ValidatingHandler<?> handler) {
        return AdmissionEndpoint.validating(type, (ValidatingHandler<T>) handler);
    }

    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> AdmissionEndpoint mutating(Class<T> type, MutatingHandler<?> handler) {
        return AdmissionEndpoint.mutating(type, (MutatingHandler<T>) handler);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void add(ConversionEndpoint.Builder builder, ConverterBean bean) {
        builder.converter((Class) bean.first(), (Class) bean.second(), (Converter) bean.converter());
    }

    /** The bean's type with generics: the class, or a {@code @Bean} method's return type. */
    private static ResolvableType beanType(ConfigurableListableBeanFactory beanFactory, String beanName) {
        beanFactory.getType(beanName, false); // resolves a @Bean method's return type into the definition
        ResolvableType type = ((RootBeanDefinition) beanFactory.getMergedBeanDefinition(beanName)).getResolvableType();
        if (type.as(FactoryBean.class) != ResolvableType.NONE) {
            type = type.as(FactoryBean.class).getGeneric(0);
        }
        if (type.resolve() == null || type.resolve() == Object.class) {
            Object bean = beanFactory.getBean(beanName);
            type = ResolvableType.forClass(bean.getClass());
        }
        return type;
    }

    private static Class<? extends HasMetadata> resource(String beanName, ResolvableType type, int index,
            String wanted) {
        Class<?> resolved = type.resolveGeneric(index);
        if (resolved == null || resolved == HasMetadata.class || !HasMetadata.class.isAssignableFrom(resolved)) {
            throw new InvalidWebhookException("webhook bean '" + beanName + "' does not say which resource it handles ("
                    + (type == ResolvableType.NONE ? "its type" : type) + "): implement " + wanted
                    + " with the class, or return it from a @Bean method declared with that type");
        }
        return resolved.asSubclass(HasMetadata.class);
    }

    private static String path(String beanName, String path, String annotation) {
        if (!path.startsWith("/") || path.contains("?") || path.contains("#") || path.contains(" ")) {
            throw new InvalidWebhookException(annotation + " on bean '" + beanName + "' has the path '" + path
                    + "': a path starts with '/' and has no query, fragment or spaces");
        }
        return path;
    }

    private static void claim(Map<String, String> owners, String path, String beanName) {
        String owner = owners.putIfAbsent(path, beanName);
        if (owner != null && !owner.equals(beanName)) {
            throw new InvalidWebhookException("beans '" + owner + "' and '" + beanName + "' both serve " + path
                    + ": give each admission webhook a path of its own");
        }
    }

    private static void hub(Map<String, Class<? extends HasMetadata>> hubs, String path, String beanName,
            Class<? extends HasMetadata> hub) {
        if (hub == HasMetadata.class) {
            return;
        }
        @Nullable Class<? extends HasMetadata> other = hubs.putIfAbsent(path, hub);
        if (other != null && other != hub) {
            throw new InvalidWebhookException("the @ConversionWebhook beans at " + path + " name two hubs, "
                    + other.getName() + " and " + hub.getName() + " (bean '" + beanName + "'): name one");
        }
    }
}
