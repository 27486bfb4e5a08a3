package dev.operatorstarter.crd.generator;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.PrinterColumn;
import dev.operatorstarter.crd.ScaleSubresource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionSpec;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookConversion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScale;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceStatus;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresources;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceValidation;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The generator: checks that the classes describe one resource, then writes one CRD version per
 * class, its schema from {@link TypeSchemas}.
 */
final class IntrospectingCrdGenerator implements CrdGenerator {

    private final CrdOptions options;

    IntrospectingCrdGenerator(CrdOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public CustomResourceDefinition generate(List<Class<? extends CustomResource<?, ?>>> versions) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("versions is empty: give the custom resource class of each version");
        }
        List<VersionFacts> facts = versions.stream().map(VersionFacts::of)
                .sorted(Comparator.comparing(VersionFacts::version, VersionPriority.INSTANCE)).toList();
        checkOneResource(facts);
        checkOneStorageVersion(facts);
        VersionFacts any = facts.get(0);

        CustomResourceDefinitionNames names = new CustomResourceDefinitionNames();
        names.setKind(any.type().kind());
        names.setListKind(any.type().kind() + "List");
        names.setPlural(any.type().plural());
        names.setSingular(any.singular());
        names.setShortNames(any.shortNames().isEmpty() ? null : any.shortNames());
        names.setCategories(any.categories().isEmpty() ? null : any.categories());

        CustomResourceDefinitionSpec spec = new CustomResourceDefinitionSpec();
        spec.setGroup(any.type().group());
        spec.setNames(names);
        spec.setScope(any.type().namespaced() ? "Namespaced" : "Cluster");
        spec.setVersions(facts.stream().map(IntrospectingCrdGenerator::version).toList());
        if (options.conversionWebhook() != null) {
            spec.setConversion(conversion(options.conversionWebhook()));
        }

        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(any.crdName());
        metadata.setAnnotations(options.annotations().isEmpty() ? null : new LinkedHashMap<>(options.annotations()));
        metadata.setLabels(options.labels().isEmpty() ? null : new LinkedHashMap<>(options.labels()));

