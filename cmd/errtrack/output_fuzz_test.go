package main

import (
	"bytes"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

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
