package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the filter process when errtrack dies,
// however it dies (SIGKILL included); the standard input it watches is the
// same guard on every system, and covers the moment before this is set.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// limitAddressSpace caps the filter process's address space at what it
// holds now plus twice the heap bound: room for the heap, the collector
// and a copy being made, and an allocation past it fails at once (the Go
// runtime then exits "out of memory", which errtrack words as the bound).
// The race detector maps its shadow memory as the heap grows, so a race
// build keeps only the heap watch.
func limitAddressSpace(heap uint64) {
	if raceEnabled {
		return
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return
	}
	var pages uint64
	if _, err := fmt.Sscan(string(b), &pages); err != nil {
		return
	}
	limit := pages*uint64(os.Getpagesize()) + 2*heap
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit})
}
