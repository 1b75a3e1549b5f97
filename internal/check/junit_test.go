package check

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// The JUnit report parses: a failing case per finding, a passing case
// per project a rule holds in, an error where it could not be checked.
func TestWriteJUnit(t *testing.T) {
	p := policy(t, "rules: {unused_keys: {days: 30}, no_dangling_dsn: true, key_max_age: {days: 500}}")
	a := Evaluate(p, project(), now)
	pr := project()
	pr.Audit.Project.Path = "g/other\x1b[31m"
	pr.Audit.Unread = map[string]error{"g": apiclient.ErrForbidden}
	b := Evaluate(p, pr, now)
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, []Result{a, b}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err, buf.String())
	}
	failures, errs, passes := 0, 0, 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				failures++
			case c.Error != nil:
				errs++
			default:
				passes++
			}
		}
	}
	if want := len(a.Findings) + len(b.Findings); failures != want || doc.Failures != want || doc.Errors != errs || errs != 2 || passes != 2 {
		t.Fatalf("%d failures (want %d), %d errors (want 2), %d passes (want 2: key-max-age in both)\n%s", failures, want, errs, passes, buf.String())
	}
	if strings.Contains(buf.String(), "\x1b") {
		t.Fatal("an escape reached the report")
	}
}
