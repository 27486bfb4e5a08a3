// Command kwok is KWOK's controller (sigs.k8s.io/kwok) as the operator-starter-test local API
// server runs it, plus one subcommand that hands the harness what KWOK ships inside its module.
//
// Usage:
//
//	kwok defaults DIR   # writes DIR/stages.yaml and DIR/crds/*.yaml, then exits
//	kwok [FLAG...]      # KWOK's controller, with KWOK's own flags
//
// stages.yaml holds the Stages that kwokctl loads when it is given none: nodes become Ready at
// once and renew a Lease, Pods become Running and Ready at once, Pods owned by a Job complete, and
// deleted Pods lose their finalizers and go. crds/ holds the CustomResourceDefinitions of KWOK's
// Logs, Exec, Attach and PortForward resources (and their Cluster variants), which the harness
// applies before it starts the controller with --enable-crds.
//
// The controller path parses flags exactly as KWOK's own main does, so every KWOK flag works.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"sigs.k8s.io/kwok/kustomize/crd"
	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	nodelease "sigs.k8s.io/kwok/kustomize/stage/node/heartbeat-with-lease"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
	"sigs.k8s.io/kwok/pkg/config"
	"sigs.k8s.io/kwok/pkg/kwok/cmd"
	"sigs.k8s.io/kwok/pkg/log"
	"sigs.k8s.io/kwok/pkg/utils/signals"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "defaults" {
		if len(os.Args) != 3 {
			fmt.Fprintln(os.Stderr, "usage: kwok defaults DIR")
			os.Exit(2)
		}
		if err := writeDefaults(os.Args[2]); err != nil {
			fmt.Fprintf(os.Stderr, "kwok defaults: %v\n", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(runController())
}

// runController starts KWOK's root command the way KWOK's main does: the global flags (logging,
// --config) are parsed first, and the config files they name are loaded before the command runs.
func runController() int {
	global := pflag.NewFlagSet("global", pflag.ContinueOnError)
	global.ParseErrorsAllowlist.UnknownFlags = true
	global.Usage = func() {}

	ctx := signals.SetupSignalContext()
	ctx, logger := log.InitFlags(ctx, global)
	ctx, err := config.InitFlags(ctx, global)
	if err != nil {
		fmt.Fprint(os.Stderr, global.FlagUsages())
		logger.Error("Loading the config files failed", "err", err)
		return 1
	}
	command := cmd.NewCommand(ctx)
	command.PersistentFlags().AddFlagSet(global)
	if err := command.ExecuteContext(ctx); err != nil {
		logger.Error("kwok stopped", "err", err)
		return 1
	}
	return 0
}

// writeDefaults writes the default Stages and the verb CRDs into dir.
func writeDefaults(dir string) error {
	stages := []string{
		nodefast.DefaultNodeInit,
		nodelease.DefaultNodeHeartbeatWithLease,
		podfast.DefaultPodReady,
		podfast.DefaultPodComplete,
		podfast.DefaultPodDelete,
	}
	documents := make([]string, 0, len(stages))
	for _, stage := range stages {
		documents = append(documents, strings.TrimSpace(stage)+"\n")
	}
	if err := os.MkdirAll(filepath.Join(dir, "crds"), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "stages.yaml"), []byte(strings.Join(documents, "---\n")), 0o600); err != nil {
		return err
	}
	crds := map[string][]byte{
		"logs":                crd.Logs,
		"clusterlogs":         crd.ClusterLogs,
		"execs":               crd.Exec,
		"clusterexecs":        crd.ClusterExec,
		"attaches":            crd.Attach,
		"clusterattaches":     crd.ClusterAttach,
		"portforwards":        crd.PortForward,
		"clusterportforwards": crd.ClusterPortForward,
	}
	for name, definition := range crds {
		if err := os.WriteFile(filepath.Join(dir, "crds", name+".yaml"), definition, 0o600); err != nil {
			return err
		}
	}
	return nil
}
