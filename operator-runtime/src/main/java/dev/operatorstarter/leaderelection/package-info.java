/**
 * Leader election on a Lease (client-go's {@code tools/leaderelection}): only one replica acts at
 * a time, judged on each replica's own clock so clock skew between nodes does not matter.
 * {@link dev.operatorstarter.leaderelection.LeaderElector} runs it;
 * {@link dev.operatorstarter.leaderelection.LeaseLock} stores the record. See docs/controllers.md.
 */
@NullMarked
package dev.operatorstarter.leaderelection;

import org.jspecify.annotations.NullMarked;
