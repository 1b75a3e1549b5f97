//go:build !linux

package main

// limitAddressSpace: only Linux enforces RLIMIT_AS; elsewhere the filter
// process is bounded by its heap watch alone.
func limitAddressSpace(uint64) {}
