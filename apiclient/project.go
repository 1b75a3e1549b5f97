package apiclient

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// ProjectRef names a project by numeric ID or by full path.
type ProjectRef struct {
	ID   int64
	Path string
}

// ProjectID refers to a project by numeric ID.
func ProjectID(id int64) ProjectRef { return ProjectRef{ID: id} }

// ParseProjectRef accepts "42", "group/sub/project", its URL-encoded form
// "group%2Fsub%2Fproject", or a project's web URL.
func ParseProjectRef(s string) (ProjectRef, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return ProjectRef{}, errors.New("no project given: use a numeric ID or a path such as group/project")
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Path == "" {
			return ProjectRef{}, fmt.Errorf("%q is not a project URL", s)
		}
		s = strings.Trim(u.Path, "/")
		if i := strings.Index(s, "/-/"); i >= 0 {
			s = s[:i]
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 {
			return ProjectRef{}, fmt.Errorf("project ID %d is not valid: IDs are positive", n)
		}
		return ProjectRef{ID: n}, nil
	}
	if strings.Contains(strings.ToLower(s), "%2f") {
		dec, err := url.PathUnescape(s)
		if err != nil {
			return ProjectRef{}, fmt.Errorf("%q is not a valid encoded project path", s)
		}
		s = dec
	}
	s = strings.Trim(s, "/")
	segs := strings.Split(s, "/")
	if len(segs) < 2 {
		return ProjectRef{}, fmt.Errorf("%q is not a project: use a numeric ID or the full path, group/project", s)
	}
	for _, seg := range segs {
		if !validSegment(seg) {
			return ProjectRef{}, fmt.Errorf("%q is not a valid project path: each part may use letters, digits, '_', '-' and '.'", s)
		}
	}
	return ProjectRef{Path: s}, nil
}

func validSegment(seg string) bool {
	if seg == "" || seg == "." || seg == ".." || len(seg) > 255 {
		return false
	}
	for _, r := range seg {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == '+':
		default:
			return false
		}
	}
	return true
}

// String is how a person reads the reference.
func (p ProjectRef) String() string {
	if p.Path != "" {
		return p.Path
	}
	return strconv.FormatInt(p.ID, 10)
}

// IsZero reports an unset reference.
func (p ProjectRef) IsZero() bool { return p.ID == 0 && p.Path == "" }

// escaped is the form used in a request path: the ID, or the path with every
// slash encoded as %2F.
func (p ProjectRef) escaped() string {
	if p.Path != "" {
		return url.PathEscape(p.Path)
	}
	return strconv.FormatInt(p.ID, 10)
}
