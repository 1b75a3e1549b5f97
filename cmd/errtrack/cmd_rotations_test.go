package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// rotationsAfterOne is the CLI with one finished rotation in its ledger.
func rotationsAfterOne(t *testing.T) *cli {
	t.Helper()
	c := newCLI(t, nil)
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--ci-variable", "SENTRY_DSN", "--verify", "--yes", "--delete-with-unread-groups").must(t, 0)
	return c
}

func widest(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// On a terminal of 80 columns (COLUMNS) the table fits, the project and
// its keys kept, and stderr says how to see the rest; --wide prints every
// column whole, as does output to a pipe with no width known.
func TestRotationsFitTheTerminal(t *testing.T) {
	c := rotationsAfterOne(t)
	full := c.run("", "rotations")
	full.must(t, 0, "TEST EVENT", "accepted by ingestion (HTTP 200)")
	if widest(full.stdout) <= 80 {
		t.Fatalf("the whole table is %d columns: the test needs a wider one\n%s", widest(full.stdout), full.stdout)
	}
	for _, cols := range []string{"80", "50"} {
		c.env["COLUMNS"] = cols
		r := c.run("", "rotations")
		r.must(t, 0, "PROJECT", "demo/web-shop", "--wide")
		if w, n := widest(r.stdout), mustAtoi(t, cols); w > n {
			t.Errorf("COLUMNS=%s: a line of %d columns\n%s", cols, w, r.stdout)
		}
		wide := c.run("", "rotations", "--wide")
		if wide.stdout != full.stdout {
			t.Errorf("COLUMNS=%s --wide:\n%s\nwant the whole table:\n%s", cols, wide.stdout, full.stdout)
		}
		var rows []rotationJSON
		j := c.run("", "rotations", "--json")
		if err := json.Unmarshal([]byte(j.stdout), &rows); err != nil || len(rows) != 1 || rows[0].TestEvent == nil {
			t.Errorf("COLUMNS=%s --json: %v\n%s", cols, err, j.stdout)
		}
	}
}

func mustAtoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// fitColumns: the steps in order, then any column, each cut cell ending
// in "…", every line within the width down to the narrowest columns.
func TestFitColumns(t *testing.T) {
	rows := [][]string{
		{"PROJECT", "WHO", "LEFT TO DO"},
		{"group/project-with-a-long-name", "someone, keys rotate", "delete key 6 once SENTRY_DSN holds key 8’s DSN → then done"},
	}
	got, cut := fitColumns(rows, 0, nil)
	if cut || len(got[1]) != 3 {
		t.Fatalf("width 0 changed the table: %v", got)
	}
	for _, width := range []int{80, 50, 20} {
		got, cut := fitColumns(rows, width, []fitStep{dropColumn(1), cutColumns(2)})
		line := strings.Join(got[1], "  ")
		if !cut || utf8.RuneCountInString(line) > width {
			t.Errorf("width %d: %q (cut %v)", width, line, cut)
		}
		if len(got[0]) != 2 || got[0][0] != "PROJECT" {
			t.Errorf("width %d: WHO was not left out first: %v", width, got[0])
		}
		if width >= 50 && got[1][0] != rows[1][0] {
			t.Errorf("width %d: the project was cut before LEFT TO DO: %v", width, got[1])
		}
		for _, c := range got[1] {
			if c != rows[1][0] && c != rows[1][2] && !strings.HasSuffix(c, "…") {
				t.Errorf("width %d: a cut cell without …: %q", width, c)
			}
		}
	}
}

// A group rotation a run left open (a project failed, every other one
// rotated and closed) is what --open lists, with how to finish it;
// --group finds it, --project does not.
func TestRotationsOpenListsAnOpenGroupRotation(t *testing.T) {
	srv, _ := mockserver.New(mockserver.Options{ScaleGroup: 3})
	c := newCLI(t, srv)
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.run("", "keys", "rotate", "--group", "fleet", "--ci-variable", "SENTRY_DSN", "--yes").must(t, 1, "1 of 3 projects failed")
	c.env["COLUMNS"] = "400"
	for _, args := range [][]string{{"rotations", "--open"}, {"rotations", "--open", "--group", "fleet"}} {
		r := c.run("", args...)
		r.must(t, 0, "group fleet (2 projects)", "the keys SENTRY_DSN (all environments) holds", "  open  ",
			"run 'errtrack keys rotate --group fleet --ci-variable SENTRY_DSN' again")
		if strings.Contains(r.stderr, "No rotation in the ledger matches") {
			t.Fatalf("%v: %s", args, r.stderr)
		}
	}
	var rows []rotationJSON
	j := c.run("", "rotations", "--open", "--json")
	if err := json.Unmarshal([]byte(j.stdout), &rows); err != nil || len(rows) != 1 || rows[0].Kind != "campaign" || rows[0].Group != "fleet" || rows[0].State != "open" {
		t.Fatalf("%v: %s", err, j.stdout)
	}
	if r := c.run("", "rotations", "--open", "-p", "fleet/app-002"); strings.Contains(r.stdout, "group fleet") {
		t.Fatalf("a project's rotations list its group's:\n%s", r.stdout)
	}
}

// The ledger of a state directory that cannot be written (a read-only
// mount, a folder of another user's) is still listed: reading it needs no
// lock and changes nothing.
func TestRotationsListsAReadOnlyLedger(t *testing.T) {
	dir := t.TempDir()
	if os.Getuid() == 0 {
		// Root writes through permissions: a read-only mount it is.
		if out, err := exec.Command("mount", "-t", "tmpfs", "tmpfs", dir).CombinedOutput(); err != nil {
			t.Fatalf("mounting a tmpfs as root: %v: %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	}
	c := newCLI(t, nil)
	rec := `{"kind":"rotation","id":"r-1","host":"` + c.url + `","project_id":7,"project":"demo/mobile/ios","old_key_id":901,"new_key_id":902,"phase":"created","started":"2026-11-01T10:00:00Z","updated":"2026-11-01T10:00:01Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "rotations.jsonl"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
			t.Fatalf("remounting read-only: %v: %s", err, out)
		}
	} else if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	c.env["ERRTRACK_STATE_DIR"] = dir
	c.run("", "rotations").must(t, 0, "demo/mobile/ios", "901 → 902", "cannot be written")
}
