package ledger

import (
	"os"
	"path/filepath"
	"testing"
)

// Read only, a last record whose newline is missing is kept (a rotation
// is not forgotten) and a torn last line is left out, not an error.
func TestReadOnlyLastLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	whole := `{"kind":"rotation","id":"r1","host":"h","project_id":1,"old_key_id":1,"phase":"created"}`
	os.WriteFile(path, []byte(whole), 0o600)
	l, err := ReadOnly(dir)
	if err != nil || len(l.Records(nil)) != 1 {
		t.Fatalf("a whole last record: %v, %+v", err, l)
	}
	os.WriteFile(path, []byte(whole+"\n"+`{"kind":"rotation","id":"r2","pha`), 0o600)
	l, err = ReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Records(nil); len(got) != 1 || got[0].ID != "r1" {
		t.Fatalf("with a torn last line: %+v", got)
	}
	os.WriteFile(path, []byte(whole+"\n"), 0o600)
	if l, err = ReadOnly(dir); err != nil || len(l.Records(nil)) != 1 {
		t.Fatalf("a file ending in its newline: %v", err)
	}
}
