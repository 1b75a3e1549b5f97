package tui

import (
	"slices"
	"testing"
)

// A dialog's table is laid out once per width and palette, not on every
// frame: a plan of 5,000 projects took 100 ms to lay out. A new width or
// palette lays it out again.
func TestDialogTableKeptUntilWidthOrPaletteChanges(t *testing.T) {
	rows := []reportRow{{result: "planned", project: "demo/web-shop", what: "rotate key 1"}, {result: "failed", project: "demo/ios", what: "the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN of group fleet"}}
	d := infoDialog("Plan", nil).withTable(rows)
	dark, light := NewStyles(true, false), NewStyles(false, false)
	first, _ := d.tableLines(dark, 70, 0)
	if again, _ := d.tableLines(dark, 70, 0); &again[0] != &first[0] {
		t.Fatal("the table was laid out again for the same width and palette")
	}
	if _, _ = d.tableLines(dark, 70, 2); &d.drawn.lines[0] != &first[0] {
		t.Fatal("a row selected laid the table out again")
	}
	for _, c := range []struct {
		st    Styles
		width int
	}{{dark, 40}, {light, 40}, {dark, 70}} {
		for sel := range len(rows) + 1 {
			got, _ := d.tableLines(c.st, c.width, sel)
			if want, _ := reportTable(c.st, rows, c.width, sel); !slices.Equal(got, want) {
				t.Fatalf("at %d cells, row %d selected, the kept table is\n%q\nwant\n%q", c.width, sel, got, want)
			}
		}
	}
}

func TestDialogKeys(t *testing.T) {
	k := DefaultKeyMap()
	d := confirmDialog("t", nil, "Yes", "confirmed")
	d.onNo = "declined"
	if _, cmd, done := d.update(keyMsg("enter"), k); !done || cmd() != "declined" {
		t.Fatal("enter on the default must be No")
	}
	d2, _, _ := d.update(keyMsg("tab"), k)
	if _, cmd, done := d2.update(keyMsg("enter"), k); !done || cmd == nil || cmd() != "confirmed" {
		t.Fatal("enter on Yes must confirm")
	}
	if _, cmd, done := d.update(keyMsg("y"), k); !done || cmd() != "confirmed" {
		t.Fatal("y must confirm")
	}
	if _, cmd, done := d.update(keyMsg("esc"), k); !done || cmd() != "declined" {
		t.Fatal("esc must decline")
	}
	if _, _, done := d.update(keyMsg("x"), k); done {
		t.Fatal("unbound key closed the dialog")
	}
}

// q at a rotation's question cancels it, as n and esc do: the question
// closes, the old key stays, and the console does not quit under it.
func TestQAtARotationsQuestionCancelsIt(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "R")
	h.mustSee("Delete old key 2?")
	h.key("q")
	if len(h.m.dialogs) != 0 {
		t.Fatal("q left the question open")
	}
	if ids := g.keyIDs(1); len(ids) != 3 || ids[1] != 2 {
		t.Fatalf("keys after q: %v", ids)
	}
	h.mustSay("Both keys exist: new key 4, old key 2 kept: d deletes it once its clients moved.")
}
