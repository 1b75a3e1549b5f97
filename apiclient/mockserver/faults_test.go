package mockserver

import (
	"testing"
)

func TestFailRate(t *testing.T) {
	_, ts := newTest(t, Options{FailRate: 1, FailSeed: 7})
	seen := map[int]bool{}
	for i := 0; i < 40; i++ {
		got := do(t, ts, "GET", settings1, TokenMaintainer)
		seen[got.status] = true
		if got.status == 429 && got.header.Get("Retry-After") != "1" {
			t.Error("429 without Retry-After")
		}
	}
	for _, code := range []int{500, 502, 503, 429} {
		if !seen[code] {
			t.Errorf("fault %d never injected", code)
		}
	}
}
