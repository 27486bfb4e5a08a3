package dev.operatorstarter.crd.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.autoconfigure.wiring.CodePermissions;
import dev.operatorstarter.crd.maven.fixtures.Gadgets;
import dev.operatorstarter.crd.maven.fixtures.Reconcilers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the rbac goals write and compare, without Maven: the rules the starter reads from the code. */
class RbacTemplateTest {

    private static RbacTemplate template(List<Class<?>> classes) {
        CodePermissions code = CodePermissions.of(classes);
        return new RbacTemplate("demo", code.reconcilers(), code.reconcile(), code.sharded(),
                code.caInjection(RbacTemplate.CONFIGURATION));
    }

    private static final List<Class<?>> APPLICATION = List.of(Reconcilers.ConfigMapReconciler.class,
            Reconcilers.GizmoConfiguration.class, Reconcilers.GizmoValidator.class, Gadgets.Gizmo.class,
            Gadgets.Unrelated.class);

    @Test
    void everyReconcilerClassAndBeanMethodGivesItsRulesWithItsPermissionsWhereTheOperatorReconciles() {
        String text = template(APPLICATION).render();

        assertThat(text).contains("from " + Reconcilers.ConfigMapReconciler.class.getName() + ", "
                + Reconcilers.GizmoConfiguration.class.getName() + ".gizmoReconciler().");
        String rules = define(text, "demo.rbac.rules");
        assertThat(rules).contains("""
                # the cache of configmaps (controller configmap); finalizer example.com/cleanup added and removed (controller configmap)
                - apiGroups: [""]
                  resources: ["configmaps"]
                  verbs: ["get", "list", "watch", "patch"]
                """).contains("""
                - apiGroups: [""]
                  resources: ["configmaps/finalizers"]
                  verbs: ["update"]
                """).contains("""
                - apiGroups: [""]
                  resources: ["pods/log"]
                  verbs: ["get"]
                """).contains("""
                - apiGroups: [""]
                  resources: ["secrets"]
                  verbs: ["get", "list", "watch", "create", "patch"]
                """).contains("""
                # @Permission on dev.operatorstarter.crd.maven.fixtures.Reconcilers$ConfigMapReconciler
                - apiGroups: ["batch"]
                  resources: ["jobs"]
                  verbs: ["create", "delete"]
                """).contains("""
                - apiGroups: ["events.k8s.io"]
                  resources: ["events"]
                  verbs: ["create", "patch"]
                """).doesNotContain("gizmos");
        assertThat(define(text, "demo.rbac.clusterRules")).as("Gizmo is cluster-scoped, its status Void").contains("""
                - apiGroups: ["maven.operatorstarter.dev"]
                  resources: ["gizmos"]
                  verbs: ["get", "list", "watch"]
                """).doesNotContain("gizmos/status");
        assertThat(define(text, "demo.rbac.shardedRules")).contains("""
                - apiGroups: [""]
                  resources: ["secrets"]
                  verbs: ["get", "list", "watch", "create", "patch"]
                """);
        assertThat(define(text, "demo.rbac.leaderElectionRules")).contains("resourceNames: [{{ .leaseName | quote }}]");
        assertThat(define(text, "demo.rbac.caInjectionRules")).contains("""
                - apiGroups: ["admissionregistration.k8s.io"]
                  resources: ["validatingwebhookconfigurations"]
                  resourceNames: [{{ .webhookConfigurationName | quote }}]
                  verbs: ["get", "update"]
                """).doesNotContain("mutatingwebhookconfigurations").doesNotContain("customresourcedefinitions");
    }

    @Test
    void withoutWebhooksOrClusterScopedResourcesThoseTemplatesAreEmpty() {
        String text = template(List.of(Reconcilers.ConfigMapReconciler.class)).render();

        assertThat(define(text, "demo.rbac.caInjectionRules")).isEmpty();
        assertThat(define(text, "demo.rbac.clusterRules")).isEmpty();
    }

    @Test
    void theCheckNamesAMissingFileAndTheFirstLineThatDiffersAndPassesOnceWritten(@TempDir Path chart) throws Exception {
        RbacTemplate template = template(APPLICATION);
        Path templates = chart.resolve("templates");

        assertThat(template.stale(templates)).endsWith(RbacTemplate.FILE_NAME + " is missing");
        assertThat(template.write(templates)).isTrue();
        assertThat(template.stale(templates)).isNull();
        assertThat(template.write(templates)).as("a current file is left as it is").isFalse();

        Path file = templates.resolve(RbacTemplate.FILE_NAME);
        Files.writeString(file, Files.readString(file).replace("  verbs: [\"create\", \"delete\"]\n", "  verbs: [\"create\"]\n"));
        assertThat(template.stale(templates)).contains("is not what the code gives: line ")
                .contains("is 'verbs: [\"create\"]'").contains("give 'verbs: [\"create\", \"delete\"]'");
    }

    @Test
    void thePrefixIsTheChartsNameAndAFolderWithoutAChartIsNamedInTheError(@TempDir Path chart) throws Exception {
        Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: \"backup-operator\"\nversion: 0.1.0\n");
        assertThat(RbacTemplate.chartName(chart)).isEqualTo("backup-operator");

        assertThatThrownBy(() -> RbacTemplate.chartName(chart.resolve("nothing")))
                .hasMessageContaining(chart.resolve("nothing").resolve("Chart.yaml").toString())
                .hasMessageContaining("set chartDirectory");
    }

    /** The body of the named template {@code name}. */
    private static String define(String text, String name) {
        String start = "{{- define \"" + name + "\" -}}\n";
        int at = text.indexOf(start);
        assertThat(at).as("defines %s", name).isNotNegative();
        return text.substring(at + start.length(), text.indexOf("{{- end }}", at));
    }
}
