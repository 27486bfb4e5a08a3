package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// informer measures one cache over one namespace as the suite's InformerRun does: the time from
// before the cache is made until it has synced, then the heap it retains (HeapAlloc after
// runtime.GC(), minus the same before the cache was made), then a second cache's sync in the same
// process (warm). Prints {"scenario":"informer","syncMillis":..,"retainedBytes":..,"objects":..,
// "warmSyncMillis":..,"rssBytes":..}.
func informer(ctx context.Context, o options) error {
	object, list, err := informerTypes(o.kind, o.projection)
	if err != nil {
		return err
	}
	var transform bool
	switch o.transform {
	case "strip":
		transform = true
	case "none":
	default:
		return fmt.Errorf("-transform: strip or none, was %q", o.transform)
	}
	config, err := restConfig()
	if err != nil {
		return err
	}
	baseline := heapAfterGC()
	started := time.Now()
	first, err := syncedCache(ctx, config, o.namespace, object, transform)
	if err != nil {
		return err
	}
	syncMillis := time.Since(started).Milliseconds()
	retained := int64(heapAfterGC()) - int64(baseline)
	rss := residentBytes()
	objects, err := count(ctx, first, list, o.namespace)
	if err != nil {
		return err
	}
	again := time.Now()
	second, err := syncedCache(ctx, config, o.namespace, object, transform)
	if err != nil {
		return err
	}
	warmMillis := time.Since(again).Milliseconds()
	if warm, err := count(ctx, second, list, o.namespace); err != nil || warm != objects {
		return fmt.Errorf("the second cache holds %d objects, the first %d (%v)", warm, objects, err)
	}
	emit(map[string]any{"scenario": "informer", "syncMillis": syncMillis, "retainedBytes": retained,
		"objects": objects, "warmSyncMillis": warmMillis, "rssBytes": rss})
	return nil
}

// informerTypes is the object the cache informs on and the list that counts it: a typed object, or
// for metadata only a PartialObjectMetadata of its kind (controller-runtime's metadata informer).
func informerTypes(kind, projection string) (client.Object, client.ObjectList, error) {
	var gvk schema.GroupVersionKind
	var object client.Object
	var list client.ObjectList
	switch kind {
	case "configmaps":
		gvk, object, list = corev1.SchemeGroupVersion.WithKind("ConfigMap"), &corev1.ConfigMap{}, &corev1.ConfigMapList{}
	case "pods":
		gvk, object, list = corev1.SchemeGroupVersion.WithKind("Pod"), &corev1.Pod{}, &corev1.PodList{}
	default:
		return nil, nil, fmt.Errorf("-kind: configmaps or pods, was %q", kind)
	}
	switch projection {
	case "full":
		return object, list, nil
	case "metadata":
		metadata := &metav1.PartialObjectMetadata{}
		metadata.SetGroupVersionKind(gvk)
		metadataList := &metav1.PartialObjectMetadataList{}
		metadataList.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		return metadata, metadataList, nil
	default:
		return nil, nil, fmt.Errorf("-projection: full or metadata, was %q", projection)
	}
}

// syncedCache makes a cache of one namespace, starts it, and returns once its informer for object
// has synced (within 5 minutes). It polls the informer every millisecond, as the suite's InformerRun
// polls the Java informers: the cache's own WaitForCacheSync polls every 100 ms, which would round
// every sync time up to the next tenth of a second.
func syncedCache(ctx context.Context, config *rest.Config, namespace string, object client.Object,
	transform bool) (cache.Cache, error) {
	scheme, err := builtInScheme()
	if err != nil {
		return nil, err
	}
	options := cache.Options{Scheme: scheme, DefaultNamespaces: map[string]cache.Config{namespace: {}}}
	if transform {
		options.DefaultTransform = cache.TransformStripManagedFields()
	}
	c, err := cache.New(config, options)
	if err != nil {
		return nil, fmt.Errorf("making the cache: %w", err)
	}
	deadline, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	informer, err := c.GetInformer(deadline, object)
	if err != nil {
		return nil, fmt.Errorf("the informer: %w", err)
	}
	go func() {
		if err := c.Start(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "cache stopped: %v\n", err)
		}
	}()
	for !informer.HasSynced() {
		select {
		case <-deadline.Done():
			return nil, fmt.Errorf("the cache did not sync within 5 minutes")
		case <-time.After(time.Millisecond):
		}
	}
	return c, nil
}

func count(ctx context.Context, c cache.Cache, list client.ObjectList, namespace string) (int, error) {
	fresh := list.DeepCopyObject().(client.ObjectList)
	if err := c.List(ctx, fresh, client.InNamespace(namespace), client.UnsafeDisableDeepCopy); err != nil {
		return 0, fmt.Errorf("listing the cache: %w", err)
	}
	switch typed := fresh.(type) {
	case *corev1.ConfigMapList:
		return len(typed.Items), nil
	case *corev1.PodList:
		return len(typed.Items), nil
	case *metav1.PartialObjectMetadataList:
		return len(typed.Items), nil
	}
	return 0, fmt.Errorf("unexpected list %T", fresh)
}

// residentBytes is the process's resident set size (VmRSS), or -1 where /proc does not tell it.
func residentBytes() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kib * 1024
			}
		}
	}
	return -1
}
