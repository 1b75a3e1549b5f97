package keystore

import (
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
)

func TestParseRateLimit(t *testing.T) {
	good := map[string]*sentry.RateLimit{
		"1000/3600": {Count: 1000, Window: 3600}, "100/60s": {Count: 100, Window: 60}, " 5/86400 ": {Count: 5, Window: 86400},
		// a bare unit, as the help names them, is one of it
		"50/min": {Count: 50, Window: 60}, "50/1min": {Count: 50, Window: 60}, "1000/h": {Count: 1000, Window: 3600}, "5/d": {Count: 5, Window: 86400},
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
	for _, in := range []string{"", "1000", "1000/", "/60", "0/60", "10/0", "10/86401", "-1/60", "a/b", "10/60/2", "1e3/60", "10/mins", "10/m"} {
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

// What RateLimitText writes, the parser reads back: the console offers a
// key's limit as it shows it.
func TestRateLimitTextReadsBack(t *testing.T) {
	for _, w := range []int{1, 59, 60, 90, 3600, 5400, 86400} {
		in := apiclient.KeyRateLimit{Count: 7, Window: w}
		rl, _, err := ParseRateLimit(RateLimitText(&in))
		if err != nil || rl.Count != 7 || rl.Window != w {
			t.Errorf("%q read as %v, %v", RateLimitText(&in), rl, err)
		}
	}
	for _, in := range []string{"10/2d", "10/1441min", "10/25h"} {
		if _, _, err := ParseRateLimit(in); err == nil {
			t.Errorf("%q: a window over a day taken", in)
		}
	}
}

func TestNewKeyName(t *testing.T) {
	day := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	for old, want := range map[string]string{
		"": "errtrack 2026-11-28", "Production": "Production 2026-11-28", "Production 2026-05-01": "Production 2026-11-28",
		strings.Repeat("é", 70): strings.Repeat("é", MaxKeyName-11) + " 2026-11-28",
	} {
		if got := NewKeyName(old, day); got != want || len([]rune(got)) > MaxKeyName {
			t.Errorf("keystore.NewKeyName(%q) = %q, want %q", old, got, want)
		}
	}
}
