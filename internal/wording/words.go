// Package wording holds the few words both front ends share: counts,
// sentences, and how an error is worded (each front end its own Explainer).
package wording

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plural words a count: "1 variable holds", "2 variables hold".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Projects counts projects in words for both front ends: "1 marked
// project", "3 projects".
func Projects(n int, adjective string) string {
	if adjective != "" {
		adjective += " "
	}
	return Plural(n, adjective+"project", adjective+"projects")
}

// Sentence ends s with a full stop unless it ends a sentence already.
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// Capitalize upper-cases s's first letter.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// Explainer words an error for the user (the front end's explain).
type Explainer func(error) string
