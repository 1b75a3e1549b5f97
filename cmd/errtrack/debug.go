package main

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
)

// maxDebugBody caps a body --debug prints.
const maxDebugBody = 2048

var debugMu sync.Mutex

// debugExchange prints one exchange for --debug: the request line and
// headers (the token as [redacted]), then the status, headers and body,
// cleaned and capped. Pages fetched at once print whole, one after the other.
func (a *app) debugExchange(e apiclient.Exchange) {
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s\n", e.Method, e.URL)
	writeHeaders(&b, "> ", e.RequestHeader)
	if len(e.RequestBody) > 0 {
		fmt.Fprintf(&b, "> %s\n", capText(e.RequestBody))
	}
	if e.Status == 0 {
		fmt.Fprintf(&b, "< no answer (%d ms): %v\n", e.Duration.Milliseconds(), e.Err)
	} else {
		fmt.Fprintf(&b, "< %d %s (%d ms, attempt %d)\n", e.Status, http.StatusText(e.Status), e.Duration.Milliseconds(), e.Attempt)
		writeHeaders(&b, "< ", e.ResponseHeader)
		if len(e.ResponseBody) > 0 {
			fmt.Fprintf(&b, "< %s\n", capText(e.ResponseBody))
		}
	}
	debugMu.Lock()
	defer debugMu.Unlock()
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		fmt.Fprintln(a.stderr, explain.Text(line))
	}
}

func writeHeaders(b *strings.Builder, prefix string, h http.Header) {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(b, "%s%s: %s\n", prefix, n, strings.Join(h[n], ", "))
	}
}

func capText(body []byte) string {
	if len(body) > maxDebugBody {
		return fmt.Sprintf("%s… (%d bytes in all)", body[:maxDebugBody], len(body))
	}
	return string(body)
}
