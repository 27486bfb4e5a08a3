/**
 * Fault injection in front of a real API server, for tests of how a client behaves when the server
 * is slow or faulty, and for users' own chaos tests.
 *
 * <p>{@link dev.operatorstarter.test.faults.FaultProxy} is a loopback HTTPS proxy that forwards to
 * a {@link dev.operatorstarter.test.ClusterConnection}'s API server and plays, on request of the
 * test's thread: latency, requests held until released, error responses (429 with
 * {@code Retry-After}, 5xx) without forwarding, watch streams cut in the middle of an event,
 * truncated and malformed bodies, connections that never answer, and dropped connections.
 * {@link dev.operatorstarter.test.faults.Fault} names the request-level faults,
 * {@link dev.operatorstarter.test.faults.RequestMatcher} the requests they apply to, and
 * {@link dev.operatorstarter.test.faults.Injection} is the handle of one that is in place (remove it,
 * release what it holds, count what it matched).
 */
@NullMarked
package dev.operatorstarter.test.faults;

import org.jspecify.annotations.NullMarked;
