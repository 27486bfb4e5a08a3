package dev.operatorstarter.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The clientset's shape, without a server (none is started): each group version interface has its
 * accessor on the client, and each resource accessor resolves, from its model class's annotations,
 * the group and version its interface names and the resource its own name names.
 * {@code BuiltInResourcesIT} checks the same accessors against what a real server serves.
 */
class ClientsetTest {

    private final KubernetesClient client = KubernetesClient.create(new ClientConfig(URI.create("https://127.0.0.9:9"),
            TlsSettings.defaults(), Credentials.none(), null, "x", "a test"));

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void everyGroupVersionInterfaceHasItsAccessorOnTheClientNamedAfterIt() {
        List<String> interfaces = ClientsetAccessors.groupVersionInterfaces().stream().map(Class::getSimpleName).toList();
        List<Method> methods = ClientsetAccessors.groupVersionMethods();

        assertThat(methods).extracting(method -> method.getReturnType().getSimpleName())
                .containsExactlyInAnyOrderElementsOf(interfaces);
        assertThat(methods).allSatisfy(method -> assertThat(method.getName())
                .isEqualTo(lowerFirst(method.getReturnType().getSimpleName())));
        assertThat(interfaces).as("every group version the server serves by default").hasSize(23);
    }

    @Test
    void everyResourceAccessorResolvesTheGroupVersionOfItsInterfaceAndThePluralOfItsName() {
        List<ClientsetAccessors.Accessor> accessors = ClientsetAccessors.of(client);

        assertThat(accessors).as("built-in resources with a typed accessor").hasSize(70);
        assertThat(accessors).allSatisfy(accessor -> {
            ResourceType<?> type = accessor.type();
            assertThat(interfaceName(type)).as(accessor + "'s group version").isEqualTo(
                    accessor.groupVersionInterface().getSimpleName());
            assertThat(type.plural()).as(accessor + "'s resource").isEqualTo(accessor.resource().toLowerCase(Locale.ROOT));
            assertThat(type.kind()).as(accessor + "'s kind").isEqualTo(type.javaClass().getSimpleName());
        });
    }

    /** Kinds whose plural or scope is not the plain rule, resolved from fabric8's classes. */
    @ParameterizedTest
    @CsvSource({
            "io.fabric8.kubernetes.api.model.Endpoints, '', v1, endpoints, true",
            "io.fabric8.kubernetes.api.model.APIService, apiregistration.k8s.io, v1, apiservices, false",
            "io.fabric8.kubernetes.api.model.networking.v1.IPAddress, networking.k8s.io, v1, ipaddresses, false",
            "io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR, networking.k8s.io, v1, servicecidrs, false",
            "io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity, storage.k8s.io, v1, csistoragecapacities, true",
            "io.fabric8.kubernetes.api.model.storage.VolumeAttributesClass, storage.k8s.io, v1, volumeattributesclasses, false",
            "io.fabric8.kubernetes.api.model.flowcontrol.v1.PriorityLevelConfiguration, flowcontrol.apiserver.k8s.io, v1,"
                    + " prioritylevelconfigurations, false",
            "io.fabric8.kubernetes.api.model.authorization.v1.LocalSubjectAccessReview, authorization.k8s.io, v1,"
                    + " localsubjectaccessreviews, true",
            "io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate, resource.k8s.io, v1, resourceclaimtemplates,"
                    + " true",
            "io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget, policy, v1, poddisruptionbudgets, true",
    })
    void aModelClassResolvesItsGroupVersionPluralAndScope(String className, String group, String version, String plural,
            boolean namespaced) throws ClassNotFoundException {
        ResourceType<?> type = ResourceType.of(Class.forName(className).asSubclass(HasMetadata.class));

        assertThat(type.groupVersionResource()).isEqualTo(new GroupVersionResource(group, version, plural));
        assertThat(type.namespaced()).isEqualTo(namespaced);
    }

    /**
     * The interface a group version's accessors belong to: the group's first label (core for the
     * core group) and the version, each capitalized: {@code flowcontrol.apiserver.k8s.io/v1} is
     * {@code FlowcontrolV1}.
     */
    private static String interfaceName(ResourceType<?> type) {
        String group = type.group().isEmpty() ? "core" : type.group().split("\\.")[0];
        return upperFirst(group) + upperFirst(type.version());
    }

    private static String upperFirst(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static String lowerFirst(String text) {
        return Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
