package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.wiring.scanned.ScannedConfigMapReconciler;
import dev.operatorstarter.autoconfigure.wiring.unannotated.ConfigMapSteps;
import dev.operatorstarter.autoconfigure.wiring.unannotated.ForgottenSecretReconciler;
import dev.operatorstarter.autoconfigure.wiring.unannotated.Logged;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.manager.Manager;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * What looks like a reconciler but gets no controller is named in a warning at start-up, whether
 * or not other reconcilers run; handlers that are plainly not reconcilers are not.
 */
@ExtendWith(OutputCaptureExtension.class)
class OverlookedReconcilersTest {

    private static final String UNANNOTATED = "These ReconcileHandler classes have no @Reconciler, so no controller calls them: ";

    @TempDir
    Path folder;

    private ApplicationContextRunner runner() {
        return OperatorAutoConfigurationTest.runner(folder);
    }

    @Test
    void aReconcileHandlerBeanWithoutReconcilerIsNamedWithTheFixBesideTheReconcilersThatRun(CapturedOutput output) {
        runner().withUserConfiguration(ConfigMapReconcilerConfiguration.class, ForgottenBeansConfiguration.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Manager.class).controllers()).extracting(status -> status.name())
                            .containsExactly("configmap");
                });

        assertThat(output).contains("WARN").contains(UNANNOTATED)
                .contains(ForgottenSecretReconciler.class.getName() + " (bean '")
                .contains("ReconcileHandler<" + Widget.class.getName() + "> (bean 'widgetHandler')")
                .contains("Annotate the class with @Reconciler (a bean made by a @Bean method: annotate the method)")
                .doesNotContain("No @Reconciler bean found");
    }

    @Test
    void aReconcileHandlerClassOfTheApplicationsPackagesThatIsNotABeanIsNamedButNotADelegateOrAWrapper(
            CapturedOutput output) {
        runner().withUserConfiguration(ConfigMapReconcilerConfiguration.class, UnannotatedPackageConfiguration.class)
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(output).contains(UNANNOTATED + ForgottenSecretReconciler.class.getName() + " (not a bean).")
                .as("a ConfigMap reconciler runs: ConfigMapSteps is its part").doesNotContain(ConfigMapSteps.class.getName())
                .as("a handler of any resource").doesNotContain(Logged.class.getName());
    }

    @Test
    void withoutAnyReconcilerTheWarningSaysSoAndNamesEveryUnannotatedHandler(CapturedOutput output) {
        runner().withUserConfiguration(UnannotatedPackageConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Manager.class).controllers()).isEmpty();
        });

        assertThat(output).contains("No @Reconciler bean found, so the operator runs no controller. " + UNANNOTATED)
                .contains(ForgottenSecretReconciler.class.getName() + " (not a bean)")
                .contains(ConfigMapSteps.class.getName() + " (not a bean)").doesNotContain(Logged.class.getName());
    }

    @Test
    void anAnnotatedClassThatIsNotABeanIsNamedEvenWhenAnotherReconcilerRuns(CapturedOutput output) {
        runner().withUserConfiguration(WidgetHandlerConfiguration.class, ScannedPackageWithoutScanningConfiguration.class)
                .run(context -> assertThat(context.getBean(Manager.class).controllers())
                        .extracting(status -> status.name()).containsExactly("widget"));

        assertThat(output).contains("These @Reconciler classes in " + ScannedConfigMapReconciler.class.getPackageName()
                + " are not beans: ").contains(ScannedConfigMapReconciler.class.getName())
                .doesNotContain("No @Reconciler bean found");
    }

    @Test
    void anApplicationWhoseHandlersAreAllReconcilersGetsNoWarning(CapturedOutput output) {
        runner().withUserConfiguration(ScannedPackageConfiguration.class).run(context -> assertThat(
                context.getBean(Manager.class).controllers()).hasSize(2));

        assertThat(output).doesNotContain("have no @Reconciler").doesNotContain("are not beans")
                .doesNotContain("No @Reconciler bean found");
    }

    @Configuration(proxyBeanMethods = false)
    static class ConfigMapReconcilerConfiguration {

        @Bean
        @Reconciler
        ReconcileHandler<ConfigMap> configMapReconciler() {
            ConfigMapSteps steps = new ConfigMapSteps();
            return new Logged<>(steps::reconcile);
        }
    }

    /** Two beans that would be reconcilers, had their authors not forgotten the annotation. */
    @Configuration(proxyBeanMethods = false)
    @Import(ForgottenSecretReconciler.class)
    static class ForgottenBeansConfiguration {

        @Bean
        ReconcileHandler<Widget> widgetHandler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WidgetHandlerConfiguration {

        @Bean
        @Reconciler
        ReconcileHandler<Widget> widgetReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    /** The application's package is that of the unannotated handlers, and nothing scans it. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = ForgottenSecretReconciler.class)
    static class UnannotatedPackageConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = ScannedConfigMapReconciler.class)
    static class ScannedPackageWithoutScanningConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = ScannedConfigMapReconciler.class)
    @ComponentScan(basePackageClasses = ScannedConfigMapReconciler.class)
    static class ScannedPackageConfiguration {
    }
}
