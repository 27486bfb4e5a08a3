/**
 * Reconcilers found by component scanning, for {@code OperatorAutoConfigurationTest}; nothing
 * else lives here, so a scan of this package finds exactly these.
 */
@NullMarked
package dev.operatorstarter.autoconfigure.wiring.scanned;

import org.jspecify.annotations.NullMarked;
