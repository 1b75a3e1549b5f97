package apiclient

import (
	"strings"
	"testing"
)

func TestParseProjectRef(t *testing.T) {
	ok := map[string]ProjectRef{
		"42":                              {ID: 42},
		" 7 ":                             {ID: 7},
		"group/project":                   {Path: "group/project"},
		"group/sub/project":               {Path: "group/sub/project"},
		"group%2Fsub%2Fproject":           {Path: "group/sub/project"},
		"/group/project/":                 {Path: "group/project"},
		"https://gitlab.com/g/p":          {Path: "g/p"},
		"https://gitlab.com/g/p/-/issues": {Path: "g/p"},
		"my.group/web_shop-2":             {Path: "my.group/web_shop-2"},
	}
	for in, want := range ok {
		got, err := ParseProjectRef(in)
		if err != nil || got != want {
			t.Errorf("ParseProjectRef(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-3", "project", "a//b", "a/../b", "a/b c", "a/\x1b[2J", "99999999999999999999"} {
		if got, err := ParseProjectRef(bad); err == nil {
			t.Errorf("ParseProjectRef(%q) = %+v, want error", bad, got)
		}
	}
	p, _ := ParseProjectRef("group/sub/project")
	if p.escaped() != "group%2Fsub%2Fproject" {
		t.Errorf("escaped = %s", p.escaped())
	}
}

func FuzzParseProjectRef(f *testing.F) {
	for _, s := range []string{"1", "a/b", "a%2Fb", "https://h/a/b", "a/../b", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProjectRef(s)
		if err != nil {
			return
		}
		if p.IsZero() || (p.ID != 0 && p.Path != "") || p.ID < 0 {
			t.Fatalf("ParseProjectRef(%q) = %+v", s, p)
		}
		e := p.escaped()
		if strings.ContainsAny(e, "/?#") || strings.Contains(e, "..") && !strings.Contains(p.Path, "..") {
			t.Fatalf("escaped %q of %q is unsafe in a path", e, s)
		}
		again, err := ParseProjectRef(p.String())
		if err != nil || again != p {
			t.Fatalf("round trip of %q: %+v, %v", s, again, err)
		}
	})
}
