// Package fanout runs independent reads and writes at once, a few at a time,
// so a workflow makes the fewest round trips its checks allow. Every fan-out
// of the shared layer goes through golang.org/x/sync/errgroup here.
package fanout

import "golang.org/x/sync/errgroup"

// Both runs a and b at once and returns their errors, a's first.
func Both(a, b func() error) (error, error) {
	var ea, eb error
	var g errgroup.Group
	g.Go(func() error { eb = b(); return nil })
	ea = a()
	_ = g.Wait()
	return ea, eb
}

// Together runs fns at once and returns the first one's error.
func Together(first func() error, rest ...func()) error {
	var g errgroup.Group
	for _, f := range rest {
		g.Go(func() error { f(); return nil })
	}
	err := first()
	_ = g.Wait()
	return err
}

// GroupConcurrency is how many projects are read or changed at once: a
// few, so that a group is polite to the server (the client's pacer holds
// them all on a rate limit).
const GroupConcurrency = 3

// ForEach runs f for 0..n-1, GroupConcurrency at a time.
func ForEach(n int, f func(i int)) {
	var g errgroup.Group
	g.SetLimit(GroupConcurrency)
	for i := range n {
		g.Go(func() error { f(i); return nil })
	}
	_ = g.Wait()
}
