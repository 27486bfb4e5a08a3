package dev.operatorstarter.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CacheSyncExceptionTest {

    @Test
    void aNamespacedRefusalNamesIdentityVerbResourceGroupAndNamespace() {
        Optional<CacheSyncException.Denial> denial = CacheSyncException.Denial.parse("widgets.starter.operatorstarter.dev"
                + "/ns: watch refused: widgets.starter.operatorstarter.dev is forbidden: User "
                + "\"system:serviceaccount:ns:op\" cannot watch resource \"widgets\" in API group "
                + "\"starter.operatorstarter.dev\" in the namespace \"ns\"");
        assertThat(denial).contains(new CacheSyncException.Denial("system:serviceaccount:ns:op", "watch", "widgets",
                "starter.operatorstarter.dev", "ns"));
    }

    @Test
    void aClusterScopedRefusalOfTheCoreGroupHasNoNamespace() {
        assertThat(CacheSyncException.Denial.parse("configmaps is forbidden: User \"jane\" cannot list resource "
                + "\"configmaps\" in API group \"\" at the cluster scope"))
                .contains(new CacheSyncException.Denial("jane", "list", "configmaps", "", ""));
    }

    @Test
    void otherErrorsAreNoDenial() {
        assertThat(CacheSyncException.Denial.parse("connection refused")).isEmpty();
        assertThat(CacheSyncException.Denial.parse(null)).isEmpty();
    }
}
