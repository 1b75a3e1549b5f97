package mockserver

import (
	"testing"
)

func TestEmptySeed(t *testing.T) {
	_, ts := newTest(t, Options{Seed: "empty"})
	if got := do(t, ts, "GET", "/api/v4/projects", TokenMaintainer); got.status != 200 || got.body != "[]" {
		t.Fatalf("%d %s", got.status, got.body)
	}
	if _, err := New(Options{Seed: "empty", ScaleKeys: 3}); err == nil {
		t.Fatal("scale flags accepted with the empty seed")
	}
	if _, err := New(Options{Seed: "bogus"}); err == nil {
		t.Fatal("unknown seed accepted")
	}
}
