/**
 * Handlers without {@code @Reconciler}, for {@code OverlookedReconcilersTest}: one forgotten, one
 * a reconciler's delegate, one a generic wrapper; nothing else lives here.
 */
@NullMarked
package dev.operatorstarter.autoconfigure.wiring.unannotated;

import org.jspecify.annotations.NullMarked;
