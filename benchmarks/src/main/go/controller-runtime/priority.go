package main

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// The priority-queue restart, as the Java side's PriorityRestart runs it (issue 38, part 2), with
// the same constants: an informer fed from memory (no API server), so that only the work queue's
// order differs.
const (
	priorityListed          = 10_000
	priorityWorkers         = 2
	priorityReconcile       = time.Millisecond
	priorityUpdateEvery     = 20 * time.Millisecond
	priorityFreshPerMilli   = 3
	prioritySaturationLimit = 120 * time.Second
)

// priority runs one restart of a controller whose informer lists priorityListed ConfigMaps:
// -queue=priority (controller-runtime's default) or fifo, -mode=latency (an update every 20 ms of a
// random listed object not yet reconciled; each update's latency from its watch event to the start
// of the first reconcile that sees it, until the initial list is reconciled) or saturation
// (priorityFreshPerMilli new objects every millisecond; the time until the last listed object is
// reconciled, or how many are left after prioritySaturationLimit). Prints {"scenario":"priority",
// "queue":..,"mode":..,"updates":..,"p50Millis":..,"p99Millis":..,"maxMillis":..,
// "p99ReconcilingMillis":.. (of the updates emitted once the first reconcile had started),
// "firstReconcileMillis":..,"listDoneSeconds":..,"listLeft":..}.
func priority(ctx context.Context, o options) error {
	if o.queue != "priority" && o.queue != "fifo" {
		return fmt.Errorf("-queue: priority or fifo, was %q", o.queue)
	}
	if o.mode != "latency" && o.mode != "saturation" {
		return fmt.Errorf("-mode: latency or saturation, was %q", o.mode)
	}
	listed := make([]corev1.ConfigMap, priorityListed)
	for i := range listed {
		listed[i] = priorityConfigMap("listed-"+strconv.Itoa(i), "1")
	}
	events := watch.NewFakeWithChanSize(1<<16, false)
	var version atomic.Int64
	version.Store(1)
	lw := &toolscache.ListWatch{
		ListFunc: func(metav1.ListOptions) (runtime.Object, error) {
			return &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: listed}, nil
		},
		WatchFunc: func(options metav1.ListOptions) (watch.Interface, error) {
			if options.SendInitialEvents != nil && *options.SendInitialEvents {
				// refused, as by a server without streaming lists: the reflector lists, as PriorityRestart's does
				return nil, fmt.Errorf("streaming lists are not served here")
			}
			return events, nil
		},
	}
	informer := toolscache.NewSharedIndexInformer(lw, &corev1.ConfigMap{}, 0, toolscache.Indexers{})
	running, stop := context.WithCancel(ctx)
	defer stop()
	go informer.RunWithContext(running)
	synced, cancelSync := context.WithTimeout(running, time.Minute)
	defer cancelSync()
	if !toolscache.WaitForCacheSync(synced.Done(), informer.HasSynced) {
		return fmt.Errorf("the in-memory informer did not sync within a minute")
	}

	var mu sync.Mutex
	listLeft := make(map[string]bool, priorityListed)
	for _, object := range listed {
		listLeft[object.Name] = true
	}
	type update struct {
		emitted time.Time
		version int64
	}
	updated := map[string]update{}
	var latencies []float64
	var reconciling []float64 // of the updates emitted once the first reconcile had started
	var firstReconcile time.Time
	var listDone time.Time
	trace := newPriorityTrace()
	usePriorityQueue := o.queue == "priority"
	skip := true
	c, err := controller.NewUnmanaged("restart", controller.Options{MaxConcurrentReconciles: priorityWorkers,
		UsePriorityQueue: &usePriorityQueue, SkipNameValidation: &skip,
		Reconciler: reconcile.Func(func(_ context.Context, request reconcile.Request) (reconcile.Result, error) {
			now := time.Now()
			defer trace.reconcile(now)
			mu.Lock()
			if firstReconcile.IsZero() {
				firstReconcile = now
			}
			mu.Unlock()
			cached := int64(0)
			if object, exists, _ := informer.GetIndexer().GetByKey(request.String()); exists {
				cached, _ = strconv.ParseInt(object.(*corev1.ConfigMap).ResourceVersion, 10, 64)
			}
			mu.Lock()
			if u, ok := updated[request.Name]; ok && cached >= u.version {
				delete(updated, request.Name)
				latencies = append(latencies, float64(now.Sub(u.emitted))/1e6) // the first reconcile that sees it
				if !u.emitted.Before(firstReconcile) {
					reconciling = append(reconciling, float64(now.Sub(u.emitted))/1e6)
				}
				trace.update(request.Name, u.emitted, now)
			}
			mu.Unlock()
			time.Sleep(priorityReconcile)
			mu.Lock()
			if listLeft[request.Name] {
				delete(listLeft, request.Name)
				if len(listLeft) == 0 {
					listDone = time.Now()
				}
			}
			mu.Unlock()
			return reconcile.Result{}, nil
		})})
	if err != nil {
		return fmt.Errorf("making the controller: %w", err)
	}
	var enqueue handler.EventHandler = &handler.EnqueueRequestForObject{}
	if trace != nil {
		enqueue = tracingHandler{EventHandler: enqueue, trace: trace}
	}
	// source.Kind, as the builder's For and Watches make it: the workers start once the handler has
	// been told the whole initial list (source.Informer does not wait for that; ours does).
	if err := c.Watch(source.Kind[client.Object](&informerCache{informer: informer}, &corev1.ConfigMap{},
		enqueue)); err != nil {
		return fmt.Errorf("watching: %w", err)
	}
	start := time.Now()
	trace.begin(start)
	go func() { _ = c.Start(running) }()
	send := func(eventType watch.EventType, name string) int64 {
		next := version.Add(1)
		object := priorityConfigMap(name, strconv.FormatInt(next, 10))
		events.Action(eventType, &object)
		return next
	}
	go func() {
		random := rand.New(rand.NewSource(7))
		period := priorityUpdateEvery
		if o.mode == "saturation" {
			period = time.Millisecond
		}
		// Not a time.Ticker: the Go runtime's timers fire only when it wakes from epoll_wait, whose
		// timeout is in whole milliseconds, and the reconciles' 1 ms sleeps are such timers too, so a
		// ticker's event would come out just as a worker's sleep ends, the moment it asks for its
		// next item. A sleep in the kernel (as the JVM's scheduled executor parks) emits at any phase
		// of the workers' cycles.
		next := time.Now()
		var fresh int
		for {
			next = next.Add(period)
			sleepUntil(next)
			if running.Err() != nil {
				return
			}
			if o.mode == "saturation" {
				for i := 0; i < priorityFreshPerMilli; i++ {
					fresh++
					send(watch.Added, "fresh-"+strconv.Itoa(fresh))
				}
				continue
			}
			// A random listed object not reconciled yet, drawn from the fixed list until one is still
			// left: the lock the reconciles take is held for a few lookups, not for a copy and a sort of
			// the whole list, which would hold the workers back right before each update.
			mu.Lock()
			var name string
			if len(listLeft) > 1 {
				for name == "" || !listLeft[name] {
					name = listed[random.Intn(len(listed))].Name
				}
			}
			_, pending := updated[name]
			if name != "" && !pending {
				updated[name] = update{emitted: time.Now(), version: version.Load() + 1}
			}
			mu.Unlock()
			if name != "" && !pending {
				send(watch.Modified, name)
			}
		}
	}()
	limit := start.Add(prioritySaturationLimit)
	for {
		mu.Lock()
		left := len(listLeft)
		mu.Unlock()
		if left == 0 || time.Now().After(limit) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	result := map[string]any{"scenario": "priority", "queue": o.queue, "mode": o.mode, "listLeft": len(listLeft),
		"listed": priorityListed, "workers": priorityWorkers, "updates": len(latencies)}
	if len(listLeft) == 0 {
		result["listDoneSeconds"] = listDone.Sub(start).Seconds()
	}
	if !firstReconcile.IsZero() {
		result["firstReconcileMillis"] = float64(firstReconcile.Sub(start)) / 1e6
	}
	if len(reconciling) > 0 {
		result["p99ReconcilingMillis"] = nearestRank(reconciling, 99)
	}
	if len(latencies) > 0 {
		result["p50Millis"] = nearestRank(latencies, 50)
		result["p99Millis"] = nearestRank(latencies, 99)
		result["maxMillis"] = nearestRank(latencies, 100)
	}
	emit(result)
	return trace.write()
}

// sleepUntil sleeps in the nanosleep system call, outside the Go runtime's timers, until deadline.
func sleepUntil(deadline time.Time) {
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		request := syscall.NsecToTimespec(left.Nanoseconds())
		_ = syscall.Nanosleep(&request, nil) // EINTR: the loop sleeps for what is left
	}
}

// informerCache is the cache source.Kind asks for the informer: only GetInformer and
// WaitForCacheSync are called.
type informerCache struct {
	cache.Cache
	informer toolscache.SharedIndexInformer
}

func (c *informerCache) GetInformer(context.Context, client.Object, ...cache.InformerGetOption) (cache.Informer, error) {
	return c.informer, nil
}

func (c *informerCache) WaitForCacheSync(ctx context.Context) bool {
	return toolscache.WaitForCacheSync(ctx.Done(), c.informer.HasSynced)
}

func priorityConfigMap(name, version string) corev1.ConfigMap {
	return corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: name, ResourceVersion: version}}
}

func nearestRank(values []float64, p float64) float64 {
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	rank := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(len(sorted)-1, rank))]
}
