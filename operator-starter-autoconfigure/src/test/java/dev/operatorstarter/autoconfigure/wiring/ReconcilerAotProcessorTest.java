package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.javapoet.ClassName;

/** The reflection hints Spring AOT writes for the classes Jackson binds. */
class ReconcilerAotProcessorTest {

    @TempDir
    Path folder;

    @Test
    void theReconcilersResourcesTheirNestedTypesAndTheRuntimesApiTypesGetBindingHints() {
        OperatorAutoConfigurationTest.runner(folder)
                .withUserConfiguration(OperatorAutoConfigurationTest.MetadataOwnerConfiguration.class).run(context -> {
                    BeanFactoryInitializationAotContribution contribution = new ReconcilerAotProcessor()
                            .processAheadOfTime(context.getBeanFactory());
                    assertThat(contribution).isNotNull();
                    DefaultGenerationContext generation = new DefaultGenerationContext(
                            new ClassNameGenerator(ClassName.get("com.example", "Operator")), new InMemoryGeneratedFiles());
                    contribution.applyTo(generation, null);
                    RuntimeHints hints = generation.getRuntimeHints();

                    // the primary, the owned resource cached as metadata only, a nested type, the runtime's own
                    for (Class<?> type : new Class<?>[] {ConfigMap.class, Secret.class, ObjectMeta.class,
                            PartialObjectMetadata.class, Status.class, Lease.class}) {
                        assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getName()).accepts(hints);
                    }
                });
    }

    @Test
    void anApplicationWithTheOperatorOffGetsNone() {
        OperatorAutoConfigurationTest.runner(folder).withPropertyValues("operator.enabled=false")
                .withUserConfiguration(OperatorAutoConfigurationTest.MetadataOwnerConfiguration.class)
                .run(context -> assertThat(new ReconcilerAotProcessor().processAheadOfTime(context.getBeanFactory()))
                        .isNull());
    }
}
