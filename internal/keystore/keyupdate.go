package keystore

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/safetext"
)

// RateLimitError is a rate limit errtrack cannot read.
type RateLimitError struct{ Text string }

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%q: give COUNT/WINDOW, the window in seconds or with a unit, e.g. 1000/3600 or 1000/1h (a window of at most a day), or none", safetext.Excerpt(e.Text, 40))
}

// ParseRateLimit reads a Sentry key's rate limit as both front ends take
// it: COUNT/WINDOW, the window in seconds ("1000/3600", "100/60s") or as
// RateLimitText writes it ("1000/1h", "500/1min", "10/1d"), a bare unit
// as one of it ("50/min" is "50/1min"), or "none" (or
// 0) to remove it (clear).
func ParseRateLimit(s string) (rl *sentry.RateLimit, clear bool, err error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "0" {
		return nil, true, nil
	}
	count, window, ok := strings.Cut(s, "/")
	unit := 1
	for _, u := range []struct {
		suffix string
		secs   int
	}{{"min", 60}, {"s", 1}, {"h", 3600}, {"d", 86400}} {
		if w, cut := strings.CutSuffix(window, u.suffix); cut {
			window, unit = w, u.secs
			if window == "" { // a bare unit is one of it: 50/min
				window = "1"
			}
			break
		}
	}
	c, cerr := strconv.Atoi(count)
	w, werr := strconv.Atoi(window)
	if !ok || cerr != nil || werr != nil || c <= 0 || w <= 0 || w > sentry.MaxRateLimitWindow/unit {
		return nil, false, &RateLimitError{Text: s}
	}
	return &sentry.RateLimit{Count: c, Window: w * unit}, false, nil
}

// SentryBase is the address of the Sentry a store's keys are on, "" for
// GitLab's keys: the host a failure's words send the user to log in to.
func SentryBase(store KeyStore) string {
	if s, ok := store.(sentryKeys); ok {
		return s.project.Base
	}
	return ""
}

// RateLimitText is a Sentry key's rate limit as its settings page shows
// it: "1000/1h", "10/90s", or "none".
func RateLimitText(r *apiclient.KeyRateLimit) string {
	if r == nil || r.Count <= 0 || r.Window <= 0 {
		return "none"
	}
	w := strconv.Itoa(r.Window) + "s"
	for _, u := range []struct {
		secs int
		unit string
	}{{86400, "d"}, {3600, "h"}, {60, "min"}} {
		if r.Window%u.secs == 0 {
			w = strconv.Itoa(r.Window/u.secs) + u.unit
			break
		}
	}
	return strconv.Itoa(r.Count) + "/" + w
}

// MaxKeyName is the longest name Sentry keeps (ProjectKey.label).
const MaxKeyName = 64

// NewKeyName is the one rule both front ends name a new Sentry key by:
// "errtrack 2026-05-01", or, for a rotation, the old key's name with
// today's date in place of any date it ended with ("Production
// 2026-05-01"). A rotation given no name (a group rotation, `rotate`
// without --name) is named so too, never left to Sentry's random words.
func NewKeyName(old string, now time.Time) string {
	date := now.Format(time.DateOnly)
	old = strings.TrimSpace(old)
	if len(old) > len(date) {
		if _, err := time.Parse(time.DateOnly, old[len(old)-len(date):]); err == nil {
			old = strings.TrimSpace(old[:len(old)-len(date)])
		}
	}
	if old == "" {
		return "errtrack " + date
	}
	if r := []rune(old); utf8.RuneCountInString(old) > MaxKeyName-len(date)-1 {
		old = string(r[:MaxKeyName-len(date)-1])
	}
	return old + " " + date
}
