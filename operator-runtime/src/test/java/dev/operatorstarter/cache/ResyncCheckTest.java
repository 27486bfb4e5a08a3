package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * When handlers are resynced, on a fake clock (client-go's TestListenerResyncPeriods, re-expressed):
 * each handler on its own period, never stretched by another handler's.
 */
class ResyncCheckTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final long START = 1_000 * SECOND;

    private static Listener<String> listener(String name, Duration period) {
        return new Listener<>("pods", new ResourceEventHandler<>() {
            @Override
            public String toString() {
                return name;
            }
        }, period, START, () -> true, () -> { });
    }

    private final Listener<String> never = listener("never", Duration.ZERO);
    private final Listener<String> everyTwo = listener("every 2 s", Duration.ofSeconds(2));
    private final Listener<String> everyThree = listener("every 3 s", Duration.ofSeconds(3));
    private final List<Listener<String>> listeners = List.of(never, everyTwo, everyThree);

    private ResyncCheck<String> checkAt(double seconds) {
        return ResyncCheck.at(START + Math.round(seconds * SECOND), listeners);
    }

    private static OptionalLong at(double seconds) {
        return OptionalLong.of(START + Math.round(seconds * SECOND));
    }

    @Test
    void eachHandlerIsResyncedOnItsOwnPeriodAndTheNextCheckIsWhenTheEarliestIsDue() {
        assertThat(ResyncCheck.nextCheck(listeners)).isEqualTo(at(2));
        assertThat(checkAt(1.999).due()).isEmpty();

        ResyncCheck<String> two = checkAt(2);
        assertThat(two.due()).containsExactly(everyTwo);
        assertThat(two.nextCheckNanos()).as("the 3 s handler is not kept waiting for the next 2 s tick").isEqualTo(at(3));

        ResyncCheck<String> three = checkAt(3);
        assertThat(three.due()).containsExactly(everyThree);
        assertThat(three.nextCheckNanos()).isEqualTo(at(4));

        assertThat(checkAt(4).due()).containsExactly(everyTwo);
        ResyncCheck<String> six = checkAt(6);
        assertThat(six.due()).containsExactly(everyTwo, everyThree);
        assertThat(six.nextCheckNanos()).isEqualTo(at(8));
    }

    @Test
    void aLateCheckDelaysOnlyTheNextResyncOfTheHandlersItFoundDueAndNeverSkipsOne() {
        ResyncCheck<String> late = checkAt(2.1);
        assertThat(late.due()).containsExactly(everyTwo);
        assertThat(late.nextCheckNanos()).isEqualTo(at(3));
        assertThat(checkAt(4).due()).as("not yet: 2.1 + 2").doesNotContain(everyTwo);
        assertThat(checkAt(4.1).due()).containsExactly(everyTwo);
    }

    @Test
    void noHandlerWithAPeriodMeansNoCheck() {
        assertThat(ResyncCheck.nextCheck(List.of(never))).isEmpty();
        assertThat(ResyncCheck.at(START + 100 * SECOND, List.of(never)).nextCheckNanos()).isEmpty();
    }
}
