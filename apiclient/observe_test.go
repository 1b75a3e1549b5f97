package apiclient

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The request log's "copy as curl" must reproduce the request: each copied
// command runs in bash against the mock server, with the token only in
// $GITLAB_TOKEN, and gets the status the console got.
func TestCurlReproducesRequests(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is needed (.ci/run installs it)")
	}
	ctx := context.Background()
	var seen []Exchange
	c, s := againstMock(t, mockserver.Options{}, mockserver.TokenMaintainer, WithObserver(func(e Exchange) { seen = append(seen, e) }))
	p, _ := ParseProjectRef("demo/web-shop")
	no := false
	if _, _, err := c.UpdateSettings(ctx, p, false, &no); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CreateVariable(ctx, p, NewVariable{Key: "QUOTED", Value: `it's "x"`}); err != nil {
		t.Fatal(err)
	}
	keys, _, err := c.ListClientKeys(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendTestEvent(ctx, keys[0].DSN, "line one\nline 'two'"); err != nil {
		t.Fatal(err)
	}
	recorded := append([]Exchange(nil), seen...)
	if len(recorded) != 4 {
		t.Fatalf("%d exchanges", len(recorded))
	}
	// Undo the writes, so that the copied commands' own effects show.
	yes := true
	if _, _, err := c.UpdateSettings(ctx, p, true, &yes); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Raw(ctx, "DELETE", "projects/1/variables/QUOTED", nil, nil); err != nil {
		t.Fatal(err)
	}
	for i, e := range recorded {
		curl := e.Curl()
		if strings.Contains(curl, mockserver.TokenMaintainer) || strings.ContainsAny(curl, "\n\r") {
			t.Fatalf("curl %d holds the token or a line break: %s", i, curl)
		}
		cmd := exec.Command("bash", "-c", curl+" --silent --show-error --output /dev/null --write-out '%{http_code}'")
		// A variable's value is never kept: the command takes it from
		// $VARIABLE_VALUE, JSON-escaped.
		cmd.Env = append(os.Environ(), "GITLAB_TOKEN="+mockserver.TokenMaintainer, `VARIABLE_VALUE=it's \"x\"`)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(e.Status) {
			t.Fatalf("curl %d: %s\n%s (%v), want %d", i, curl, out, err, e.Status)
		}
	}
	if st, _, err := c.GetSettings(ctx, p); err != nil || st.Active {
		t.Fatalf("the copied PATCH did not disable the settings: %+v %v", st, err)
	}
	if v, _, err := c.GetVariable(ctx, p, "QUOTED", ""); err != nil || *v.Value != `it's "x"` {
		t.Fatalf("the copied POST did not recreate the variable as it was: %+v %v", v, err)
	}
	if s.Envelopes(1) != 2 {
		t.Fatalf("%d envelopes: the copied envelope was not accepted", s.Envelopes(1))
	}
}

// Against a server with a private CA, the copied command carries --cacert.
func TestCurlCarriesTheCAFile(t *testing.T) {
	s, err := mockserver.New(mockserver.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = run.Close(context.Background()) })
	var seen []Exchange
	c, err := New(run.URL, mockserver.TokenMaintainer, WithCAFile(run.CAFile), WithObserver(func(e Exchange) { seen = append(seen, e) }))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.GetSettings(context.Background(), ProjectID(1)); err != nil {
		t.Fatal(err)
	}
	curl := seen[0].Curl()
	if !strings.Contains(curl, "--cacert '"+run.CAFile+"'") {
		t.Fatalf("no --cacert: %s", curl)
	}
	cmd := exec.Command("bash", "-c", curl+" --silent --show-error --output /dev/null --write-out '%{http_code}'")
	cmd.Env = append(os.Environ(), "GITLAB_TOKEN="+mockserver.TokenMaintainer)
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "200" {
		t.Fatalf("%s\n%s (%v)", curl, out, err)
	}
}

// The request log sees every exchange, retries included, with the token
// replaced; its curl repeats the request with $GITLAB_TOKEN.
func TestObserverAndCurl(t *testing.T) {
	var seen []Exchange
	var calls atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			jsonReply(w, 503, `{"message":"busy"}`)
			return
		}
		jsonReply(w, 200, `{"active":false,"integrated":true,"echo":"`+fakeToken+`"}`)
	}, WithObserver(func(e Exchange) { seen = append(seen, e) }))
	ref, _ := ParseProjectRef("demo/web-shop")
	if _, _, err := c.UpdateSettings(context.Background(), ref, false, nil); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0].Status != 503 || seen[0].Attempt != 1 || seen[1].Attempt != 2 || seen[1].Status != 200 || seen[1].Err != nil {
		t.Fatalf("%+v", seen)
	}
	e := seen[1]
	if !strings.HasSuffix(e.URL, "/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false") || e.Method != "PATCH" {
		t.Fatalf("url %s", e.URL)
	}
	if e.RequestHeader.Get("PRIVATE-TOKEN") != "[redacted]" || strings.Contains(string(e.ResponseBody), fakeToken) {
		t.Fatal("the token is in the exchange")
	}
	want := `curl --request PATCH --header "PRIVATE-TOKEN: $GITLAB_TOKEN" '` + e.URL + `'`
	if got := e.Curl(); got != want || strings.Contains(got, fakeToken) {
		t.Fatalf("curl\n%s\nwant\n%s", got, want)
	}
	if q := shellQuote("it's"); q != `'it'\''s'` {
		t.Fatal(q)
	}
}
