package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** An operator whose reconcile takes a while, to see what shutdown does to a reconcile in flight. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class SlowReconcileApplication {

    /** How the one slow reconcile went: started, then "finished" or "interrupted". */
    public static final class Progress {
        public final CountDownLatch started = new CountDownLatch(1);
        public final AtomicReference<String> outcome = new AtomicReference<>("running");
    }

    @Bean
    Progress progress() {
        return new Progress();
    }

    @Bean
    @Reconciler
    ReconcileHandler<ConfigMap> slowReconciler(Progress progress) {
        return request -> {
            progress.started.countDown();
            try {
                Thread.sleep(1500); // the work of this reconcile
                progress.outcome.set("finished");
            } catch (InterruptedException e) {
                progress.outcome.set("interrupted");
                Thread.currentThread().interrupt();
            }
            return ReconcileResult.done();
        };
    }
}
