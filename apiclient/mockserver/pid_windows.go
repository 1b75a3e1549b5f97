//go:build windows

package mockserver

import "syscall"

// processAlive reports whether pid runs: a process can be opened while it
// lives.
func processAlive(pid int) bool {
	const queryLimitedInformation = 0x1000
	h, err := syscall.OpenProcess(queryLimitedInformation, false, uint32(pid))
	if err != nil {
		return false
	}
	syscall.CloseHandle(h)
	return true
}
