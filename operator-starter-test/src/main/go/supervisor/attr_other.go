//go:build unix && !linux

package main

import "syscall"

// childAttributes puts the child in a process group of its own. Without a parent-death signal
// outside Linux, the child is stopped through the supervisor's stdin and signals only.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
