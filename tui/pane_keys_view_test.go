package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// "/" filters keys by id, public key or DSN; the header shows the position.
func TestKeysFilterAndPosition(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleKeys: 150}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Client keys (152)", "1/152")
	h.key("down", "down")
	h.mustSee("3/152")
	h.key("G")
	h.mustSee("152/152")
	pk := g.srv.Keys(1)[100].PublicKey
	h.key("/")
	h.mustSee("enter done", "esc clear") // filter mode: letters type
	h.mustNotSee("q quit")
	h.typeText(pk[5:15])
	h.mustSee("1/1", pk)
	h.key("enter") // leave the field, keep the filter
	h.key("enter") // show the key
	h.mustSee("Client key 102 of demo/web-shop")
	h.key("esc", "esc") // closes the box, then clears the filter
	h.mustSee("1/152")
	h.key("/")
	h.typeText("no such key")
	h.mustSee("No key matches the filter")
	h.key("esc")
	h.mustSee("Client keys (152)")
}

// The key view shows the DSN in full, in the one width every dialog has
// (issue 31: it used to widen the box to keep the DSN on one line): its
// lines, read in order, make the DSN, and none is its scheme alone.
func TestKeyViewShowsTheDSNInFull(t *testing.T) {
	h, g := console(t, "1")
	dsn := "http://" + g.srv.Keys(1)[0].PublicKey + "@" + strings.TrimPrefix(g.url, "http://") + "/errortracking/api/v1/projects/1"
	for _, w := range []int{120, 200} {
		h.resize(w, 30)
		h.key("enter")
		// The box's lines, less what is drawn beside it.
		lines := strings.Split(h.view(), "\n")
		left, right := -1, -1
		for _, l := range lines {
			if i := strings.Index(l, "│ Client key 1 of"); i >= 0 {
				left = len([]rune(l[:i]))
				r := []rune(l)
				for j := left + 1; j < len(r); j++ {
					if r[j] == '│' {
						right = j // the box is as wide as its DSN needs, where it can be
						break
					}
				}
			}
		}
		if left < 0 {
			t.Fatalf("no key view at %d columns:\n%s", w, h.view())
		}
		var joined strings.Builder
		for _, l := range lines {
			r := []rune(l)
			if len(r) <= right {
				continue
			}
			inner := strings.TrimSpace(string(r[left+1 : right]))
			if inner == "http://" {
				t.Fatalf("at %d columns the DSN breaks after its scheme:\n%s", w, h.view())
			}
			joined.WriteString(inner)
		}
		if !strings.Contains(joined.String(), dsn) {
			t.Fatalf("at %d columns the DSN is not shown in full:\n%s", w, h.view())
		}
		h.key("esc")
	}
}

func TestLongDSNKeepsHostInView(t *testing.T) {
	h, g := console(t, "1")
	host := strings.TrimPrefix(g.url, "http://")
	// At 80 columns the public key identifies the key; a DSN cut to
	// "http://glet_…@127.0.0.1:39…" would not, so it is left to enter and c.
	h.resize(80, 24)
	h.mustSee(g.srv.Keys(1)[0].PublicKey)
	h.mustNotSee("http://glet_")
	h.resize(130, 24)
	h.mustSee("http://glet_…@" + host)
	h.resize(240, 24) // beside the details panel, the list has room for the DSN whole
	h.mustSee("http://" + g.srv.Keys(1)[0].PublicKey + "@" + host + "/errortracking/api/v1/projects/1")
}

// Clearing the keys filter keeps the selected key; the key's details copy
// its DSN with c; a project that failed to load offers no n.
func TestKeysFilterDetailsAndHelpAreTrue(t *testing.T) {
	h, g := console(t, "1")
	h.key("/")
	h.typeText(g.srv.Keys(1)[1].PublicKey[5:17])
	h.key("enter", "esc")
	p := h.m.top().(*projectScreen)
	if k, ok := p.keys.selected(); !ok || k.ID != 2 {
		t.Fatalf("selected %+v after clearing the filter", k)
	}
	h.key("enter")
	h.mustSee("Client key 2 of demo/web-shop", "c copy DSN")
	h.key("c")
	if c := h.copied(); len(c) != 1 || !strings.Contains(c[0], g.srv.Keys(1)[1].PublicKey) {
		t.Fatalf("copied %v", c)
	}
	h.mustSee("Client key 2 of demo/web-shop") // still open

	h, _ = console(t, "6") // not visible to the user: 404
	h.mustSee("Could not open the project")
	h.mustNotSee("n new")
}

// From 140 columns the selected key's details sit beside the list and follow
// the cursor; narrower, the list has the room.
func TestWideKeysShowTheSelectedKeyBeside(t *testing.T) {
	h, g := console(t, "1")
	h.resize(160, 30)
	ids := g.keyIDs(1)
	h.mustSee(fmt.Sprintf("Key %d", ids[0]), "DSN (c copies it)")
	h.key("down")
	h.mustSee(fmt.Sprintf("Key %d", ids[1]))
	h.mustNotSee(fmt.Sprintf("Key %d ", ids[0]))
	for _, l := range strings.Split(h.view(), "\n") {
		if w := ansi.StringWidth(l); w > 160 {
			t.Fatalf("a line is %d cells wide at 160 columns: %q", w, l)
		}
	}
	h.resize(120, 30)
	h.mustNotSee("DSN (c copies it)")
}
