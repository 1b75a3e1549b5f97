package tui

import "sync/atomic"

// Every request carries an id; a loadable keeps the id it waits for and
// drops any other answer, so a slow, stale reply never overwrites newer data.
var lastRequestID atomic.Uint64

func nextRequestID() uint64 { return lastRequestID.Add(1) }

// loadable is one thing loaded from the server: its value, whether one was
// ever loaded, the last error, and the request in flight (0: none). An
// earlier value stays while a reload is in flight or after it failed.
type loadable[T any] struct {
	val T
	has bool
	err error
	req uint64
}

// start begins a load and returns its request id.
func (l *loadable[T]) start() uint64 {
	l.req = nextRequestID()
	return l.req
}

// accept reports whether id answers the load in flight, and ends it.
func (l *loadable[T]) accept(id uint64) bool {
	if id == 0 || id != l.req {
		return false
	}
	l.req = 0
	return true
}

func (l *loadable[T]) set(v T) { l.val, l.has, l.err = v, true, nil }

func (l *loadable[T]) fail(err error) { l.err = err }

func (l *loadable[T]) loading() bool { return l.req != 0 }

// failedEmpty: the load failed and there is nothing earlier to show.
func (l *loadable[T]) failedEmpty() bool { return !l.has && l.err != nil && l.req == 0 }
