package main

import (
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// waves records a command's requests in waves: a request arriving while
// the first of its wave is still held (up to 300 ms, enough for requests
// sent together on loopback) joins it; one sent after an answer starts a
// new wave. The count is the command's sequential round trips.
type waves struct {
	next  http.Handler
	mu    sync.Mutex
	open  chan struct{}
	count int
	seen  []string
}

func (w *waves) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	if w.open == nil {
		w.count++
		open := make(chan struct{})
		w.open = open
		go func() {
			time.Sleep(300 * time.Millisecond)
			w.mu.Lock()
			w.open = nil
			w.mu.Unlock()
			close(open)
		}()
	}
	open := w.open
	w.seen = append(w.seen, r.Method+" "+r.URL.Path)
	w.mu.Unlock()
	<-open
	w.next.ServeHTTP(rw, r)
}

func (w *waves) reset() (int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, seen := w.count, w.seen
	sort.Strings(seen)
	w.count, w.seen = 0, nil
	return n, strings.Join(seen, "\n")
}

// settings update and audit, by ID (a path seen before) and by path, are
// one round trip each; keys delete --yes two.
func TestSingleProjectCommandsOneRoundTrip(t *testing.T) {
	t.Parallel()
	s, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := &waves{next: s}
	c := newCLI(t, w)
	recent := fmt.Sprintf(`{"recent_projects":{%q:[{"id":9,"path":"demo/mobile/kiosk"}]}}`, c.url)
	if err := os.WriteFile(c.cfg, []byte(recent), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"settings", "disable", "-p", "1"}, 1},
		{[]string{"settings", "update", "-p", "1", "--active=true"}, 1},
		{[]string{"settings", "update", "-p", "demo/web-shop", "--active=false"}, 1},
		{[]string{"audit", "-p", "demo/mobile/ios"}, 1},
		{[]string{"audit", "-p", "7"}, 1}, // its path was seen by the audit above
		{[]string{"audit", "-p", "8"}, 2}, // never seen: the groups wait for the path
		{[]string{"audit", "-p", "9"}, 1}, // opened in the console: a recent project
		// keys delete --yes: the look-up at once, then the delete (by ID,
		// with the groups' variables).
		{[]string{"keys", "delete", "-p", "demo/web-shop", "2", "--yes"}, 2},
		{[]string{"keys", "delete", "-p", "7", "901", "--yes"}, 2},
	} {
		r := c.run("", tc.args...)
		n, seen := w.reset()
		if r.code > 1 || n != tc.want {
			t.Errorf("%v: exit %d, %d round trips, want %d:\n%s\n%s", tc.args, r.code, n, tc.want, seen, r.stderr)
		}
	}
}
