package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.cache.ReflectorState.BackingOff;
import dev.operatorstarter.cache.ReflectorState.Listing;
import dev.operatorstarter.cache.ReflectorState.Outcome;
import dev.operatorstarter.cache.ReflectorState.Stopped;
import dev.operatorstarter.cache.ReflectorState.Watching;
import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The reflector's policy as a pure function, on a fake time source: no threads, no server. */
class ReflectorStateTest {

    private final FakeTimeSource time = new FakeTimeSource();
    /** Jitter 0 gives the full ceiling, so delays are exact. */
    private final Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), Duration.ofSeconds(1),
            Duration.ofMinutes(2), time, () -> 0.0);
    /** A failure the server answered (a 500, say). */
    private final ReflectorException error = new ReflectorException.WatchFailed("pods", "boom", new RuntimeException());
    /** The server could not be reached. */
    private final ReflectorException refused = new ReflectorException.WatchFailed("pods", "refused",
            new dev.operatorstarter.client.rest.KubernetesClientException("GET failed: Connection refused",
                    new java.net.ConnectException("Connection refused")));
    /** A restarted server's authorizer, not warm yet. */
    private final ReflectorException forbidden = new ReflectorException.WatchFailed("pods", "forbidden",
            ReflectorTest.status(403, "Forbidden"));

    @Test
    void aListLeadsToAWatchFromItsVersion() {
        assertThat(ReflectorState.next(new Listing(""), new Outcome.Listed("42"), backoff)).isEqualTo(new Watching("42"));
    }

    @Test
    void aFailedListIsRetriedFromTheSameVersionAfterABackoff() {
        ReflectorState next = ReflectorState.next(new Listing("7"), new Outcome.ListFailed(error), backoff);
        assertThat(next).isEqualTo(new BackingOff(Duration.ofMillis(800), new Listing("7")));
    }

    @Test
    void anExpiredListGoesToTheLatestStateAtOnceButNeverLoopsOnIt() {
        assertThat(ReflectorState.next(new Listing("7"), new Outcome.ListExpired(error), backoff)).isEqualTo(new Listing(""));
        assertThat(ReflectorState.next(new Listing(""), new Outcome.ListExpired(error), backoff))
                .isInstanceOf(BackingOff.class);
    }

    @Test
    void aNormallyEndedOrStalledWatchReopensAtOnceFromTheLastVersion() {
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchEnded("9", true), backoff))
                .isEqualTo(new Watching("9"));
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchStalled("5", error), backoff))
                .isEqualTo(new Watching("5"));
        assertThat(backoff.failures()).isZero();
    }

    @Test
    void aShortOrFailedWatchReopensAfterABackoffWithoutRelisting() {
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchEnded("1", false), backoff))
                .isEqualTo(new BackingOff(Duration.ofMillis(800), new Watching("1")));
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchFailed("3", error), backoff))
                .isEqualTo(new BackingOff(Duration.ofMillis(1600), new Watching("3")));
    }

    @Test
    void aWatchThatOpenedAndWasCutMidStreamReopensAtOnceAndForgetsEarlierFailures() {
        backoff.next();
        backoff.next();
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchCut("9", error), backoff))
                .isEqualTo(new Watching("9"));
        assertThat(backoff.failures()).isZero();
        assertThat(ReflectorState.next(new Watching("9"), new Outcome.WatchFailed("9", error), backoff))
                .as("the next failure starts over").isEqualTo(new BackingOff(Duration.ofMillis(800), new Watching("9")));
    }

    @Test
    void anOpenedWatchOrASuccessfulListForgetsEarlierFailures() {
        backoff.next();
        ReflectorState.next(new Watching("1"), new Outcome.WatchEnded("2", true), backoff);
        assertThat(backoff.failures()).isZero();
        backoff.next();
        ReflectorState.next(new Watching("2"), new Outcome.WatchStalled("2", error), backoff);
        assertThat(backoff.failures()).isZero();
        backoff.next();
        ReflectorState.next(new Listing(""), new Outcome.Listed("3"), backoff);
        assertThat(backoff.failures()).isZero();
    }

    @Test
    void aServerThatCannotBeReachedIsRetriedWithinTheUnreachableCapHoweverLongItLasts() {
        Duration[] delays = new Duration[6];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = ((BackingOff) ReflectorState.next(new Watching("1"), new Outcome.WatchFailed("1", refused),
                    backoff)).delay();
        }
        assertThat(delays).containsExactly(Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(((BackingOff) ReflectorState.next(new Listing(""), new Outcome.ListFailed(refused), backoff)).delay())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aServerThatAnswersAgainAfterRefusingConnectionsStartsANewStreak() {
        for (int i = 0; i < 10; i++) {
            ReflectorState.next(new Watching("1"), new Outcome.WatchFailed("1", refused), backoff);
        }
        // 403s while the restarted server's authorizer warms up: not made to wait for the refusals' count
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchFailed("1", forbidden), backoff))
                .isEqualTo(new BackingOff(Duration.ofMillis(800), new Watching("1")));
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchFailed("1", forbidden), backoff))
                .isEqualTo(new BackingOff(Duration.ofMillis(1600), new Watching("1")));
    }

    @Test
    void theDelayTheServerAskedForIsWaitedPlusJitter() {
        io.fabric8.kubernetes.api.model.Status status = new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(429)
                .withReason("TooManyRequests").withNewDetails().withRetryAfterSeconds(5).endDetails().build();
        ReflectorException throttled = new ReflectorException.ListFailed("pods", "throttled",
                dev.operatorstarter.client.rest.ApiException.fromStatus(status, "GET pods"));
        assertThat(ReflectorState.next(new Listing("7"), new Outcome.ListFailed(throttled), backoff))
                .isEqualTo(new BackingOff(Duration.ofMillis(5800), new Listing("7")));
    }

    @Test
    void aWatchAnswered410RelistsFromTheLastVersion() {
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.WatchExpired("6", error), backoff))
                .isEqualTo(new Listing("6"));
    }

    @Test
    void stopWinsFromAnyState() {
        assertThat(ReflectorState.next(new Watching("1"), new Outcome.StopRequested(), backoff)).isEqualTo(new Stopped());
        assertThat(ReflectorState.next(new Stopped(), new Outcome.Listed("1"), backoff)).isEqualTo(new Stopped());
    }

    @Test
    void backoffDoublesUpToItsCapAndStartsOverAfterTwoHealthyMinutes() {
        Duration[] delays = new Duration[8];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = backoff.next();
            time.advance(Duration.ofSeconds(1));
        }
        assertThat(delays).containsExactly(Duration.ofMillis(800), Duration.ofMillis(1600), Duration.ofMillis(3200),
                Duration.ofMillis(6400), Duration.ofMillis(12800), Duration.ofMillis(25600), Duration.ofSeconds(30),
                Duration.ofSeconds(30));
        time.advance(Duration.ofMinutes(2).plusMillis(1));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(800));
    }

    @Test
    void jitterStaysWithinTheCeilingAndAboveZero() {
        double[] random = {0.999_999, 0.5};
        int[] call = {0};
        Backoff jittered = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), Duration.ofSeconds(1),
                Duration.ofMinutes(2), time, () -> random[call[0]++]);
        assertThat(jittered.next()).isPositive().isLessThan(Duration.ofMillis(1));
        assertThat(jittered.next()).isEqualTo(Duration.ofMillis(800));
    }

    @Test
    void backoffRejectsACapBelowTheStart() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofMinutes(2), time, () -> 0.0)).hasMessageContaining("max");
    }
}
