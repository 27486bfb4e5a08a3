package dev.operatorstarter.autoconfigure.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A container's environment resolved as the kubelet resolves it, for a pod played by this JVM. */
class PodEnvironmentTest {

    private static final PodEnvironment.Pod POD = new PodEnvironment.Pod("greeting-b2x7k", "team-a", "greeting",
            "127.0.0.1", Map.of("app.kubernetes.io/name", "greeting"), Map.of("example.com/tier", "gold"));
    private static final Map<String, String> KUBELET = Map.of("HOSTNAME", "greeting-b2x7k");

    private final PodEnvironment.Lookup lookup = new PodEnvironment.Lookup() {
        @Override
        public Optional<Map<String, String>> configMap(String name) {
            return name.equals("settings") ? Optional.of(Map.of("qps", "20", "burst", "40")) : Optional.empty();
        }

        @Override
        public Optional<Map<String, String>> secret(String name) {
            return name.equals("credentials") ? Optional.of(Map.of("token", "s3cret")) : Optional.empty();
        }
    };

    @Test
    void valuesAndTheKubeletsVariablesComeInOrderAndALaterVariableReplacesAnEarlierOne() {
        Map<String, String> environment = PodEnvironment.resolve(KUBELET, null,
                List.of(value("A", "1"), value("B", "2"), value("A", "3")), POD, lookup);

        assertThat(environment).containsExactly(Map.entry("HOSTNAME", "greeting-b2x7k"), Map.entry("A", "3"),
                Map.entry("B", "2"));
    }

    @ParameterizedTest
    @CsvSource({
            "metadata.name, greeting-b2x7k",
            "metadata.namespace, team-a",
            "spec.serviceAccountName, greeting",
            "status.podIP, 127.0.0.1",
            "status.hostIP, 127.0.0.1",
            "metadata.labels['app.kubernetes.io/name'], greeting",
            "metadata.annotations['example.com/tier'], gold"})
    void aFieldRefIsThePodsOwnField(String path, String expected) {
        EnvVar variable = new EnvVarBuilder().withName("FIELD").withNewValueFrom().withNewFieldRef()
                .withFieldPath(path).endFieldRef().endValueFrom().build();

        assertThat(PodEnvironment.resolve(Map.of(), null, List.of(variable), POD, lookup)).containsEntry("FIELD", expected);
    }

    @Test
    void aFieldRefThatNeedsAClusterFailsNamingTheVariable() {
        EnvVar variable = new EnvVarBuilder().withName("NODE").withNewValueFrom().withNewFieldRef()
                .withFieldPath("spec.nodeName").endFieldRef().endValueFrom().build();

        assertThatThrownBy(() -> PodEnvironment.resolve(Map.of(), null, List.of(variable), POD, lookup))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("variable NODE: fieldRef spec.nodeName");
    }

    @Test
    void referencesToEarlierVariablesAreExpandedAndDoubleDollarsAreLiteral() {
        Map<String, String> environment = PodEnvironment.resolve(KUBELET, null, List.of(value("HOST", "db"),
                value("URL", "postgres://$(HOST):5432/$(LATER)"), value("LITERAL", "$$(HOST) costs $$5"),
                value("LATER", "x")), POD, lookup);

        assertThat(environment).containsEntry("URL", "postgres://db:5432/$(LATER)")
                .containsEntry("LITERAL", "$(HOST) costs $5");
    }

    @Test
    void keysOfConfigMapsAndSecretsAreRead() {
        EnvVar qps = new EnvVarBuilder().withName("OPERATOR_CLIENT_QPS").withNewValueFrom().withNewConfigMapKeyRef()
                .withName("settings").withKey("qps").endConfigMapKeyRef().endValueFrom().build();
        EnvVar token = new EnvVarBuilder().withName("TOKEN").withNewValueFrom().withNewSecretKeyRef()
                .withName("credentials").withKey("token").endSecretKeyRef().endValueFrom().build();
        EnvFromSource all = new EnvFromSourceBuilder().withPrefix("SETTINGS_").withNewConfigMapRef().withName("settings")
                .endConfigMapRef().build();

        assertThat(PodEnvironment.resolve(Map.of(), List.of(all), List.of(qps, token), POD, lookup))
                .containsEntry("OPERATOR_CLIENT_QPS", "20").containsEntry("TOKEN", "s3cret")
                .containsEntry("SETTINGS_qps", "20").containsEntry("SETTINGS_burst", "40");
    }

    @Test
    void aMissingKeyLeavesAnOptionalVariableOutAndFailsAnyOther() {
        EnvVar optional = new EnvVarBuilder().withName("OPTIONAL").withNewValueFrom().withNewConfigMapKeyRef()
                .withName("settings").withKey("absent").withOptional(true).endConfigMapKeyRef().endValueFrom().build();
        EnvVar required = new EnvVarBuilder().withName("REQUIRED").withNewValueFrom().withNewSecretKeyRef()
                .withName("elsewhere").withKey("token").endSecretKeyRef().endValueFrom().build();

        assertThat(PodEnvironment.resolve(Map.of(), null, List.of(optional), POD, lookup)).doesNotContainKey("OPTIONAL");
        assertThatThrownBy(() -> PodEnvironment.resolve(Map.of(), null, List.of(required), POD, lookup))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("variable REQUIRED: Secret elsewhere key token does not exist");
    }

    private static EnvVar value(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }
}
