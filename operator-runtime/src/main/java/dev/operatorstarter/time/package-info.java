/**
 * The runtime's one time abstraction, {@link dev.operatorstarter.time.TimeSource}: monotonic
 * nanoseconds, wall time and waiting until a deadline. Depends on nothing; every other package
 * may use it.
 */
@NullMarked
package dev.operatorstarter.time;

import org.jspecify.annotations.NullMarked;
