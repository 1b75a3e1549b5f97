//go:build !unix

package main

import "os/exec"

// killedByPipe: only Unix ends a writer to a closed pipe by a signal.
func killedByPipe(*exec.ExitError) bool { return false }
