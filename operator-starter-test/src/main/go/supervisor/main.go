//go:build unix

// Command supervisor runs one child process for the operator-starter-test local API server and
// guarantees that the child does not outlive the JVM that started it.
//
// Usage: supervisor [-grace DURATION] -- COMMAND [ARG...]
//
// The JVM keeps the supervisor's standard input open for as long as it wants the child to run.
// When that pipe closes (a clean stop, or the JVM dying, even by SIGKILL, since the kernel closes
// its file descriptors), or when the supervisor gets SIGTERM/SIGINT, the supervisor sends SIGTERM to
// the child's process group, waits up to the grace period, then sends SIGKILL.
//
// The supervisor leaves its parent's process group at once, into one of its own: a terminal's
// Ctrl-C (SIGINT to the whole foreground group) then reaches the JVM but not the supervisor, so the
// JVM stops its application first and the server after, by closing the pipe. A signal sent to the
// supervisor itself still stops the child. On Linux the child
// also gets SIGKILL if the supervisor itself is killed (parent-death signal). The supervisor exits
// with the child's exit code, or 128+signal when the child was killed by a signal.
//
// Unix only (Linux and macOS): it relies on process groups and signals.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

func main() {
	grace := flag.Duration("grace", 10*time.Second, "how long the child may take to exit after SIGTERM")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: supervisor [-grace DURATION] -- COMMAND [ARG...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(flag.Args(), *grace))
}

func run(args []string, grace time.Duration) int {
	// Out of the JVM's process group (see the package comment). It fails only when the supervisor
	// leads a group or session already, which then is not the terminal's foreground group anyway.
	_ = syscall.Setpgid(0, 0)

	// The parent-death signal is tied to the thread that forks the child: keep this goroutine
	// on one OS thread so the Go runtime never retires that thread while the child runs.
	runtime.LockOSThread()

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = childAttributes()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "supervisor: cannot start %s: %v\n", args[0], err)
		return 127
	}

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	select {
	case err := <-exited:
		killGroup(cmd.Process.Pid, syscall.SIGKILL) // leftovers the child may have forked
		return exitCode(err)
	case <-stdinClosed:
	case <-signals:
	}

	killGroup(cmd.Process.Pid, syscall.SIGTERM)
	select {
	case err := <-exited:
		killGroup(cmd.Process.Pid, syscall.SIGKILL)
		return exitCode(err)
	case <-time.After(grace):
		fmt.Fprintf(os.Stderr, "supervisor: %s did not exit within %s of SIGTERM; sending SIGKILL\n", args[0], grace)
		killGroup(cmd.Process.Pid, syscall.SIGKILL)
		return exitCode(<-exited)
	}
}

// killGroup signals the child's whole process group (the child leads it: see childAttributes).
func killGroup(pid int, sig syscall.Signal) {
	_ = syscall.Kill(-pid, sig)
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		if status, ok := exitErr.Sys().(syscall.WaitStatus); ok && status.Signaled() {
			return 128 + int(status.Signal())
		}
		return exitErr.ExitCode()
	}
	return 1
}
