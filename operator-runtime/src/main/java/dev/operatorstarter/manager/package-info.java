/**
 * The manager (controller-runtime's {@code pkg/manager}): runs the informers, leader election,
 * the event broadcaster and the controllers of an operator in order, and stops them in reverse.
 * Depends on every other package; nothing depends on it.
 */
@NullMarked
package dev.operatorstarter.manager;

import org.jspecify.annotations.NullMarked;
