/**
 * Test fixtures for unit tests of reconcilers and of this runtime, shipped as the
 * {@code operator-runtime} artifact with classifier {@code test-fixtures}: a fake
 * {@link dev.operatorstarter.time.TimeSource}. Not for production code.
 */
@NullMarked
package dev.operatorstarter.testing;

import org.jspecify.annotations.NullMarked;
