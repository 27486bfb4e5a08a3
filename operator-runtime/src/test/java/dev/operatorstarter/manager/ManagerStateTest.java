package dev.operatorstarter.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.manager.ManagerState.Event;
import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The manager's life as its transition function sees it, on a fake clock and without threads. */
class ManagerStateTest {

    private final FakeTimeSource time = new FakeTimeSource();

    @Test
    void aManagerGoesFromIdleThroughTheResourceCheckAndTheCacheSyncToRunningEachStampedWhenItBegan() {
        ManagerState state = new ManagerState.Idle();
        assertThat(state.isOpen()).isFalse();

        state = ManagerState.next(state, new Event.Start(time.nanoTime()));
        assertThat(state).isEqualTo(new ManagerState.AwaitingResources(time.nanoTime()));
        time.advance(Duration.ofSeconds(3));
        state = ManagerState.next(state, new Event.Served(time.nanoTime()));
        assertThat(state).isEqualTo(new ManagerState.Syncing(time.nanoTime()));
        time.advance(Duration.ofSeconds(2));
        state = ManagerState.next(state, new Event.Synced(time.nanoTime()));

        assertThat(state).isEqualTo(new ManagerState.Running(time.nanoTime()));
        assertThat(state.isOpen()).isTrue();
    }

    @Test
    void closeEndsEveryStateAndAStartAfterItIsRefusedSayingWhy() {
        for (ManagerState state : new ManagerState[] { new ManagerState.Idle(), new ManagerState.AwaitingResources(1),
                new ManagerState.Syncing(2), new ManagerState.Running(3) }) {
            ManagerState closed = ManagerState.next(state, new Event.Close());
            assertThat(closed).isEqualTo(new ManagerState.Closed());
            assertThat(closed.isOpen()).isFalse();
            assertThatThrownBy(() -> ManagerState.next(closed, new Event.Start(time.nanoTime())))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot start again");
        }
    }

    @Test
    void aManagerStartsOnce() {
        ManagerState started = ManagerState.next(new ManagerState.Idle(), new Event.Start(0));
        assertThatThrownBy(() -> ManagerState.next(started, new Event.Start(1)))
                .isInstanceOf(IllegalStateException.class).hasMessage("the manager has started already");
    }

    @Test
    void aStartUpThatFinishesAfterTheCloseLeavesTheManagerClosed() {
        ManagerState closed = new ManagerState.Closed();
        assertThat(ManagerState.next(closed, new Event.Served(5))).isEqualTo(closed);
        assertThat(ManagerState.next(closed, new Event.Synced(6))).isEqualTo(closed);
    }

    @Test
    void eventsOutOfOrderAreRefused() {
        assertThatThrownBy(() -> ManagerState.next(new ManagerState.Idle(), new Event.Synced(0)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ManagerState.next(new ManagerState.AwaitingResources(0), new Event.Synced(0)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ManagerState.next(new ManagerState.Running(0), new Event.Served(0)))
                .isInstanceOf(IllegalStateException.class);
    }
}
