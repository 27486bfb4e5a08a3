package dev.operatorstarter.test;

/**
 * A claim on the JVM's shared cluster at JVM exit ({@link KubernetesClusters#holdShared()}): while a
 * hold is open, the cluster's shutdown hook waits before it stops the cluster, so an application
 * that stops on a shutdown hook of its own (a Spring context) finishes its last calls (a leader
 * election's release, removing its webhook configurations) against a server that still serves.
 *
 * <p>Closing a hold never stops the cluster while the JVM goes on: other tests may still use it.
 * Closing the last hold while the JVM exits stops the cluster on the calling thread, before this
 * method returns.
 */
public interface ClusterHold extends AutoCloseable {

    /** Releases the hold; see the interface. Idempotent. */
    @Override
    void close();
}
