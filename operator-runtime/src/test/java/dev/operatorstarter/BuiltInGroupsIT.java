package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The typed clients of the built-in API groups ({@code Clientset}), as the docs show them
 * (docs/client.md, docs/getting-started.md): a CronJob and a Job through {@code batchV1()}, and the
 * objects of a list through {@link ResourceList#items()}, against the real API server.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class BuiltInGroupsIT {

    @Test
    void batchV1CreatesACronJobAndAJobAndAListsItemsAreTheObjects(KubernetesClient client, TestNamespace namespace) {
        List<String> names = backUp(client, namespace.name());

        assertThat(names).containsExactly("backup-now");
        assertThat(client.batchV1().cronJobs().inNamespace(namespace.name()).get("nightly-backup").getSpec()
                .getSchedule()).isEqualTo("0 3 * * *");
        assertThat(client.batchV1().jobs().inNamespace(namespace.name()).get("backup-now").getSpec().getBackoffLimit())
                .isEqualTo(2);
        assertThat(client.batchV1().jobs().inNamespace(namespace.name()).list().resourceVersion())
                .as("a list's own metadata, beside its items").isNotEmpty();
    }

    /** The docs' example: a nightly CronJob, a Job now, and the names of the backup Jobs. */
    static List<String> backUp(KubernetesClient client, String namespace) {
        ResourceClient<CronJob> cronJobs = client.batchV1().cronJobs().inNamespace(namespace);
        cronJobs.create(new CronJobBuilder()
                .withNewMetadata().withName("nightly-backup").endMetadata()
                .withNewSpec().withSchedule("0 3 * * *")
                .withNewJobTemplate().withNewSpec().withTemplate(backupPod()).endSpec().endJobTemplate()
                .endSpec().build());

        ResourceClient<Job> jobs = client.batchV1().jobs().inNamespace(namespace);
        jobs.create(new JobBuilder()
                .withNewMetadata().withName("backup-now").addToLabels("app", "backup").endMetadata()
                .withNewSpec().withBackoffLimit(2).withTemplate(backupPod()).endSpec()
                .build());

        ResourceList<Job> backups = jobs.list(ListOptions.builder().labelSelector("app=backup").build());
        return backups.items().stream().map(job -> job.getMetadata().getName()).toList();
    }

    /** What both run: a Pod that ends (Jobs need restartPolicy Never or OnFailure). */
    private static PodTemplateSpec backupPod() {
        return new PodTemplateSpecBuilder().withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("backup").withImage("busybox:1.37").withCommand("sh", "-c", "echo backed up")
                .endContainer().endSpec().build();
    }
}
