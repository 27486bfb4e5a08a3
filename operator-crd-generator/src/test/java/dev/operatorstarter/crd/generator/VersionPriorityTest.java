package dev.operatorstarter.crd.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionPriorityTest {

    @Test
    void gaComesBeforeBetaBeforeAlphaEachWithTheHigherNumbersFirstAndOtherNamesLast() {
        List<String> versions = new ArrayList<>(List.of("foo10", "v1alpha1", "v11alpha2", "v2", "v1", "v3beta1",
                "foo1", "v10beta3", "v12alpha1", "v11beta2", "v10"));

        versions.sort(VersionPriority.INSTANCE);

        assertThat(versions).containsExactly("v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1",
                "v11alpha2", "v1alpha1", "foo1", "foo10");
    }
}
