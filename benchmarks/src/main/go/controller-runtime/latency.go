package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// pulse is the suite's latency custom resource (ReconcileLatency's CRD, which the suite creates).
var pulse = schema.GroupVersionKind{Group: "benchmarks.operatorstarter.dev", Version: "v1", Kind: "Pulse"}

// latency is the suite's reconcile latency (ReconcileLatency): one update every 20 ms (50 per
// second) over -objects Pulses for -duration, each writing spec.sentAt from this process's
// monotonic clock; the reconcile reads the Pulse from the cache and records how long ago the
// version it sees was sent, each version once. Prints {"scenario":"latency","p50Millis":..,
// "p99Millis":..,"maxMillis":..,"samples":..}.
func latency(ctx context.Context, o options) error {
	config, err := restConfig()
	if err != nil {
		return err
	}
	scheme, err := builtInScheme()
	if err != nil {
		return err
	}
	writer, err := client.New(config, client.Options{Scheme: scheme})
	if err != nil {
		return fmt.Errorf("making the client: %w", err)
	}
	if err := createPulses(ctx, writer, o.namespace, o.objects); err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(config, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"},
		Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{o.namespace: {}}}})
	if err != nil {
		return fmt.Errorf("making the manager: %w", err)
	}
	var mu sync.Mutex
	var samples []time.Duration
	seen := map[types.NamespacedName]int64{}
	reader := mgr.GetClient()
	object := &unstructured.Unstructured{}
	object.SetGroupVersionKind(pulse)
	err = ctrl.NewControllerManagedBy(mgr).Named("pulse").For(object).Complete(reconcile.Func(
		func(ctx context.Context, request reconcile.Request) (reconcile.Result, error) {
			now := time.Since(processStart)
			current := &unstructured.Unstructured{}
			current.SetGroupVersionKind(pulse)
			if err := reader.Get(ctx, request.NamespacedName, current); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			sent, _, _ := unstructured.NestedInt64(current.Object, "spec", "sentAt")
			mu.Lock()
			defer mu.Unlock()
			if sent > 0 && seen[request.NamespacedName] != sent {
				seen[request.NamespacedName] = sent
				samples = append(samples, now-time.Duration(sent))
			}
			return reconcile.Result{}, nil
		}))
	if err != nil {
		return fmt.Errorf("making the controller: %w", err)
	}
	running, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(running) }()
	synced, cancelSync := context.WithTimeout(ctx, time.Minute)
	defer cancelSync()
	if !mgr.GetCache().WaitForCacheSync(synced) {
		return fmt.Errorf("the manager's cache did not sync within a minute")
	}
	ticker := time.NewTicker(20 * time.Millisecond)
	end := time.After(o.duration)
	for next := 0; ; next++ {
		select {
		case <-ticker.C:
		case <-end:
			next = -1
		case <-ctx.Done():
			return ctx.Err()
		}
		if next < 0 {
			break
		}
		patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"sentAt": int64(time.Since(processStart))}})
		target := &unstructured.Unstructured{}
		target.SetGroupVersionKind(pulse)
		target.SetNamespace(o.namespace)
		target.SetName(fmt.Sprintf("pulse-%d", next%o.objects))
		if err := writer.Patch(ctx, target, client.RawPatch(types.MergePatchType, patch)); err != nil {
			fmt.Fprintf(os.Stderr, "patch %s: %v\n", target.GetName(), err)
		}
	}
	ticker.Stop()
	time.Sleep(time.Second) // let the last updates arrive before stopping the controller, as ReconcileLatency does
	stop()
	if err := <-done; err != nil {
		return fmt.Errorf("the manager: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(samples) == 0 {
		return fmt.Errorf("no reconcile saw an update")
	}
	emit(map[string]any{"scenario": "latency", "p50Millis": percentile(samples, 50), "p99Millis": percentile(samples, 99),
		"maxMillis": percentile(samples, 100), "samples": len(samples)})
	return nil
}

func createPulses(ctx context.Context, writer client.Client, namespace string, objects int) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	if err := writer.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", namespace, err)
	}
	for i := 0; i < objects; i++ {
		object := &unstructured.Unstructured{}
		object.SetGroupVersionKind(pulse)
		object.SetNamespace(namespace)
		object.SetName(fmt.Sprintf("pulse-%d", i))
		object.Object["spec"] = map[string]any{"sentAt": int64(0)}
		if err := writer.Create(ctx, object); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %s/%s (is the suite's Pulse CRD installed?): %w", namespace, object.GetName(), err)
		}
	}
	return nil
}

// percentile in milliseconds, nearest rank, as the suite's Stats.percentile takes it.
func percentile(samples []time.Duration, p float64) float64 {
	sorted := append([]time.Duration(nil), samples...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	rank := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	if rank < 0 {
		rank = 0
	}
	return float64(sorted[rank]) / 1e6
}
