package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// JSON for people and jq alike: '>' in a fix ("Settings > Monitor") is
// written as it is, not as \u003e, in every shape writeJSON takes.
func TestJSONKeepsHTMLCharacters(t *testing.T) {
	for _, v := range []any{
		map[string]string{"fix": "Settings > Monitor > Error Tracking & <more>"},
		[]map[string]string{{"fix": "Settings > Monitor > Error Tracking & <more>"}},
		[]apiclient.ClientKey{{ID: 1, PublicKey: "a<b>&c", DSN: "Settings > Monitor > Error Tracking & <more>"}},
	} {
		var b bytes.Buffer
		if err := writeJSON(&b, v); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), `\u00`) || !strings.Contains(b.String(), "Settings > Monitor > Error Tracking & <more>") {
			t.Errorf("%T written as\n%s", v, b.String())
		}
	}
}

// The doctor's fixes name GitLab's menus with '>': its JSON keeps them.
func TestDoctorJSONKeepsGreaterThan(t *testing.T) {
	c := newCLI(t, nil)
	r := c.run("", "doctor", "-p", "demo/mobile-app", "--json")
	if strings.Contains(r.stdout, `\u003e`) || !strings.Contains(r.stdout, "Settings > Monitor > Error Tracking") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestHostileServerOutputIsSafe(t *testing.T) {
	t.Parallel()
	const evil = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\u200b\U000e0041"
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(evil)
		s := string(b)
		if strings.HasSuffix(r.URL.Path, "/settings") {
			w.Write([]byte(`{"active":true,"integrated":true,"project_name":` + s + `,"api_url":` + s + `}`))
			return
		}
		if r.Method == "DELETE" {
			w.WriteHeader(403)
			w.Write([]byte(`{"message":` + s + `}`))
			return
		}
		w.Write([]byte(`[{"id":1,"active":true,"public_key":` + s + `,"sentry_dsn":` + s + `}]`))
	}))
	for _, args := range [][]string{
		{"settings", "get", "-p", "1"}, {"settings", "get", "-p", "1", "--json"},
		{"keys", "list", "-p", "1"}, {"keys", "list", "-p", "1", "--json"},
		{"keys", "delete", "-p", "1", "1", "--yes"},
	} {
		r := c.run("", args...)
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u200b", "\U000e0041"} {
			if strings.Contains(r.stdout+r.stderr, bad) {
				t.Fatalf("%v printed %q:\n%q\n%q", args, bad, r.stdout, r.stderr)
			}
		}
	}
	r := c.run("", "keys", "list", "-p", "1", "--json")
	var keys []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || keys[0]["public_key"] != evil {
		t.Fatalf("JSON does not round-trip: %v %q", err, r.stdout)
	}
}

// The client keys' own JSON writer writes exactly what encoding/json and
// escapeTo write, whatever the server's text holds.
func FuzzKeysJSON(f *testing.F) {
	f.Add(int64(1), true, "glet_abc", "https://glet_abc@gitlab.example.com/errortracking/api/v1/projects/1")
	f.Add(int64(-7), false, "a\"b\\c<d>e&f\n\t\x00\x1b[31m", "\u2028\u2029\u0085\u200b\U000e0001\xff\xfe")
	f.Add(int64(0), false, "", "é中😀\u00ad\ufffd")
	f.Fuzz(func(t *testing.T, id int64, active bool, pk, dsn string) {
		keys := []apiclient.ClientKey{{ID: id, Active: active, PublicKey: pk, DSN: dsn}, {ID: 2, PublicKey: dsn, DSN: pk}}
		var fast, slow bytes.Buffer
		if err := writeJSON(&fast, keys); err != nil {
			t.Fatal(err)
		}
		if err := writeJSONReflect(&slow, keys); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
			t.Fatalf("fast:\n%s\nencoding/json:\n%s", fast.Bytes(), slow.Bytes())
		}
	})
}

// A streamed list reads as json.MarshalIndent would have written it, and
// the terminal-unsafe characters are escaped in it as everywhere.
func TestWriteJSONStreamsListsAsMarshalIndent(t *testing.T) {
	t.Parallel()
	keys := []apiclient.ClientKey{{ID: 1, Active: true, PublicKey: "a\u202eb", DSN: "x\u0085y"}, {ID: 2, PublicKey: "plain"}}
	var got bytes.Buffer
	if err := writeJSON(&got, keys); err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(keys, "", "  ")
	plain := strings.NewReplacer(`\u202e`, "\u202e", `\u0085`, "\u0085").Replace(got.String())
	if plain != string(want)+"\n" {
		t.Fatalf("got\n%s\nwant\n%s", plain, want)
	}
	if strings.ContainsRune(got.String(), '\u202e') || strings.ContainsRune(got.String(), '\u0085') {
		t.Fatalf("unsafe characters left raw: %q", got.String())
	}
	var back []apiclient.ClientKey
	if err := json.Unmarshal(got.Bytes(), &back); err != nil || back[0].PublicKey != "a\u202eb" {
		t.Fatalf("%v %+v", err, back)
	}
	for _, v := range []any{[]int{}, []int(nil), map[string]int{"a": 1}} {
		got.Reset()
		_ = writeJSON(&got, v)
		w, _ := json.MarshalIndent(v, "", "  ")
		if got.String() != string(w)+"\n" {
			t.Errorf("%#v: %q", v, got.String())
		}
	}
}

func TestWriteJSONRawIsNotAList(t *testing.T) {
	t.Parallel()
	for _, v := range []any{json.RawMessage(`{"a":1}`), []byte("hi")} {
		var got bytes.Buffer
		_ = writeJSON(&got, v)
		w, _ := json.MarshalIndent(v, "", "  ")
		if got.String() != string(w)+"\n" {
			t.Errorf("%T: %q", v, got.String())
		}
	}
}
