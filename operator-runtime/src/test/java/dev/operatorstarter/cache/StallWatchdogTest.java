package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/** The stall watchdog on a fake clock: only the fake time that passes between events counts. */
class StallWatchdogTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final Sinks.Many<Long> server = Sinks.many().unicast().onBackpressureBuffer();

    @Test
    void aWatchWhoseEventsKeepComingIsNeverStalledHoweverLongItRuns() {
        Duration stall = Duration.ofMillis(500);
        StallWatchdog<Long> events = StallWatchdog.watch(server.asFlux(), stall, time, 4);
        // 30 events 50 ms apart: 1.5 s in all, three times the stall, each gap a tenth of it
        for (long i = 0; i < 30; i++) {
            time.advance(Duration.ofMillis(50));
            server.tryEmitNext(i);
            assertThat(events.hasNext()).isTrue();
            assertThat(events.next()).isEqualTo(i);
        }
        server.tryEmitComplete();
        assertThat(events.hasNext()).as("completed").isFalse();
    }

    @Test
    void aWatchThatFallsSilentFailsWithATimeoutAfterItsLastEvent() throws Exception {
        Duration stall = Duration.ofMillis(300);
        StallWatchdog<Long> events = StallWatchdog.watch(server.asFlux(), stall, time, 64);
        for (long i = 0; i < 3; i++) {
            time.advance(Duration.ofMillis(50));
            server.tryEmitNext(i);
            assertThat(events.next()).isEqualTo(i);
        }
        time.advance(Duration.ofMillis(299)); // 449 ms since the watch opened, 299 since its last event
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(events::hasNext);
        await().until(() -> time.hasWaiterWithin(Duration.ofMillis(1)));
        assertThat(waiting).as("not stalled before the stall timeout since the last event").isNotDone();

        time.advance(Duration.ofMillis(1));
        assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
                .extracting(e -> Exceptions.unwrap(e.getCause())).isInstanceOf(TimeoutException.class)
                .extracting(Throwable::getMessage).isEqualTo("no event for PT0.3S");
        assertThat(server.currentSubscriberCount()).as("the stalled watch is cancelled").isZero();
    }

    @Test
    void aWatchThatEndsCompletesAndAnErrorOfItsOwnPassesThroughAfterTheEventsBeforeIt() {
        StallWatchdog<String> ended = StallWatchdog.watch(Flux.just("a", "b"), Duration.ofMillis(50), time, 64);
        assertThat(ended.next()).isEqualTo("a");
        assertThat(ended.next()).isEqualTo("b");
        assertThat(ended.hasNext()).isFalse();

        StallWatchdog<String> failed = StallWatchdog.watch(Flux.concat(Flux.just("a"),
                Flux.error(new IllegalStateException("reset"))), Duration.ofSeconds(10), time, 64);
        assertThat(failed.next()).isEqualTo("a");
        assertThatThrownBy(failed::hasNext).isInstanceOf(IllegalStateException.class).hasMessage("reset");
    }

    @Test
    void endingFromAnotherThreadWakesTheReaderAfterTheEventsAlreadyArrivedAndCancelsTheWatch() throws Exception {
        StallWatchdog<Long> events = StallWatchdog.watch(server.asFlux(), Duration.ofMinutes(1), time, 64);
        server.tryEmitNext(1L);
        assertThat(events.next()).isEqualTo(1L);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(events::hasNext);
        await().until(() -> time.hasWaiterWithin(Duration.ofMinutes(1)));

        server.tryEmitNext(2L);
        assertThat(waiting.get(10, TimeUnit.SECONDS)).as("woken by the event").isTrue();
        CompletableFuture.runAsync(events::end).get(10, TimeUnit.SECONDS);

        assertThat(events.next()).as("what arrived before the end is still read").isEqualTo(2L);
        assertThat(events.hasNext()).as("then the watch reads as completed").isFalse();
        assertThat(server.currentSubscriberCount()).as("the watch is cancelled").isZero();

        StallWatchdog<Long> idle = StallWatchdog.watch(Flux.never(), Duration.ofMinutes(1), time, 64);
        CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(idle::hasNext);
        await().until(() -> time.hasWaiterWithin(Duration.ofMinutes(1)));
        idle.end();
        assertThat(blocked.get(10, TimeUnit.SECONDS)).as("a reader waiting for an event wakes at the end").isFalse();
    }

    @Test
    void closingCancelsTheWatch() {
        StallWatchdog<Long> events = StallWatchdog.watch(server.asFlux(), Duration.ofMinutes(1), time, 64);
        assertThat(server.currentSubscriberCount()).isOne();
        events.close();
        assertThat(server.currentSubscriberCount()).isZero();
    }
}
