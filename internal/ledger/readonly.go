package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ReadOnly reads the ledger in dir as it is, taking no lock and writing
// nothing: for listing a ledger whose state directory cannot be written (a
// read-only mount, another user's folder). A line another process is
// appending at that moment may be missing; a torn last line is left out.
// Its Append fails; Close does nothing.
func ReadOnly(dir string) (*Ledger, error) {
	l := &Ledger{dir: dir, path: filepath.Join(dir, FileName), recs: map[string]Record{},
		raw: map[string]string{}, changed: map[string]uint64{}, byProject: map[projectKey][]string{}, now: time.Now, readOnly: true}
	f, err := os.Open(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			line, err = l.readLong(r, line)
		}
		if errors.Is(err, io.EOF) {
			if _, perr := l.parse(bytes.TrimSpace(line)); len(line) > 0 && perr == nil {
				return l, l.take(line)
			}
			return l, nil
		}
		if err != nil {
			return nil, err
		}
		if err := l.take(line); err != nil {
			return nil, err
		}
	}
}

// errReadOnly: a ledger read with ReadOnly is not written.
var errReadOnly = errors.New("the ledger was opened to be read only")
