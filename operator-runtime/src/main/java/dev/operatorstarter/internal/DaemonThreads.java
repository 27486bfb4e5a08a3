package dev.operatorstarter.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default thread factories of the runtime's options: daemon platform threads, so that a
 * component an application forgot to close does not keep the JVM alive. Components that name each
 * thread by its role rename what the factory makes; the names here are for the others. Not API.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** Daemon threads named {@code prefix-1}, {@code prefix-2}, ... in the order they are made. */
    public static ThreadFactory factory(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> daemon(new Thread(task, prefix + "-" + count.incrementAndGet()));
    }

    /** Daemon threads all named {@code name}. */
    public static ThreadFactory named(String name) {
        return task -> daemon(new Thread(task, name));
    }

    /** Daemon threads with the JVM's default names ({@code Thread-N}), for callers that name each thread they make. */
    public static ThreadFactory unnamed() {
        return task -> daemon(new Thread(task));
    }

    private static Thread daemon(Thread thread) {
        thread.setDaemon(true);
        return thread;
    }
}
