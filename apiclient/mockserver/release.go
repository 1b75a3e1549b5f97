package mockserver

import (
	"fmt"
	"strconv"
	"strings"
)

// release is a GitLab major.minor; the zero release is older than any.
// patch is only reported by /version: no behaviour here changes with it.
type release struct{ major, minor, patch int }

// DefaultGitLabVersion is the release the mock server behaves as by default.
const DefaultGitLabVersion = "17.5"

// Releases where the API changed (gitlab-api.md §12).
var (
	sinceSettingsGet  = release{12, 7, 0}
	sinceSettingsPut  = release{15, 10, 0}
	sincePatch        = release{12, 8, 0}
	sinceIntegrated   = release{14, 2, 0}
	sinceClientKeys   = release{14, 3, 0}
	sinceValidateLast = release{15, 0, 0} // 14.x looked the settings up before validating
	sinceCurrentDSN   = release{16, 1, 0} // the collector (and its DSN) before
	sinceMetadata     = release{15, 2, 0}
	sinceTokenSelf    = release{15, 5, 0}
	sinceSelfRotation = release{16, 10, 0}
	sinceCollector    = release{14, 1, 0} // GitLab's own ingestion, until sinceCurrentDSN
	// CI/CD variables' description (16.2) and hidden (17.4) attributes.
	sinceVariableDescription = release{16, 2, 0}
	sinceHiddenVariables     = release{17, 4, 0}
)

func (r release) atLeast(o release) bool {
	return r.major > o.major || (r.major == o.major && r.minor >= o.minor)
}

// String is the release as /version shows it, 15.4.0.
func (r release) String() string { return fmt.Sprintf("%d.%d.%d", r.major, r.minor, r.patch) }

// parseRelease reads MAJOR.MINOR[.PATCH], with a suffix after the patch
// as /version shows it (17.5.1-ee, 16.0.0-pre), so a version copied from
// a real server works.
func parseRelease(s string) (release, error) {
	bad := fmt.Errorf("GitLab version %q is not MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. 15.4 or 17.5.1-ee", s)
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return release{}, bad
	}
	if len(parts) == 3 {
		parts[2], _, _ = strings.Cut(parts[2], "-")
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if p == "" || strings.Trim(p, "0123456789") != "" || err != nil || v > 999 {
			return release{}, bad
		}
		n[i] = v
	}
	if n[0] < 8 {
		return release{}, fmt.Errorf("GitLab version %q is older than this mock knows (8.0)", s)
	}
	return release{n[0], n[1], n[2]}, nil
}
