/**
 * A Pod's streaming subresources (client-go's {@code GetLogs}, {@code tools/remotecommand} and
 * {@code tools/portforward}): {@link dev.operatorstarter.client.pod.PodStreams} reads a container's
 * log as lines with backpressure, runs a command in a container or attaches to it over a WebSocket
 * ({@code v5.channel.k8s.io}, else {@code v4.channel.k8s.io}) with stdin, stdout, stderr, resize and
 * the exit code, and forwards a port to a local socket or a stream pair.
 */
@NullMarked
package dev.operatorstarter.client.pod;

import org.jspecify.annotations.NullMarked;
