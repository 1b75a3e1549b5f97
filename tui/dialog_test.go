package tui

import (
	"slices"
	"testing"
)

// A dialog's table is laid out once per width and palette, not on every
// frame: a plan of 5,000 projects took 100 ms to lay out. A new width or
// palette lays it out again.
func TestDialogTableKeptUntilWidthOrPaletteChanges(t *testing.T) {
	rows := []reportRow{{"planned", "demo/web-shop", "rotate key 1"}, {"failed", "demo/ios", "the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN of group fleet"}}
	d := infoDialog("Plan", nil).withTable(rows)
	dark, light := NewStyles(true, false), NewStyles(false, false)
	first := d.tableLines(dark, 70)
	if again := d.tableLines(dark, 70); &again[0] != &first[0] {
		t.Fatal("the table was laid out again for the same width and palette")
	}
	for _, c := range []struct {
		st    Styles
		width int
	}{{dark, 40}, {light, 40}, {dark, 70}} {
		if got, want := d.tableLines(c.st, c.width), reportTable(c.st, rows, c.width); !slices.Equal(got, want) {
			t.Fatalf("at %d cells the kept table is\n%q\nwant\n%q", c.width, got, want)
		}
	}
}
