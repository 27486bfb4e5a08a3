package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// priorityTrace records, when PRIORITY_TRACE names a file, each reconcile's start and end and each
// update's emission, its arrival in the event handler, and the start of the reconcile that saw it,
// in nanoseconds from the start, for the priority scenario's analysis. Nil (recording nothing)
// otherwise.
type priorityTrace struct {
	path       string
	mu         sync.Mutex
	start      time.Time
	reconciles [][2]int64
	handled    map[string]int64
	lines      []string
}

func newPriorityTrace() *priorityTrace {
	path := os.Getenv("PRIORITY_TRACE")
	if path == "" {
		return nil
	}
	return &priorityTrace{path: path, handled: map[string]int64{}}
}

func (t *priorityTrace) begin(start time.Time) {
	if t != nil {
		t.start = start
	}
}

func (t *priorityTrace) reconcile(started time.Time) {
	if t == nil {
		return
	}
	end := time.Now()
	t.mu.Lock()
	t.reconciles = append(t.reconciles, [2]int64{started.Sub(t.start).Nanoseconds(), end.Sub(t.start).Nanoseconds()})
	t.mu.Unlock()
}

func (t *priorityTrace) handle(name string) {
	if t == nil {
		return
	}
	now := time.Now()
	t.mu.Lock()
	t.handled[name] = now.Sub(t.start).Nanoseconds()
	t.mu.Unlock()
}

func (t *priorityTrace) update(name string, emitted, started time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.lines = append(t.lines, fmt.Sprintf("U %s %d %d %d", name, emitted.Sub(t.start).Nanoseconds(), t.handled[name],
		started.Sub(t.start).Nanoseconds()))
	t.mu.Unlock()
}

func (t *priorityTrace) write() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	file, err := os.Create(t.path)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(file)
	for _, r := range t.reconciles {
		fmt.Fprintf(out, "R %d %d\n", r[0], r[1])
	}
	for _, line := range t.lines {
		fmt.Fprintln(out, line)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	return file.Close()
}

// tracingHandler notes when an update reaches the controller's event handler (after the
// informer's cache has it), then hands it on.
type tracingHandler struct {
	handler.EventHandler
	trace *priorityTrace
}

func (h tracingHandler) Update(ctx context.Context, e event.UpdateEvent,
	q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if cm, ok := e.ObjectNew.(*corev1.ConfigMap); ok && cm.ResourceVersion != "1" {
		h.trace.handle(cm.Name)
	}
	h.EventHandler.Update(ctx, e, q)
}
