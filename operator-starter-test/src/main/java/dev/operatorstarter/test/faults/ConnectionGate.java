package dev.operatorstarter.test.faults;

/**
 * What every step of a proxied connection passes before it forwards anything: the proxy's
 * half-open switch and the connection's own loss; and how the step cuts the connection when the
 * gate says stop.
 */
interface ConnectionGate {

    /** Waits while the proxy is half-open or this connection is lost; {@code false} once it ended. */
    boolean pass();

    /** Cuts the connection abruptly, from any thread. Idempotent. */
    void abort();
}
