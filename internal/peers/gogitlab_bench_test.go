package peers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// recordedPages serves what the mock server answered for every page of
// project 1's keys, recorded once: the benchmarks below then measure the
// clients, not the mock's encoding. Past 10,000 keys the mock, as GitLab,
// sends no totals, so both clients page without knowing the end.
type recordedPages struct {
	mu    sync.Mutex
	pages map[string]recorded
	live  http.Handler
}

type recorded struct {
	header http.Header
	body   []byte
}

func (r *recordedPages) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	key := req.URL.RawQuery
	r.mu.Lock()
	rec, ok := r.pages[key]
	r.mu.Unlock()
	if !ok {
		rr := httptest.NewRecorder()
		r.live.ServeHTTP(rr, req)
		res := rr.Result()
		body, _ := io.ReadAll(res.Body)
		rec = recorded{header: res.Header.Clone(), body: body}
		if res.StatusCode == http.StatusOK {
			r.mu.Lock()
			r.pages[key] = rec
			r.mu.Unlock()
		} else {
			w.WriteHeader(res.StatusCode)
			_, _ = w.Write(body)
			return
		}
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	_, _ = w.Write(rec.body)
}

func recordedKeys(b *testing.B, n int) string {
	s, err := mockserver.New(mockserver.Options{ScaleKeys: n - 2, FieldNames: "gitlab"})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(&recordedPages{pages: map[string]recorded{}, live: s})
	b.Cleanup(ts.Close)
	return ts.URL
}

// BenchmarkPeerList100kKeys lists 100,000 keys with errtrack's client and
// with go-gitlab's against the same recorded answers, in the same run.
func BenchmarkPeerList100kKeys(b *testing.B) {
	const n = 100000
	url := recordedKeys(b, n)
	ctx := context.Background()
	b.Run("errtrack", func(b *testing.B) {
		c, err := apiclient.New(url, mockserver.TokenMaintainer)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.ListClientKeys(ctx, apiclient.ProjectID(1)); err != nil { // warm the recording
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			keys, _, err := c.ListClientKeys(ctx, apiclient.ProjectID(1))
			if err != nil || len(keys) != n {
				b.Fatal(len(keys), err)
			}
		}
	})
	b.Run("go-gitlab", func(b *testing.B) {
		c, err := gitlab.NewClient(mockserver.TokenMaintainer, gitlab.WithBaseURL(url+"/api/v4"))
		if err != nil {
			b.Fatal(err)
		}
		list := func() {
			var all []*gitlab.ErrorTrackingClientKey
			opt := &gitlab.ListClientKeysOptions{ListOptions: gitlab.ListOptions{PerPage: 100, Page: 1}}
			for {
				keys, resp, err := c.ErrorTracking.ListClientKeys(1, opt)
				if err != nil {
					b.Fatal(err)
				}
				all = append(all, keys...)
				if resp.NextPage == 0 {
					break
				}
				opt.Page = int64(resp.NextPage)
			}
			if len(all) != n {
				b.Fatal(fmt.Sprint(len(all)))
			}
		}
		list() // warm the recording
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			list()
		}
	})
}
