//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// killedByPipe: the filter process wrote to a closed standard output.
func killedByPipe(e *exec.ExitError) bool {
	ws, ok := e.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGPIPE
}
