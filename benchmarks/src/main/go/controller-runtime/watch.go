package main

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

// watchThroughput is the suite's watch-throughput ceiling (WatchRun): a cache's ConfigMap informer on the
// in-process watch server, counting the adds its handler receives, from the first to the last.
// The server serves ConfigMaps and nothing else, so the cache gets a fixed REST mapping instead of
// discovery. Prints {"scenario":"watch","eventsPerSecond":..,"events":..}.
func watchThroughput(ctx context.Context, o options) error {
	if o.events < 1 {
		return fmt.Errorf("-events must be at least 1, was %d", o.events)
	}
	config, err := restConfig()
	if err != nil {
		return err
	}
	scheme, err := builtInScheme()
	if err != nil {
		return err
	}
	// The watch server answers lists and watches of ConfigMaps only, so no discovery: a fixed REST mapping.
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{corev1.SchemeGroupVersion})
	mapper.Add(corev1.SchemeGroupVersion.WithKind("ConfigMap"), meta.RESTScopeNamespace)
	c, err := cache.New(config, cache.Options{Scheme: scheme, Mapper: mapper,
		DefaultNamespaces: map[string]cache.Config{o.namespace: {}}, DefaultTransform: cache.TransformStripManagedFields()})
	if err != nil {
		return fmt.Errorf("making the cache: %w", err)
	}
	informer, err := c.GetInformer(ctx, &corev1.ConfigMap{})
	if err != nil {
		return fmt.Errorf("the informer: %w", err)
	}
	var first atomic.Int64
	var received atomic.Int64
	all := make(chan struct{})
	want := int64(o.events)
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{AddFunc: func(any) {
		first.CompareAndSwap(0, time.Now().UnixNano())
		if received.Add(1) == want {
			close(all)
		}
	}}); err != nil {
		return fmt.Errorf("adding the handler: %w", err)
	}
	go func() {
		if err := c.Start(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "cache stopped: %v\n", err)
		}
	}()
	select {
	case <-all:
	case <-time.After(5 * time.Minute):
		return fmt.Errorf("received %d of %d events within 5 minutes", received.Load(), o.events)
	case <-ctx.Done():
		return ctx.Err()
	}
	elapsed := time.Duration(time.Now().UnixNano() - first.Load())
	emit(map[string]any{"scenario": "watch", "eventsPerSecond": int64(float64(o.events) / elapsed.Seconds()),
		"events": o.events})
	return nil
}
