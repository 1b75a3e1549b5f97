package tui

import (
	"sync"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// logSize is how many exchanges the request log keeps.
const logSize = 500

// logWake is how often at most the request log wakes the console. Bubble
// Tea draws a frame after every message: a plan of 5,000 projects makes
// 10,000 requests, and a wake for each drew the whole screen 10,000 times.
const logWake = 50 * time.Millisecond

// RequestLog keeps the last exchanges the console's API client made, for
// the request log pane. The client's observer adds to it from request
// goroutines; the console copies it when told it changed.
type RequestLog struct {
	mu      sync.Mutex
	entries []apiclient.Exchange
	total   int
	waking  bool // a wake is due: the exchanges added meanwhile ride on it
	// OnChange, when set, is called (outside the lock) after an Add, once
	// per logWake however many were added: the program uses it to wake the
	// console.
	OnChange func()
}

// Add records an exchange; pass it to apiclient.WithObserver.
func (l *RequestLog) Add(e apiclient.Exchange) {
	l.mu.Lock()
	l.entries = append(l.entries, e)
	// Cut back to logSize only when twice as many were kept: copying 500
	// entries on every request cost more than the request's own reading.
	if len(l.entries) >= 2*logSize {
		l.entries = append(l.entries[:0], l.entries[len(l.entries)-logSize:]...)
	}
	l.total++
	wake := l.OnChange != nil && !l.waking
	l.waking = l.waking || wake
	l.mu.Unlock()
	if wake {
		time.AfterFunc(logWake, l.wake)
	}
}

// wake tells the console; an Add after this point schedules the next.
func (l *RequestLog) wake() {
	l.mu.Lock()
	l.waking = false
	notify := l.OnChange
	l.mu.Unlock()
	notify()
}

// snapshot copies the last logSize entries, oldest first, and the count
// ever added.
func (l *RequestLog) snapshot() ([]apiclient.Exchange, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.entries[max(len(l.entries)-logSize, 0):]
	return append([]apiclient.Exchange(nil), kept...), l.total
}

// RequestLogged tells the console the request log changed.
type RequestLogged struct{}
