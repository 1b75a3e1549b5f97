package mockserver

import (
	"regexp"
	"testing"
)

func TestPublicKeysAreUniqueAndWellFormed(t *testing.T) {
	s, ts := newTest(t, Options{})
	re := regexp.MustCompile(`^glet_[0-9a-f]{32}$`)
	for i := 0; i < 50; i++ {
		do(t, ts, "POST", keys1, TokenMaintainer)
	}
	seen := map[string]bool{}
	for _, k := range s.Keys(1) {
		if !re.MatchString(k.PublicKey) || seen[k.PublicKey] {
			t.Fatalf("bad or repeated key %q", k.PublicKey)
		}
		seen[k.PublicKey] = true
	}
}
