package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterBackendTest {

    @ParameterizedTest(name = "choice ''{0}'', docker {1} -> {2}")
    @CsvSource({
            ",        false, LOCAL",
            ",        true,  K3S",
            "local,   true,  LOCAL",
            "K3s,     false, K3S",
            "existing,true,  EXISTING",
            "' existing ', false, EXISTING",
    })
    void anExplicitChoiceWinsElseDockerDecides(String choice, boolean docker, ClusterBackend expected) {
        assertThat(ClusterBackend.select(choice, docker)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"kind", "minikube"})
    void anUnknownChoiceIsRejectedWithTheAllowedValues(String choice) {
        assertThatThrownBy(() -> ClusterBackend.select(choice, false))
                .isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("'" + choice + "'")
                .hasMessageContaining("use local, k3s or existing");
    }

    @ParameterizedTest
    @CsvSource({
            "WidgetIT, widgetit-",
            "Nested$Case_Test, nested-case-test-",
            "'', test-",
            "AVeryLongTestClassNameThatGoesOnAndOnForeverAndEver, averylongtestclassnamethatgoesonandonfor-",
    })
    void namespacePrefixesAreValidDnsLabels(String owner, String prefix) {
        assertThat(ClusterAccess.namespacePrefix(owner)).isEqualTo(prefix);
    }
}
