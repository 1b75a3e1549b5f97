package peers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// bareKey is a client key as a glab-style command decodes it.
type bareKey struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
	DSN       string `json:"sentry_dsn"`
}

// bareList is how a glab-style command lists a project's keys: net/http's
// default client, the token in a header, encoding/json on the body, the
// next page from X-Next-Page. No retries, no caps, no checks: the floor.
func bareList(ctx context.Context, base, token string, project int) ([]bareKey, error) {
	var all []bareKey
	for page := 1; page > 0; {
		u := fmt.Sprintf("%s/api/v4/projects/%d/error_tracking/client_keys?per_page=100&page=%d", base, project, page)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("PRIVATE-TOKEN", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		var keys []bareKey
		err = json.NewDecoder(resp.Body).Decode(&keys)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, keys...)
		page, _ = strconv.Atoi(resp.Header.Get("X-Next-Page"))
	}
	return all, nil
}

// BenchmarkPeerKeysList lists one project's keys, a page of 20, with
// errtrack's client and with a bare glab-style loop, against the same
// recorded answers over loopback, in the same run: errtrack's transport
// (pacing, retries, caps, the token scrubbed from the answer, the checks
// on every key) against none of it.
func BenchmarkPeerKeysList(b *testing.B) {
	const n = 20
	url := recordedKeys(b, n)
	ctx := context.Background()
	b.Run("errtrack", func(b *testing.B) {
		c, err := apiclient.New(url, mockserver.TokenMaintainer)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			keys, _, err := c.ListClientKeys(ctx, apiclient.ProjectID(1))
			if err != nil || len(keys) != n {
				b.Fatal(len(keys), err)
			}
		}
	})
	b.Run("bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			keys, err := bareList(ctx, url, mockserver.TokenMaintainer, 1)
			if err != nil || len(keys) != n {
				b.Fatal(len(keys), err)
			}
		}
	})
}
