package dev.operatorstarter.test.faults;

/**
 * The half-open switch: while it is on, connection threads wait at their next step (handshake,
 * forwarding a request, writing a piece of a response) without closing anything.
 */
final class Stall {

    private boolean on;
    private boolean closed;

    synchronized void set(boolean on) {
        this.on = on;
        notifyAll();
    }

    /**
     * Returns at once while the switch is off, else waits until it is.
     *
     * @return {@code false} when the proxy closed (or the thread was interrupted) instead
     */
    synchronized boolean pass() {
        try {
            while (on && !closed) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !closed;
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }
}
