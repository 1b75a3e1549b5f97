package tui

import (
	"strings"
	"testing"
)

// A rebound key works, the default no longer does, and the help bar, the
// help overlay and the sentences name the key in force.
func TestReboundKeyWorks(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Keys: map[string][]string{"rotate": {"x"}, "copy": {"C"}}})
	h.resize(160, 30)
	h.mustSee("x rotate", "x rotates it", "DSN (C copies it)")
	h.mustNotSee("R rotate")
	h.key("R")
	h.mustNotSee("Update its CI/CD variables?")
	h.key("?")
	h.mustSee("x       rotate")
	h.key("esc")
	h.key("x")
	h.mustSay("Update its CI/CD variables?")
}

// An invalid keys section is refused with the entry named, never half
// applied.
func TestRebindRefusesMistakes(t *testing.T) {
	for _, c := range []struct {
		m    map[string][]string
		want string
	}{
		{map[string][]string{"launch": {"x"}}, "keys.launch: is not an action that can be rebound"},
		{map[string][]string{"rotate": {}}, "keys.rotate: has no key"},
		{map[string][]string{"rotate": {"ctrl+"}}, `keys.rotate: "ctrl+" is not a key name`},
		{map[string][]string{"rotate": {"xx"}}, `keys.rotate: "xx" is not a key name`},
		{map[string][]string{"copy": {"enter"}}, `keys.copy: "enter" is reserved`},
		{map[string][]string{"copy": {"n"}}, `keys.copy: "n" is reserved`},
		{map[string][]string{"copy": {"d"}}, `keys.copy: "d" is bound to both delete and copy`},
		{map[string][]string{"rotate": {"x"}, "verify": {"x"}}, `"x" is bound to both rotate and verify`},
	} {
		k := DefaultKeyMap()
		got, err := k.Rebind(c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.m, err, c.want)
		}
		if got.Rotate.Keys()[0] != "R" {
			t.Errorf("%v: the map changed although refused", c.m)
		}
	}
	for _, ok := range []map[string][]string{{"new": {"n"}}, {"rotate": {"ctrl+e", "f5"}}, {"up": {"up", "w"}, "down": {"down", "s"}}, {"delete": {"alt+d"}}} {
		if _, err := DefaultKeyMap().Rebind(ok); err != nil {
			t.Errorf("%v refused: %v", ok, err)
		}
	}
}
