package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.controller.QueueAction.Failure;
import dev.operatorstarter.controller.QueueAction.Step;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How every way a reconcile can end maps to a queue action and to the counters, without threads. */
class QueueActionTest {

    static Stream<Arguments> outcomes() {
        return Stream.of(
                Arguments.of("done", ReconcileResult.done(), null,
                        Step.FORGET, Duration.ZERO, "success", Failure.NONE),
                Arguments.of("requeue", ReconcileResult.requeue(), null,
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "requeue", Failure.NONE),
                Arguments.of("requeueAfter", ReconcileResult.requeueAfter(Duration.ofSeconds(7)), null,
                        Step.FORGET_AND_ADD_AFTER, Duration.ofSeconds(7), "requeue_after", Failure.NONE),
                Arguments.of("requeueAfter zero", ReconcileResult.requeueAfter(Duration.ZERO), null,
                        Step.FORGET_AND_ADD_AFTER, Duration.ZERO, "requeue_after", Failure.NONE),
                Arguments.of("an exception", null, new IllegalStateException("not yet"),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.ERROR),
                Arguments.of("a checked exception", null, new java.io.IOException("refused"),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.ERROR),
                Arguments.of("an interrupt", null, new InterruptedException(),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.ERROR),
                Arguments.of("a timeout", null, new TimeoutException("reconcile took longer than PT1S"),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.ERROR),
                Arguments.of("a terminal error", null, new TerminalException("spec.size must be positive"),
                        Step.FORGET, Duration.ZERO, "error", Failure.TERMINAL),
                Arguments.of("a terminal error wrapped by CompletableFuture.join", null,
                        new java.util.concurrent.CompletionException(new TerminalException("spec.size must be positive")),
                        Step.FORGET, Duration.ZERO, "error", Failure.TERMINAL),
                Arguments.of("a terminal error wrapped by Future.get", null,
                        new java.util.concurrent.ExecutionException(new TerminalException("spec.size must be positive")),
                        Step.FORGET, Duration.ZERO, "error", Failure.TERMINAL),
                Arguments.of("a terminal error three wrappers deep", null,
                        new IllegalStateException("reconcile step failed", new java.io.UncheckedIOException(
                                new java.io.IOException("write failed", new TerminalException("forbidden")))),
                        Step.FORGET, Duration.ZERO, "error", Failure.TERMINAL),
                Arguments.of("a terminal error inside an Error", null,
                        new ExceptionInInitializerError(new TerminalException("bad config")),
                        Step.FORGET, Duration.ZERO, "error", Failure.TERMINAL),
                Arguments.of("a cause chain with a cycle and no terminal error", null, cycle(),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.ERROR),
                Arguments.of("an Error", null, new StackOverflowError("deep"),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.PANIC),
                Arguments.of("an AssertionError", null, new AssertionError("bug"),
                        Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.PANIC));
    }

    /** Two exceptions each the other's cause, as a careless wrapper can make them. */
    private static Exception cycle() {
        IllegalStateException outer = new IllegalStateException("outer");
        RuntimeException inner = new RuntimeException("inner", outer);
        outer.initCause(inner);
        return outer;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outcomes")
    void eachWayAReconcileEndsHasOneQueueActionAndOneResultLabel(String outcome, ReconcileResult result,
            Throwable thrown, Step step, Duration delay, String label, Failure failure) {
        assertThat(QueueAction.after(result, thrown)).isEqualTo(new QueueAction(step, delay, label, failure));
    }
}
