package dev.operatorstarter.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorAccessTest {

    @Group("backup.example.com")
    @Version("v1")
    static class BackupSchedule extends CustomResource<String, BackupSchedule.Status> implements Namespaced {
        static class Status {
        }
    }

    @Group("backup.example.com")
    @Version("v1")
    static class Marker extends CustomResource<String, Void> implements Namespaced {
    }

    @Permission(group = "batch", resources = {"jobs", "cronjobs"}, verbs = {"create", "delete"})
    @Permission(resources = "namespaces", verbs = "get", clusterScoped = true)
    static class Declares {
    }

    @Permission(group = "batch", resources = "Jobs", verbs = "get")
    static class UpperCase {
    }

    /** Each rule as group/resource:verb (@name), the way a reviewer reads a Role. */
    private static List<String> permissions(AccessRules rules) {
        return rules.rules().stream().flatMap(rule -> rule.verbs().stream().flatMap(verb -> {
            String permission = (rule.clusterScoped() ? "cluster " : "") + rule.group() + "/" + rule.resource() + ":" + verb;
            return rule.resourceNames().isEmpty() ? java.util.stream.Stream.of(permission)
                    : rule.resourceNames().stream().map(name -> permission + "@" + name);
        })).toList();
    }

    @Test
    void aControllerMayReadWhatItCachesCreateAndPatchWhatItOwnsWriteItsStatusAndFinalizer() {
        AccessRules rules = OperatorAccess.controller("backups", BackupSchedule.class, "backup.example.com/cleanup",
                List.of(ConfigMap.class, Deployment.class), List.of(Secret.class));

        assertThat(permissions(rules)).containsExactly(
                "/configmaps:get", "/configmaps:list", "/configmaps:watch", "/configmaps:create", "/configmaps:patch",
                "/secrets:get", "/secrets:list", "/secrets:watch",
                "apps/deployments:get", "apps/deployments:list", "apps/deployments:watch", "apps/deployments:create",
                "apps/deployments:patch",
                "backup.example.com/backupschedules:get", "backup.example.com/backupschedules:list",
                "backup.example.com/backupschedules:watch", "backup.example.com/backupschedules:patch",
                "backup.example.com/backupschedules/finalizers:update",
                "backup.example.com/backupschedules/status:update", "backup.example.com/backupschedules/status:patch");
        assertThat(rules.rules().get(0).reasons()).containsExactly("owned configmaps: cached, created and patched "
                + "(controller backups)");
    }

    @Test
    void withoutFinalizerStatusOrOwnedObjectsAControllerOnlyReadsItsResource() {
        assertThat(permissions(OperatorAccess.controller("markers", Marker.class, "", List.of(), List.of())))
                .containsExactly("backup.example.com/markers:get", "backup.example.com/markers:list",
                        "backup.example.com/markers:watch");
    }

    @Test
    void aClusterScopedResourceIsMarkedForAClusterRole() {
        AccessRules rules = OperatorAccess.controller("namespaces", Namespace.class, "", List.of(), List.of());

        assertThat(rules.clusterScoped().rules()).hasSize(1);
        assertThat(rules.namespaced().isEmpty()).isTrue();
    }

    @Test
    void repeatedPermissionsBecomeOneRulePerResourceAndMergeWithTheDerivedOnes() {
        AccessRules declared = OperatorAccess.declared(Declares.class);

        assertThat(permissions(declared)).containsExactly("batch/cronjobs:create", "batch/cronjobs:delete",
                "batch/jobs:create", "batch/jobs:delete", "cluster /namespaces:get");
        AccessRules both = declared.and(AccessRules.of(List.of(new AccessRule("batch", "jobs", List.of(),
                List.of("delete", "get", "get"), false, List.of("a reason")))));
        assertThat(permissions(both)).contains("batch/jobs:get", "batch/jobs:create", "batch/jobs:delete")
                .doesNotHaveDuplicates();
        assertThat(both.rules().stream().filter(rule -> rule.resource().equals("jobs")).findFirst().orElseThrow()
                .reasons()).containsExactly("@Permission on " + Declares.class.getName(), "a reason");
    }

    @Test
    void aPermissionNamingAKindInsteadOfAPluralIsRefusedWithTheClassAndTheFix() {
        assertThatThrownBy(() -> OperatorAccess.declared(UpperCase.class))
                .hasMessageContaining(UpperCase.class.getName()).hasMessageContaining("'Jobs'")
                .hasMessageContaining("lower-case plurals");
    }

    @Test
    void theLeaderLeaseIsCreatedByAnyNameAndOtherwiseTouchedOnlyByItsOwn() {
        assertThat(permissions(OperatorAccess.leaderElection("my-operator-leader"))).containsExactly(
                "coordination.k8s.io/leases:create", "coordination.k8s.io/leases:get@my-operator-leader",
                "coordination.k8s.io/leases:update@my-operator-leader");
    }

    @Test
    void theYamlIsARulesListWithQuotedStringsAndWhatNeedsEachRule() {
        AccessRules rules = OperatorAccess.leaderElection("a\"b");

        assertThat(rules.toYaml()).isEqualTo("""
                # the leader Lease, created when missing
                - apiGroups: ["coordination.k8s.io"]
                  resources: ["leases"]
                  verbs: ["create"]
                # the leader Lease, read, renewed and released
                - apiGroups: ["coordination.k8s.io"]
                  resources: ["leases"]
                  resourceNames: ["a\\"b"]
                  verbs: ["get", "update"]
                """);
    }

    @Test
    void verbsComeInKubectlsOrderWhateverOrderTheyWereDeclaredIn() {
        AccessRule rule = new AccessRule("", "pods", List.of(), List.of("escalate", "delete", "watch", "get", "bind"),
                false, List.of());

        assertThat(rule.verbs()).containsExactly("get", "watch", "delete", "bind", "escalate");
        assertThat(new AccessRule("", "pods/log", List.of(), List.of("get"), false, List.of()).subresource())
                .isEqualTo("log");
        assertThatThrownBy(() -> new AccessRule("", "pods", List.of(), List.of(), false, List.of()))
                .hasMessageContaining("pods");
    }
}
