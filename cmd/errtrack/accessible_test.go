package main

import "testing"

func TestAccessibleEnv(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "FALSE": false, "1": true, "true": true, "yes": true} {
		if got := accessibleEnv(v); got != want {
			t.Errorf("ACCESSIBLE=%q: accessible=%v, want %v", v, got, want)
		}
	}
}
