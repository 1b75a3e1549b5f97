package workflow

import (
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/sentry"
)

func TestParseRateLimit(t *testing.T) {
	good := map[string]*sentry.RateLimit{
		"1000/3600": {Count: 1000, Window: 3600}, "100/60s": {Count: 100, Window: 60}, " 5/86400 ": {Count: 5, Window: 86400},
	}
	for in, want := range good {
		rl, clear, err := ParseRateLimit(in)
		if err != nil || clear || rl == nil || *rl != *want {
			t.Errorf("ParseRateLimit(%q) = %v, %v, %v", in, rl, clear, err)
		}
	}
	for _, in := range []string{"none", "0"} {
		if rl, clear, err := ParseRateLimit(in); err != nil || !clear || rl != nil {
			t.Errorf("ParseRateLimit(%q) = %v, %v, %v", in, rl, clear, err)
		}
	}
	for _, in := range []string{"", "1000", "1000/", "/60", "0/60", "10/0", "10/86401", "-1/60", "a/b", "10/60/2", "1e3/60"} {
		if _, _, err := ParseRateLimit(in); err == nil || !strings.Contains(err.Error(), "COUNT/WINDOW") {
			t.Errorf("ParseRateLimit(%q): %v, want an error saying COUNT/WINDOW", in, err)
		}
	}
}

// Whatever is typed, the parser answers a limit Sentry takes, none, or an
// error that quotes the input cleaned.
func FuzzParseRateLimit(f *testing.F) {
	for _, s := range []string{"1000/3600", "none", "0", "100/60s", "\x1b[2J/1", "9999999999999999999/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rl, clear, err := ParseRateLimit(s)
		switch {
		case err != nil:
			if rl != nil || clear || strings.ContainsAny(err.Error(), "\x1b\x07") {
				t.Fatalf("%q: %v %v %q", s, rl, clear, err)
			}
		case clear:
			if rl != nil {
				t.Fatalf("%q: clear with a limit", s)
			}
		case rl == nil || rl.Count <= 0 || rl.Window <= 0 || rl.Window > sentry.MaxRateLimitWindow:
			t.Fatalf("%q: %v", s, rl)
		}
	})
}