        CustomResourceDefinition crd = new CustomResourceDefinition();
        crd.setMetadata(metadata);
        crd.setSpec(spec);
        return crd;
    }

    private static CustomResourceConversion conversion(ConversionWebhook webhook) {
        WebhookClientConfig client = new WebhookClientConfig();
        if (webhook.url() != null) {
            client.setUrl(webhook.url());
        } else {
            ServiceReference service = new ServiceReference();
            service.setNamespace(webhook.serviceNamespace());
            service.setName(webhook.serviceName());
            service.setPath(webhook.path());
            service.setPort(webhook.port());
            client.setService(service);
        }
        WebhookConversion conversion = new WebhookConversion();
        conversion.setClientConfig(client);
        conversion.setConversionReviewVersions(List.of("v1"));
        CustomResourceConversion strategy = new CustomResourceConversion();
        strategy.setStrategy("Webhook");
        strategy.setWebhook(conversion);
        return strategy;
    }

    @Override
    public String toYaml(CustomResourceDefinition crd) {
        return CrdYaml.write(crd, options.header());
    }

    private static CustomResourceDefinitionVersion version(VersionFacts facts) {
        Class<?> javaClass = facts.javaClass();
        JSONSchemaProps schema = new TypeSchemas(javaClass).resourceSchema();

        CustomResourceDefinitionVersion version = new CustomResourceDefinitionVersion();
        version.setName(facts.version());
        version.setServed(facts.served());
        version.setStorage(facts.storage());
        version.setDeprecated(facts.deprecated() ? Boolean.TRUE : null);
        version.setDeprecationWarning(facts.deprecationWarning().isEmpty() ? null : facts.deprecationWarning());
        version.setSchema(new CustomResourceValidation(schema));

        boolean status = schema.getProperties() != null && schema.getProperties().containsKey("status");
        ScaleSubresource scale = javaClass.getAnnotation(ScaleSubresource.class);
        if (status || scale != null) {
            CustomResourceSubresources subresources = new CustomResourceSubresources();
            subresources.setStatus(status ? new CustomResourceSubresourceStatus() : null);
            subresources.setScale(scale == null ? null : scale(scale));
            version.setSubresources(subresources);
        }
        List<CustomResourceColumnDefinition> columns = new ArrayList<>();
        for (PrinterColumn column : javaClass.getAnnotationsByType(PrinterColumn.class)) {
            columns.add(column(column));
        }
        version.setAdditionalPrinterColumns(columns.isEmpty() ? null : columns);
        return version;
    }

    private static CustomResourceSubresourceScale scale(ScaleSubresource annotation) {
        CustomResourceSubresourceScale scale = new CustomResourceSubresourceScale();
        scale.setSpecReplicasPath(annotation.specReplicasPath());
        scale.setStatusReplicasPath(annotation.statusReplicasPath());
        scale.setLabelSelectorPath(annotation.labelSelectorPath().isEmpty() ? null : annotation.labelSelectorPath());
        return scale;
    }

    private static CustomResourceColumnDefinition column(PrinterColumn annotation) {
        CustomResourceColumnDefinition column = new CustomResourceColumnDefinition();
        column.setName(annotation.name());
        column.setJsonPath(annotation.jsonPath());
        column.setType(annotation.type().name().toLowerCase(Locale.ROOT));
        column.setFormat(annotation.format().isEmpty() ? null : annotation.format());
        column.setPriority(annotation.priority() == 0 ? null : annotation.priority());
        column.setDescription(annotation.description().isEmpty() ? null : annotation.description());
        return column;
    }

    /** The classes must name one resource: same group, names and scope; distinct versions. */
    private static void checkOneResource(List<VersionFacts> facts) {
        VersionFacts first = facts.get(0);
        for (VersionFacts other : facts.subList(1, facts.size())) {
            agree(first, other, "group", f -> f.type().group());
            agree(first, other, "kind", f -> f.type().kind());
            agree(first, other, "plural", f -> f.type().plural());
            agree(first, other, "singular", VersionFacts::singular);
            agree(first, other, "scope", f -> f.type().namespaced() ? "Namespaced" : "Cluster");
            agree(first, other, "short names", VersionFacts::shortNames);
            agree(first, other, "categories", VersionFacts::categories);
        }
        Map<String, List<VersionFacts>> byVersion = facts.stream()
                .collect(Collectors.groupingBy(VersionFacts::version, LinkedHashMap::new, Collectors.toList()));
        byVersion.forEach((version, classes) -> {
            if (classes.size() > 1) {
                throw new CrdGenerationException("version " + version + " has more than one class: " + names(classes)
                        + "; give each class of a CRD its own @Version");
            }
        });
    }

    private static void agree(VersionFacts first, VersionFacts other, String what, Function<VersionFacts, Object> value) {
        if (!value.apply(first).equals(value.apply(other))) {
            throw new CrdGenerationException(first.javaClass().getName() + " and " + other.javaClass().getName()
                    + " disagree on the " + what + " (" + value.apply(first) + " and " + value.apply(other)
                    + "): the classes of one CRD must describe the same resource");
        }
    }

    private static void checkOneStorageVersion(List<VersionFacts> facts) {
        List<VersionFacts> storage = facts.stream().filter(VersionFacts::storage).toList();
        if (storage.isEmpty()) {
            throw new CrdGenerationException("none of " + names(facts) + " is the storage version: mark exactly one "
                    + "with @Version(value = ..., storage = true)");
        }
        if (storage.size() > 1) {
            throw new CrdGenerationException(names(storage) + " are all storage versions (fabric8's @Version "
                    + "has storage = true unless told otherwise): mark all but one with @Version(value = ..., "
                    + "storage = false)");
        }
    }

    private static String names(List<VersionFacts> facts) {
        return facts.stream().map(VersionFacts::toString).collect(Collectors.joining(", "));
    }
}
