package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.webhook.AdmissionWebhook;
import dev.operatorstarter.autoconfigure.webhook.ConversionWebhook;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.rbac.AccessRule;
import dev.operatorstarter.rbac.AccessRules;
import dev.operatorstarter.rbac.OperatorAccess;
import dev.operatorstarter.webhook.Converter;
import dev.operatorstarter.webhook.MutatingHandler;
import dev.operatorstarter.webhook.ValidatingHandler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * The permissions an application's code declares, read from its compiled classes without starting
 * it: every {@code @Reconciler} class and {@code @Bean} method (as the starter reads them at
 * start-up, with their {@code @Permission}s), and the webhooks whose CA the operator injects. What
 * {@code operator-crd-maven-plugin}'s {@code rbac} goal writes into a chart; applications do not
 * call it.
 *
 * @param reconcile what the reconcilers need where they reconcile, and the Events they record
 * @param sharded what sharding adds there when the controllers are sharded
 * @param reconcilers the reconciler classes and methods found, for the generated file's header
 * @param validatingWebhooks whether the code has validating admission webhooks
 * @param mutatingWebhooks whether the code has mutating admission webhooks
 * @param conversionCrds the names of the CRDs the code's conversion webhooks convert
 */
public record CodePermissions(AccessRules reconcile, AccessRules sharded, List<String> reconcilers,
        boolean validatingWebhooks, boolean mutatingWebhooks, List<String> conversionCrds) {

    public CodePermissions {
        reconcilers = List.copyOf(reconcilers);
        conversionCrds = List.copyOf(conversionCrds);
    }

    /**
     * Reads {@code classes}: the application's compiled classes.
     *
     * @throws dev.operatorstarter.autoconfigure.InvalidReconcilerException for a reconciler that
     *     would fail the start-up, naming it
     */
    public static CodePermissions of(Collection<Class<?>> classes) {
        List<Class<?>> sorted = classes.stream().sorted(Comparator.comparing(Class::getName)).toList();
        List<ReconcilerDefinition> definitions = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean validating = false;
        boolean mutating = false;
        TreeSet<String> crds = new TreeSet<>();
        for (Class<?> type : sorted) {
            List<AnnotatedElement> declarations = new ArrayList<>();
            if (isBeanClass(type)) {
                declarations.add(type);
            }
            for (Method method : type.getDeclaredMethods()) {
                if (AnnotatedElementUtils.hasAnnotation(method, Bean.class)) {
                    declarations.add(method);
                }
            }
            for (AnnotatedElement declaration : declarations) {
                ResolvableType beanType = declaration instanceof Method method ? ResolvableType.forMethodReturnType(method)
                        : ResolvableType.forClass((Class<?>) declaration);
                String name = declaration instanceof Method method ? type.getName() + "." + method.getName() + "()"
                        : type.getName();
                Reconciler reconciler = AnnotatedElementUtils.findMergedAnnotation(declaration, Reconciler.class);
                if (reconciler != null) {
                    definitions.add(ReconcilerDefinition.describe(name, reconciler, beanType,
                            declaration instanceof Method, declaration));
                    names.add(name);
                }
                if (AnnotatedElementUtils.hasAnnotation(declaration, AdmissionWebhook.class)) {
                    validating |= beanType.as(ValidatingHandler.class) != ResolvableType.NONE;
                    mutating |= beanType.as(MutatingHandler.class) != ResolvableType.NONE;
                }
                ConversionWebhook conversion = AnnotatedElementUtils.findMergedAnnotation(declaration,
                        ConversionWebhook.class);
                if (conversion != null) {
                    ResolvableType converter = beanType.as(Converter.class);
                    for (int i = 0; i < 2; i++) {
                        Class<?> version = converter.resolveGeneric(i);
                        if (version != null && HasMetadata.class.isAssignableFrom(version) && version != HasMetadata.class) {
                            crds.add(crdName(version.asSubclass(HasMetadata.class)));
                        }
                    }
                    if (conversion.hub() != HasMetadata.class) {
                        crds.add(crdName(conversion.hub()));
                    }
                }
            }
        }
        AccessRules reconcile = definitions.isEmpty() ? AccessRules.empty() : OperatorAccess.events();
        AccessRules sharded = AccessRules.empty();
        for (ReconcilerDefinition definition : definitions) {
            reconcile = reconcile.and(access(definition));
            sharded = sharded.and(sharded(definition));
        }
        return new CodePermissions(reconcile, sharded, names, validating, mutating, List.copyOf(crds));
    }

    /**
     * What injecting the serving CA into the webhook configurations named {@code configurationName}
     * and into the converted CRDs needs: {@code get, update} on each, by name. Empty without webhooks.
     */
    public AccessRules caInjection(String configurationName) {
        List<AccessRule> rules = new ArrayList<>();
        if (validatingWebhooks) {
            rules.add(injection("validatingwebhookconfigurations", List.of(configurationName)));
        }
        if (mutatingWebhooks) {
            rules.add(injection("mutatingwebhookconfigurations", List.of(configurationName)));
        }
        if (!conversionCrds.isEmpty()) {
            rules.add(new AccessRule("apiextensions.k8s.io", "customresourcedefinitions", conversionCrds,
                    List.of("get", "update"), true, List.of("the caBundle of the conversion webhooks' CRDs")));
        }
        return AccessRules.of(rules);
    }

    private static AccessRule injection(String resource, List<String> names) {
        return new AccessRule("admissionregistration.k8s.io", resource, names, List.of("get", "update"), true,
                List.of("the caBundle of the webhook configuration"));
    }

    /**
     * What {@code definition}'s controller needs where it reconciles: its caches and writes
     * ({@link OperatorAccess#controller}) and its {@code @Permission}s.
     */
    static AccessRules access(ReconcilerDefinition definition) {
        List<Class<? extends HasMetadata>> watching = new ArrayList<>(definition.watched().values());
        definition.watchedMetadata().values().stream().filter(type -> !watching.contains(type)).forEach(watching::add);
        return OperatorAccess.controller(definition.controllerName(), definition.resource(),
                definition.annotation().finalizer(), owned(definition), watching).and(definition.declared());
    }

    /** What sharding {@code definition}'s controller needs: the shard label patches ({@link OperatorAccess#sharded}). */
    static AccessRules sharded(ReconcilerDefinition definition) {
        return OperatorAccess.sharded(definition.controllerName(), definition.resource(), owned(definition));
    }

    /** Every resource {@code definition} owns, cached in full or as metadata only: metadata-only ones first. */
    private static List<Class<? extends HasMetadata>> owned(ReconcilerDefinition definition) {
        List<Class<? extends HasMetadata>> all = new ArrayList<>(definition.ownedMetadata());
        definition.owned().stream().filter(type -> !all.contains(type)).forEach(all::add);
        return all;
    }

    private static String crdName(Class<? extends HasMetadata> type) {
        ResourceType<?> resource = ResourceType.of(type);
        return resource.plural() + "." + resource.group();
    }

    private static boolean isBeanClass(Class<?> type) {
        return !type.isInterface() && !type.isAnnotation() && !Modifier.isAbstract(type.getModifiers());
    }
}
