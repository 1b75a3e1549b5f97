package mockserver

import (
	"fmt"
	"strconv"
	"strings"
)

// release is a GitLab major.minor; the zero release is older than any.
type release struct{ major, minor int }

// DefaultGitLabVersion is the release the mock server behaves as by default.
const DefaultGitLabVersion = "17.5"

// Releases where the API changed (gitlab-api.md §12).
var (
	sinceSettingsGet  = release{12, 7}
	sinceSettingsPut  = release{15, 10}
	sincePatch        = release{12, 8}
	sinceIntegrated   = release{14, 2}
	sinceClientKeys   = release{14, 3}
	sinceValidateLast = release{15, 0} // 14.x looked the settings up before validating
	sinceCurrentDSN   = release{16, 1} // the collector DSN before
	sinceMetadata     = release{15, 2}
	sinceTokenSelf    = release{15, 5}
	sinceSelfRotation = release{16, 10}
)

func (r release) atLeast(o release) bool {
	return r.major > o.major || (r.major == o.major && r.minor >= o.minor)
}

func (r release) String() string { return fmt.Sprintf("%d.%d", r.major, r.minor) }

// parseRelease reads "15.4" or "15.4.2".
func parseRelease(s string) (release, error) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return release{}, fmt.Errorf("GitLab version %q is not MAJOR.MINOR, e.g. 15.4", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 999 {
			return release{}, fmt.Errorf("GitLab version %q is not MAJOR.MINOR, e.g. 15.4", s)
		}
		n[i] = v
	}
	if n[0] < 8 {
		return release{}, fmt.Errorf("GitLab version %q is older than this mock knows (8.0)", s)
	}
	return release{n[0], n[1]}, nil
}
