package projectscope_test

import (
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/projectscope"
)

func TestValidVariableName(t *testing.T) {
	for s, want := range map[string]bool{"SENTRY_DSN": true, "a": true, "_1": true, strings.Repeat("A", 255): true,
		"": false, strings.Repeat("A", 256): false, "A-B": false, "A B": false, "É": false, "A\n": false} {
		if projectscope.ValidVariableName(s) != want {
			t.Errorf("%q: %v", s, !want)
		}
	}
}
