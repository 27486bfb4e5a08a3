/**
 * Test fixtures for unit tests of reconcilers and of code built on the runtime, shipped as the
 * {@code operator-runtime-testing} artifact, to be added with test scope
 * ({@code docs/testing/fixtures.md}). Not for production code. The runtime's own tests use them too.
 *
 * <ul>
 *   <li>{@link dev.operatorstarter.testing.FakeTimeSource}: a
 *       {@link dev.operatorstarter.time.TimeSource} whose time moves only when the test says so;
 *       pass it as the {@code timeSource} option of any component, and its waits, backoffs,
 *       leases and windows follow the fake time.</li>
 *   <li>{@link dev.operatorstarter.testing.FakeListerWatcher}: a scripted
 *       {@link dev.operatorstarter.cache.ListerWatcher}, the API server of an informer or
 *       reflector under test: answers lists from a function, hands each watch to the test to
 *       emit events into, and records every request.</li>
 *   <li>{@link dev.operatorstarter.testing.InMemoryLeaseLock}: a
 *       {@link dev.operatorstarter.leaderelection.ResourceLock} in memory, with the API server's
 *       compare-and-swap, several candidates on one record, and hooks for failing writes and
 *       slow reads.</li>
 *   <li>{@link dev.operatorstarter.testing.FakeLeadership}: a
 *       {@link dev.operatorstarter.leaderelection.Leadership} term the test makes invalid or ends,
 *       for code that runs only while it leads.</li>
 * </ul>
 */
@NullMarked
package dev.operatorstarter.testing;

import org.jspecify.annotations.NullMarked;
