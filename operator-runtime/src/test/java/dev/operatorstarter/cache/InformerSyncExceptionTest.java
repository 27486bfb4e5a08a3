package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.InformerSyncException.Denial;
import dev.operatorstarter.cache.InformerSyncException.Unsynced;
import dev.operatorstarter.client.rest.ApiException;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a sync failure tells from the typed errors it keeps, not from its message. */
class InformerSyncExceptionTest {

    private static ApiException forbidden(String verb, String resource, String group, String namespace) {
        String qualified = group.isEmpty() ? resource : resource + "." + group;
        Status status = new StatusBuilder().withStatus("Failure").withCode(403).withReason("Forbidden")
                .withMessage(qualified + " is forbidden: User \"system:serviceaccount:ops:op\" cannot " + verb
                        + " resource \"" + resource + "\" in API group \"" + group + "\""
                        + (namespace.isEmpty() ? " at the cluster scope" : " in the namespace \"" + namespace + "\""))
                .withNewDetails().withKind(resource).withGroup(group.isEmpty() ? null : group).endDetails().build();
        return ApiException.fromStatus(status, "GET https://api/" + resource);
    }

    @Test
    void aRefusedWatchInANamespaceIsReadAsADenialFromTheStatus() {
        Unsynced widgets = new Unsynced("widgets/ns", new ReflectorException.WatchFailed("widgets/ns",
                "watch refused", forbidden("watch", "widgets", "starter.operatorstarter.dev", "ns")));
        assertThat(widgets.denial()).contains(new Denial("system:serviceaccount:ops:op", "watch", "widgets",
                "starter.operatorstarter.dev", "ns"));
    }

    @Test
    void aRefusedListAtTheClusterScopeHasTheCoreGroupAndNoNamespace() {
        Unsynced nodes = new Unsynced("nodes", new ReflectorException.ListFailed("nodes", "list refused",
                forbidden("list", "nodes", "", "")));
        assertThat(nodes.denial()).contains(new Denial("system:serviceaccount:ops:op", "list", "nodes", "", ""));
    }

    @Test
    void otherErrorsAndNoErrorAreNoDenial() {
        Status unavailable = new StatusBuilder().withCode(503).withReason("ServiceUnavailable")
                .withMessage("User \"x\" cannot list resource \"y\"").build();
        Unsynced down = new Unsynced("pods", new ReflectorException.ListFailed("pods", "list failed",
                ApiException.fromStatus(unavailable, "GET https://api/pods")));
        Unsynced quiet = new Unsynced("secrets", null);
        assertThat(down.denial()).as("a message alone does not make a denial").isEmpty();
        assertThat(quiet.denial()).isEmpty();
        assertThat(quiet.describeError()).isEqualTo("no error yet");
    }

    @Test
    void theMessageNamesWhoWaitedHowLongAndEachInformerWithItsLastError() {
        InformerSyncException failure = new InformerSyncException("widgets-controller", Duration.ofSeconds(5), List.of(
                new Unsynced("widgets/ns", new ReflectorException.WatchFailed("widgets/ns", "watch refused",
                        forbidden("watch", "widgets", "starter.operatorstarter.dev", "ns"))),
                new Unsynced("secrets", null)));
        assertThat(failure.getMessage()).startsWith("widgets-controller: caches not synced after PT5S: widgets/ns (")
                .contains("watch refused").endsWith("; secrets (no error yet)");
        assertThat(failure.denials()).extracting(Denial::resource).containsExactly("widgets");
    }
}
