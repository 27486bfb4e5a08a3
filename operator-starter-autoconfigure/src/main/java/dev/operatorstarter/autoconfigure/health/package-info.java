/**
 * Actuator health indicators of the operator: {@code informers} (in the readiness group),
 * {@code controllers} (in the liveness group) and {@code leaderElection} (details only).
 */
@NullMarked
package dev.operatorstarter.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
