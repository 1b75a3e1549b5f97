//go:build !unix && !windows

package mockserver

// processAlive cannot tell here, so it says yes: a temporary file left
// behind is only litter, while removing a live writer's loses its writes.
func processAlive(int) bool { return true }
