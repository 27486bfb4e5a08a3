package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code operator.informers.strip-managed-fields} and {@code compact-objects} choose the informers' transform. */
class InformerTransformPropertiesTest {

    private static ConfigMap decoded() {
        return new ConfigMapBuilder().withNewMetadata().withName("settings").withNamespace("team")
                .addToLabels("app", "web").addNewManagedField().withManager("kubectl").endManagedField().endMetadata()
                .addToData("key", "value").build();
    }

    private static ConfigMap cached(boolean strip, boolean compact) {
        OperatorProperties.Informers informers = new OperatorProperties.Informers(List.of(), "", java.time.Duration.ZERO,
                java.time.Duration.ofMinutes(2), true, strip, compact, Map.of(), dev.operatorstarter.manager.ManagerOptions.OnMissingResource.FAIL);
        return (ConfigMap) OperatorInformersAutoConfiguration.transform(informers).apply((HasMetadata) decoded());
    }

    @Test
    void byDefaultManagedFieldsAreDroppedAndTheObjectIsCompacted() {
        ConfigMap cached = cached(true, true);
        assertThat(cached.getMetadata().getManagedFields()).isNull();
        assertThat(cached.getData()).containsEntry("key", "value");
        assertThatThrownBy(() -> cached.getData().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void eachPartCanBeSwitchedOffAlone() {
        ConfigMap compactedOnly = cached(false, true);
        assertThat(compactedOnly.getMetadata().getManagedFields()).hasSize(1);
        assertThatThrownBy(() -> compactedOnly.getMetadata().getLabels().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);

        ConfigMap strippedOnly = cached(true, false);
        assertThat(strippedOnly.getMetadata().getManagedFields()).isNull();
        strippedOnly.getMetadata().getLabels().put("x", "y"); // the decoded, writable map
        assertThat(strippedOnly.getMetadata().getLabels()).containsEntry("x", "y");

        ConfigMap untouched = cached(false, false);
        assertThat(untouched).isEqualTo(decoded());
        untouched.getData().put("x", "y");
    }
}
