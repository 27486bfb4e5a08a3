package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the reader checks before it reads (no server needed); {@code ObjectReaderIT} reads. */
class ObjectReaderTest {

    @Test
    void uncachedResourcesAreNamedByPluralAndGroupFromAClassOrByName() {
        ReaderOptions options = ReaderOptions.builder().uncached(Secret.class).uncached(Deployment.class)
                .uncached("widgets.example.com").build();

        assertThat(options.uncached()).containsExactlyInAnyOrder("secrets", "deployments.apps", "widgets.example.com");
        assertThat(ReaderOptions.defaults().uncached()).isEmpty();
        assertThat(ReaderOptions.defaults().metrics()).isSameAs(ReaderMetrics.NONE);
    }

    @ParameterizedTest
    @CsvSource({"Secrets", "secret s", "deployments/apps", "''"})
    void anUncachedNameThatIsNotPluralDotGroupIsRejectedSayingWhatIsExpected(String name) {
        assertThatThrownBy(() -> ReaderOptions.builder().uncached(name).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"" + name + "\"")
                .hasMessageContaining("plural[.group]");
    }

    @Test
    void aReadNamesTheNamespaceItNeedsOrMustNotHave() {
        try (KubernetesClient client = KubernetesClient.create(new ClientConfig(URI.create("https://127.0.0.9:9"),
                TlsSettings.defaults(), Credentials.none(), null, "x", "a test"));
                SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            ObjectReader reader = ObjectReader.of(factory, ReaderOptions.defaults());

            assertThatThrownBy(() -> reader.get(ConfigMap.class, "", "settings"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a get needs a namespace");
            assertThatThrownBy(() -> reader.get(Namespace.class, "apps", "apps"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster-scoped");
            assertThatThrownBy(() -> reader.list(Namespace.class, "apps"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster-scoped");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "app=web,tier=db | app=web | true",
            "app=web         | app=web | true",
            "anything        | ''      | true",
            "''              | ''      | true",
            "tier=db         | app=web | false",
            "app!=web        | app=web | false",
            "''              | app=web | false"})
    void aSelectorIsCoveredByACacheWhenItHasEveryRequirementOfTheCachesSelector(String read, String cache,
            boolean covered) {
        assertThat(LabelSelector.parse(read).hasEveryRequirementOf(LabelSelector.parse(cache))).isEqualTo(covered);
    }
}
