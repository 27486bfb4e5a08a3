/**
 * Informers: a local, indexed cache of Kubernetes objects kept up to date by list and watch
 * (client-go's {@code tools/cache}). Data flows {@link dev.operatorstarter.cache.ListerWatcher} &rarr;
 * {@code Reflector} &rarr; {@code DeltaFifo} &rarr; {@link dev.operatorstarter.cache.SharedIndexInformer}
 * (the reflector and the FIFO are package-private steps inside it; it applies deltas to an
 * {@link dev.operatorstarter.cache.Indexer} and notifies
 * {@link dev.operatorstarter.cache.ResourceEventHandler}s) &rarr; {@link dev.operatorstarter.cache.Lister}.
 * {@link dev.operatorstarter.cache.SharedInformerFactory} makes and shares informers.
 * {@link dev.operatorstarter.cache.ObjectReader} reads any type through them where they hold the
 * answer, and from the API server otherwise. The guide is {@code docs/informers.md}.
 */
@NullMarked
package dev.operatorstarter.cache;

import org.jspecify.annotations.NullMarked;
