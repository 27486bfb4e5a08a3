package dev.operatorstarter.autoconfigure.local;

/**
 * A condition that a local run with {@value LocalKubernetes#EXIT_AFTER_RECONCILE_PROPERTY}{@code =true}
 * waits for as well, beyond every controller's first successful reconcile: for example that the
 * example object the run applied reports {@code Ready=True}. Declare it as a bean of the local
 * run's application; the run ends once every check passes, and a check that has not passed by the
 * deadline is named in the failure's log.
 *
 * <p>Called about every 100 ms from the exit check's thread: read caches, do not call the API server.
 */
public interface LocalRunCheck {

    /** What is awaited, completing "waiting for ...", for example {@code "StaticSite default/hello to be Ready"}. */
    String description();

    /** Whether the condition holds now. */
    boolean passed();
}
