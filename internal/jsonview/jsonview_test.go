package jsonview

import (
	"strings"
	"testing"
)

func TestDepth(t *testing.T) {
	for s, want := range map[string]int{
		`{}`:                1,
		`{"a":[1,{"b":2}]}`: 3,
		`{"a":"[[[[{{{{"}`:  1,
		`["\"[[[", ["x"]]`:  2,
		strings.Repeat("[", 9000) + strings.Repeat("]", 9000): 9000,
	} {
		if got := Depth([]byte(s)); got != want {
			t.Errorf("%.40q: %d, want %d", s, got, want)
		}
	}
	if Indentable([]byte(strings.Repeat("[", 65) + strings.Repeat("]", 65))) {
		t.Error("65 deep indentable")
	}
	if !Indentable([]byte(`{"a":{"b":[1,2]}}`)) {
		t.Error("a plain answer is not indentable")
	}
}
