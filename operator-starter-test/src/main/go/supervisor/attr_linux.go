package main

import "syscall"

// childAttributes puts the child in a process group of its own and asks the kernel to SIGKILL it
// if the supervisor dies first.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
