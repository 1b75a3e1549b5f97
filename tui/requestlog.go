package tui

import (
	"sync"

	"github.com/errtrack/errtrack/apiclient"
)

// logSize is how many exchanges the request log keeps.
const logSize = 500

// RequestLog keeps the last exchanges the console's API client made, for
// the request log pane. The client's observer adds to it from request
// goroutines; the console copies it when told it changed.
type RequestLog struct {
	mu      sync.Mutex
	entries []apiclient.Exchange
	total   int
	// OnChange, when set, is called (outside the lock) after each Add: the
	// program uses it to wake the console.
	OnChange func()
}

// Add records an exchange; pass it to apiclient.WithObserver.
func (l *RequestLog) Add(e apiclient.Exchange) {
	l.mu.Lock()
	l.entries = append(l.entries, e)
	if len(l.entries) > logSize {
		l.entries = append(l.entries[:0:0], l.entries[len(l.entries)-logSize:]...)
	}
	l.total++
	notify := l.OnChange
	l.mu.Unlock()
	if notify != nil {
		notify()
	}
}

// snapshot copies the entries, oldest first, and the count ever added.
func (l *RequestLog) snapshot() ([]apiclient.Exchange, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]apiclient.Exchange(nil), l.entries...), l.total
}

// RequestLogged tells the console the request log changed.
type RequestLogged struct{}
