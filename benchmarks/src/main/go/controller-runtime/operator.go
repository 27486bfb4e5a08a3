package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// operator is the smallest controller-runtime operator: a manager and one controller over the
// ConfigMaps of -namespace. Without -leader-elect it is the start-up run: it prints
// {"scenario":"operator","event":"first-reconcile","unixNanos":..,"sinceStartMillis":..,"cpuMillis":..}
// at its first reconcile and exits. With -leader-elect it is one replica of the failover run and keeps running
// until it is killed, printing "ready" once its cache has synced, "elected" when it becomes the
// leader, and "reconcile" at its first reconcile as the leader, each with -identity and the wall
// clock in unixNanos.
func operator(ctx context.Context, o options) error {
	config, err := restConfig()
	if err != nil {
		return err
	}
	scheme, err := builtInScheme()
	if err != nil {
		return err
	}
	options := ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"},
		Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{o.namespace: {}}}}
	if o.leaderElect {
		if o.identity == "" {
			return fmt.Errorf("-leader-elect needs -identity")
		}
		options.LeaderElection = true
		options.LeaderElectionNamespace = o.namespace
		options.LeaderElectionID = o.leaseName
		options.LeaseDuration = &o.leaseDuration
		options.RenewDeadline = &o.renewDeadline
		options.RetryPeriod = &o.retryPeriod
	}
	mgr, err := ctrl.NewManager(config, options)
	if err != nil {
		return fmt.Errorf("making the manager: %w", err)
	}
	running, stop := context.WithCancel(ctx)
	defer stop()
	var once sync.Once
	event := func(name string) map[string]any {
		return map[string]any{"scenario": "operator", "event": name, "identity": o.identity,
			"unixNanos": time.Now().UnixNano(), "sinceStartMillis": time.Since(processStart).Milliseconds(),
			"cpuMillis": cpuMillis()}
	}
	err = ctrl.NewControllerManagedBy(mgr).Named("configmap").For(&corev1.ConfigMap{}).Complete(reconcile.Func(
		func(context.Context, reconcile.Request) (reconcile.Result, error) {
			once.Do(func() {
				emit(event("first-reconcile"))
				if !o.leaderElect {
					stop()
				}
			})
			return reconcile.Result{}, nil
		}))
	if err != nil {
		return fmt.Errorf("making the controller: %w", err)
	}
	if o.leaderElect {
		go func() {
			if mgr.GetCache().WaitForCacheSync(running) {
				emit(event("ready"))
			}
		}()
		go func() {
			select {
			case <-mgr.Elected():
				emit(event("elected"))
			case <-running.Done():
			}
		}()
	}
	if err := mgr.Start(running); err != nil {
		fmt.Fprintf(os.Stderr, "manager: %v\n", err)
		return err
	}
	return nil
}

// cpuMillis is the user and system time this process has used, all threads.
func cpuMillis() int64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return -1
	}
	return (usage.Utime.Nano() + usage.Stime.Nano()) / int64(time.Millisecond)
}
