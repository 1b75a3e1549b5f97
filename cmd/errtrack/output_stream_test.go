package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

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
