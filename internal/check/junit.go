package check

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/errtrack/errtrack/internal/safetext"
)

// JUnit is the report GitLab shows as a pipeline's tests: a suite per
// rule, a passing case per project the rule holds in, a failing case per
// finding (GitLab reads one failure per case), an erroring case per
// project the rule could not be checked in.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the results as JUnit XML.
func WriteJUnit(w io.Writer, results []Result) error {
	all := junitSuites{Name: "errtrack check"}
	for _, rule := range RuleNames {
		s := junitSuite{Name: rule}
		for _, r := range results {
			if !contains(r.Rules, rule) {
				continue
			}
			class := "errtrack." + rule
			n := 0
			for _, f := range r.Findings {
				if f.Rule != rule {
					continue
				}
				n++
				name := r.Project
				if f.Key != "" {
					name += " key " + f.Key
				}
				if f.Variable != "" {
					name += " " + f.Variable
				}
				s.Cases = append(s.Cases, junitCase{Name: clean(name), ClassName: class,
					Failure: &junitProblem{Message: clean(f.What), Text: clean(f.What) + "\nfix: " + clean(f.Fix)}})
				s.Failures++
			}
			var why []string
			for _, u := range r.Unchecked {
				if contains(u.Rules, rule) {
					why = append(why, clean(u.Why))
				}
			}
			switch {
			case len(why) > 0:
				s.Cases = append(s.Cases, junitCase{Name: clean(r.Project + " (not checked)"), ClassName: class,
					Error: &junitProblem{Message: "could not be checked", Text: strings.Join(why, "\n")}})
				s.Errors++
			case n == 0:
				s.Cases = append(s.Cases, junitCase{Name: clean(r.Project), ClassName: class})
			}
		}
		if len(s.Cases) == 0 {
			continue
		}
		s.Tests = len(s.Cases)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Suites = append(all.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// clean strips what a server may have put in a name (control characters,
// escapes): XML refuses most of them.
func clean(s string) string { return safetext.Excerpt(s, 2000) }
