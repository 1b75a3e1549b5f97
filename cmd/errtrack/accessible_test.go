package main

import (
	"testing"
	"time"
)

func TestAccessibleEnv(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "FALSE": false, "1": true, "true": true, "yes": true} {
		if got := accessibleEnv(v); got != want {
			t.Errorf("ACCESSIBLE=%q: accessible=%v, want %v", v, got, want)
		}
	}
}

// The requests in flight when a rate limit hits all wait for one reset:
// it is said once, and again only for a wait that ends later.
func TestPauseSaidOnce(t *testing.T) {
	t.Parallel()
	a := newApp()
	if !a.newPause(40*time.Second) || a.newPause(40*time.Second) || a.newPause(39*time.Second) {
		t.Fatal("the same wait was said twice")
	}
	if !a.newPause(90 * time.Second) {
		t.Fatal("a longer wait was not said")
	}
}
