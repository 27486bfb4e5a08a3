package dev.operatorstarter.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Leadership changes as the elector reports them; the controllers themselves are covered by the ITs. */
class ControllerManagerTest {

    @Test
    void afterALostTermAReelectingReplicaRunsItsControllersAgainInTheNextTerm() {
        ControllerManager manager = new ControllerManager(List.of(), Duration.ofSeconds(1), null);
        manager.onStartedLeading(null);
        assertThat(manager.isActive()).isTrue();

        manager.onStoppedLeading();
        assertThat(manager.isActive()).isFalse();

        manager.onStartedLeading(null);
        assertThat(manager.isActive()).isTrue();
    }

    @Test
    void withShutdownOnLossTheHookRunsOnceAndNoLaterTermStartsTheControllers() {
        AtomicInteger shutdowns = new AtomicInteger();
        ControllerManager manager = new ControllerManager(List.of(), Duration.ofSeconds(1), shutdowns::incrementAndGet);
        manager.onStartedLeading(null);

        manager.onStoppedLeading();
        manager.onStartedLeading(null); // the lease was won back before the context closed
        manager.onStoppedLeading();

        assertThat(shutdowns).hasValue(1);
        assertThat(manager.isActive()).isFalse();
    }

    @Test
    void aClosedManagerStartsNothing() {
        ControllerManager manager = new ControllerManager(List.of(), Duration.ofSeconds(1), null);
        manager.close();
        manager.startAll();
        assertThat(manager.isActive()).isFalse();
    }
}
