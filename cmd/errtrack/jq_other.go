//go:build !linux

package main

import "os/exec"

// dieWithParent: no parent-death signal here; the filter process ends when
// its standard input, which errtrack holds open, reaches its end.
func dieWithParent(*exec.Cmd) {}

// limitAddressSpace: only Linux enforces RLIMIT_AS; elsewhere the filter
// process is bounded by its heap watch alone.
func limitAddressSpace(uint64) {}
