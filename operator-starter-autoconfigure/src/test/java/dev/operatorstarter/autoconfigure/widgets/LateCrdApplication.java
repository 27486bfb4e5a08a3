package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileResult;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** An operator of Sprockets, whose CRD may not exist yet when it starts. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LateCrdApplication {

    @Bean
    @Reconciler
    ReconcileHandler<Sprocket> sprocketReconciler() {
        return request -> ReconcileResult.done();
    }
}
