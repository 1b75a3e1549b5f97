// Package atomicfile writes a file so that a crash, or a reader at the
// same moment, sees the old content or the new, never half of it.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path with mode perm: into a temporary file in the
// same directory (so the rename below is one filesystem operation), synced
// to disk, then renamed over path. On any failure the temporary file is
// removed and path is as it was.
func Write(path string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// CreateTemp makes the file 0600; Chmod gives it perm before any byte
	// is written, so a secret never sits in a file readable by others.
	if err = f.Chmod(perm); err == nil {
		if _, err = f.Write(data); err == nil {
			err = f.Sync()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename itself durable where the system allows opening
// a directory (not Windows); a failure costs only that durability.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
