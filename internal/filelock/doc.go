// Package filelock takes an exclusive lock on a file, between processes:
// errtrack commands changing the config file at once, and mock servers
// sharing a state file.
package filelock
