package dev.operatorstarter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

    private final Runnable task = () -> { };

    @Test
    void aPrefixedFactoryNumbersItsThreadsFromOneInTheOrderMade() {
        ThreadFactory threads = DaemonThreads.factory("informer");

        assertThat(threads.newThread(task).getName()).isEqualTo("informer-1");
        assertThat(threads.newThread(task).getName()).isEqualTo("informer-2");
        assertThat(DaemonThreads.factory("informer").newThread(task).getName()).isEqualTo("informer-1");
    }

    @Test
    void aNamedFactoryGivesEveryThreadTheSameName() {
        ThreadFactory threads = DaemonThreads.named("event-broadcaster");

        assertThat(threads.newThread(task).getName()).isEqualTo("event-broadcaster");
        assertThat(threads.newThread(task).getName()).isEqualTo("event-broadcaster");
    }

    @Test
    void anUnnamedFactoryLeavesTheJvmsDefaultName() {
        assertThat(DaemonThreads.unnamed().newThread(task).getName()).startsWith("Thread-");
    }

    @Test
    void everyFactoryMakesDaemonThreadsThatAreNotStarted() {
        for (ThreadFactory threads : new ThreadFactory[] {DaemonThreads.factory("a"), DaemonThreads.named("b"),
                DaemonThreads.unnamed()}) {
            Thread thread = threads.newThread(task);
            assertThat(thread.isDaemon()).isTrue();
            assertThat(thread.getState()).isEqualTo(Thread.State.NEW);
        }
    }
}
