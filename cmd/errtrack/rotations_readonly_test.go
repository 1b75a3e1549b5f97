package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

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
