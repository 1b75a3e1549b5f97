// Command scriptrotate rotates, in every project of a group, the client key
// a CI/CD variable holds, as a script without errtrack's checks would:
// read the variable and the keys, create a key, write the variable, delete
// the old key (five requests a project), waiting out a 429 as the server
// says. No plan, no listing check after the create, no re-read of the
// variable before it is written: the yardstick for `errtrack keys rotate
// --group` under a rate limit. GITLAB_HOST and GITLAB_TOKEN name the server
// and the token; -fields gitlab reads sentry_dsn instead of errtracker_dsn.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	host, token string
	requests    atomic.Int64
)

type key struct {
	ID     int64  `json:"id"`
	DSN    string `json:"errtracker_dsn"`
	Sentry string `json:"sentry_dsn"`
}

func (k key) dsn() string { return k.DSN + k.Sentry }

func main() {
	group := flag.String("group", "fleet", "group path")
	variable := flag.String("variable", "SENTRY_DSN", "CI/CD variable holding the DSN")
	flag.Parse()
	host, token = os.Getenv("GITLAB_HOST"), os.Getenv("GITLAB_TOKEN")
	start := time.Now()
	var ids []int64
	for page := "1"; page != ""; {
		var ps []struct {
			ID int64 `json:"id"`
		}
		h := call(http.MethodGet, "/groups/"+url.PathEscape(*group)+"/projects?per_page=100&page="+page, nil, &ps)
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		page = h.Get("X-Next-Page")
	}
	var failed atomic.Int64
	work := make(chan int64)
	var wg sync.WaitGroup
	for range 3 { // three at a time, as errtrack
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				if !rotate(id, *variable) {
					failed.Add(1)
				}
			}
		}()
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	fmt.Printf("%d projects, %d failed, %d requests (%.2f a project), %.1f s\n",
		len(ids), failed.Load(), requests.Load(), float64(requests.Load())/float64(len(ids)), time.Since(start).Seconds())
}

// rotate replaces the key the variable's DSN is of, in project id.
func rotate(id int64, variable string) bool {
	p := fmt.Sprintf("/projects/%d", id)
	var v struct {
		Value string `json:"value"`
	}
	if call(http.MethodGet, p+"/variables/"+variable, nil, &v) == nil {
		return false
	}
	var keys []key
	if call(http.MethodGet, p+"/error_tracking/client_keys?per_page=100", nil, &keys) == nil {
		return false
	}
	old := int64(0)
	for _, k := range keys {
		if k.dsn() == v.Value {
			old = k.ID
		}
	}
	var made key
	if old == 0 || call(http.MethodPost, p+"/error_tracking/client_keys", nil, &made) == nil {
		return false
	}
	if call(http.MethodPut, p+"/variables/"+variable, url.Values{"value": {made.dsn()}}, nil) == nil {
		return false
	}
	return call(http.MethodDelete, fmt.Sprintf("%s/error_tracking/client_keys/%d", p, old), nil, nil) != nil
}

// call sends one request, again after a 429 once the server's wait is
// over; it decodes the answer into out and returns its header, nil when
// the request failed.
func call(method, path string, form url.Values, out any) http.Header {
	for {
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, err := http.NewRequest(method, host+"/api/v4"+path, body)
		if err != nil {
			return nil
		}
		req.Header.Set("PRIVATE-TOKEN", token)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		requests.Add(1)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			time.Sleep(time.Duration(max(wait, 1)) * time.Second)
			continue
		}
		if resp.StatusCode >= 300 {
			return nil
		}
		if out != nil && json.Unmarshal(b, out) != nil {
			return nil
		}
		return resp.Header
	}
}
