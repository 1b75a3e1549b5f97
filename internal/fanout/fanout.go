// Package fanout runs independent reads and writes at once, a few at a time,
// so a workflow makes the fewest round trips its checks allow.
package fanout

import "sync"

// Both runs a and b at once and returns their errors, a's first.
func Both(a, b func() error) (error, error) {
	ch := make(chan error, 1)
	go func() { ch <- b() }()
	ea := a()
	return ea, <-ch
}

// Together runs fns at once and returns the first one's error.
func Together(first func() error, rest ...func()) error {
	done := make(chan struct{}, len(rest))
	for _, f := range rest {
		go func() { f(); done <- struct{}{} }()
	}
	err := first()
	for range rest {
		<-done
	}
	return err
}

// GroupConcurrency is how many projects are read or changed at once: a
// few, so that a group is polite to the server (the client's pacer holds
// them all on a rate limit).
const GroupConcurrency = 3

// ForEach runs f for 0..n-1, GroupConcurrency at a time.
func ForEach(n int, f func(i int)) {
	sem := make(chan struct{}, GroupConcurrency)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}
