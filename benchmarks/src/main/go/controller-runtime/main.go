// Command controller-runtime-bench runs controller-runtime as a subject of the benchmark suite:
// one scenario per invocation, against the API server and namespace the suite names. Results go
// to standard output as JSON lines, one object per line, each with a "scenario" field; everything
// else (logs, errors) goes to standard error. The suite (dev.operatorstarter.benchmarks) builds it
// with go build and parses the lines (ControllerRuntimeResult).
//
// Scenarios (-scenario):
//
//	informer  the scale curve: one cache over -namespace, time to synced and the heap it retains
//	watch     the watch-throughput ceiling against the suite's in-process watch server
//	latency   update-to-reconcile latency on the real API server
//	operator  a minimal manager and controller: start-up to its first reconcile, or, with
//	          -leader-elect, one replica of the failover run
//	priority  the priority queue's restart (PriorityRestart's two scenarios), in memory
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	apiruntime "k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// processStart is as close to the launch as the program can note it: package variables are
// initialised before main runs.
var processStart = time.Now()

type options struct {
	scenario      string
	kubeconfig    string
	namespace     string
	kind          string
	projection    string
	transform     string
	events        int
	duration      time.Duration
	objects       int
	identity      string
	leaseName     string
	leaderElect   bool
	leaseDuration time.Duration
	renewDeadline time.Duration
	retryPeriod   time.Duration
	queue         string
	mode          string
}

func main() {
	var o options
	flag.StringVar(&o.scenario, "scenario", "", "informer, watch, latency or operator")
	flag.StringVar(&o.namespace, "namespace", "", "the namespace to work in (required)")
	flag.StringVar(&o.kind, "kind", "configmaps", "informer: configmaps or pods")
	flag.StringVar(&o.projection, "projection", "full", "informer: full or metadata")
	flag.StringVar(&o.transform, "transform", "strip", "informer: strip (cache.TransformStripManagedFields) or none")
	flag.IntVar(&o.events, "events", 0, "watch: how many ADDED events the server sends")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "latency: how long to send updates")
	flag.IntVar(&o.objects, "objects", 50, "latency: how many objects the updates go round")
	flag.StringVar(&o.identity, "identity", "", "operator: this replica's leader-election identity")
	flag.StringVar(&o.leaseName, "lease", "controller-runtime-bench", "operator: the Lease's name, in -namespace")
	flag.BoolVar(&o.leaderElect, "leader-elect", false, "operator: elect a leader before reconciling")
	flag.DurationVar(&o.leaseDuration, "lease-duration", 15*time.Second, "operator: the lease duration")
	flag.DurationVar(&o.renewDeadline, "renew-deadline", 10*time.Second, "operator: the renew deadline")
	flag.DurationVar(&o.retryPeriod, "retry-period", 2*time.Second, "operator: the retry period")
	flag.StringVar(&o.queue, "queue", "priority", "priority: priority (the default queue) or fifo")
	flag.StringVar(&o.mode, "mode", "latency", "priority: latency or saturation")
	// -kubeconfig is controller-runtime's own flag (pkg/client/config registers it).
	flag.Parse()
	if kubeconfig := flag.Lookup("kubeconfig"); kubeconfig != nil {
		o.kubeconfig = kubeconfig.Value.String()
	}
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "controller-runtime-bench -scenario=%s: %v\n", o.scenario, err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.scenario != "priority" && (o.kubeconfig == "" || o.namespace == "") {
		return fmt.Errorf("-kubeconfig and -namespace are required")
	}
	// klog and controller-runtime's logger write to standard error only; standard output is for results.
	klog.SetOutput(os.Stderr)
	log.SetLogger(klog.NewKlogr())
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	switch o.scenario {
	case "informer":
		return informer(ctx, o)
	case "watch":
		return watchThroughput(ctx, o)
	case "latency":
		return latency(ctx, o)
	case "operator":
		return operator(ctx, o)
	case "priority":
		return priority(ctx, o)
	default:
		return fmt.Errorf("unknown -scenario %q (informer, watch, latency, operator, priority)", o.scenario)
	}
}

// restConfig is the configuration an operator gets from ctrl.GetConfig: the kubeconfig named by
// -kubeconfig, and controller-runtime's defaults (no client-side rate limit; the server's priority
// and fairness limits the requests).
func restConfig() (*rest.Config, error) {
	config, err := ctrl.GetConfig()
	if err != nil {
		return nil, fmt.Errorf("reading kubeconfig %s: %w", flag.Lookup("kubeconfig").Value, err)
	}
	return config, nil
}

// builtInScheme is a scheme of the built-in API types, as every scenario's client and cache use.
func builtInScheme() (*apiruntime.Scheme, error) {
	scheme := apiruntime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	return scheme, nil
}

// emit writes one result line.
func emit(result map[string]any) {
	line, err := json.Marshal(result)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(os.Stdout, string(line))
}

// heapAfterGC is HeapAlloc after two full collections, as the first measurement took it.
func heapAfterGC() uint64 {
	var stats runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&stats)
	return stats.HeapAlloc
}
