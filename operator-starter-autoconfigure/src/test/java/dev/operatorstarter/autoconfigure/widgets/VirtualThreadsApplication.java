package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.controller.Writes;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * An operator that writes, for each Widget, a ConfigMap {@code <widget>-thread} saying on which
 * thread its reconcile ran: the evidence lies in the API server, written by the blocking client
 * from the worker itself.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(VirtualThreadsApplication.ThreadReporter.class)
public class VirtualThreadsApplication {

    @Reconciler
    static class ThreadReporter implements ReconcileHandler<Widget> {

        private final KubernetesClient client;

        ThreadReporter(KubernetesClient client) {
            this.client = client;
        }

        @Override
        public ReconcileResult reconcile(ReconcileRequest request) {
            Thread worker = Thread.currentThread();
            ConfigMap report = new ConfigMapBuilder().withNewMetadata().withNamespace(request.namespace())
                    .withName(request.name() + "-thread").endMetadata()
                    .addToData("virtual", String.valueOf(isVirtual(worker)))
                    .addToData("name", worker.getName()).build();
            Writes.createOrPatch(client.coreV1().configMaps().inNamespace(request.namespace()), report, "thread-reporter");
            return ReconcileResult.done();
        }
    }

    /** {@code Thread.isVirtual()}, which Java 17 lacks (it has no virtual threads). */
    static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (NoSuchMethodException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
