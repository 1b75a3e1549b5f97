package apiclient

import "testing"

// A page of keys is decoded in one pass; it keeps the rules of a single
// key: either naming of the DSN, and no key without an ID.
func TestDecodeClientKeyPage(t *testing.T) {
	var keys []ClientKey
	if err := decodeClientKeys([]byte(`[{"id":3,"active":true,"public_key":"p","sentry_dsn":"s"},{"id":4,"errtracker_dsn":"e"}]`), &keys); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != (ClientKey{ID: 3, Active: true, PublicKey: "p", DSN: "s"}) || keys[1].DSN != "e" {
		t.Fatalf("%+v", keys)
	}
	for _, bad := range []string{`[{"active":true}]`, `[{"id":0}]`, `[null]`, `{"id":1}`, `[{"id":"1"}]`} {
		if err := decodeClientKeys([]byte(bad), &keys); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
