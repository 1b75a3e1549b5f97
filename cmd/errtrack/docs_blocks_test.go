package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The documentation's pages, from this package's directory.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	return append([]string{"../../README.md"}, pages...)
}

// docBlock is a fenced code block of a page: its info string and lines.
type docBlock struct {
	info  string
	line  int // the fence's line, 1-based
	lines []string
}

// fencedBlocks reads a page's fenced code blocks (indented ones included).
func fencedBlocks(text string) []docBlock {
	var out []docBlock
	var cur *docBlock
	for i, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(l)
		if cur == nil {
			if info, ok := strings.CutPrefix(trimmed, "```"); ok {
				cur = &docBlock{info: strings.TrimSpace(info), line: i + 1}
			}
			continue
		}
		if trimmed == "```" {
			out = append(out, *cur)
			cur = nil
			continue
		}
		cur.lines = append(cur.lines, trimmed)
	}
	return out
}

// shellWords splits a line as a POSIX shell would for the examples' needs:
// quotes, a comment, and the operators |, >, 2>, &&, ; as words of their own.
func shellWords(line string) (words []string, comment string, err error) {
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, "", fmt.Errorf("unclosed quote")
			}
			w.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case ch == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return nil, "", fmt.Errorf("unclosed quote")
			}
			w.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case ch == '#' && !inWord:
			return words, strings.TrimSpace(line[i+1:]), nil
		case ch == ' ' || ch == '\t':
			flush()
		case ch == '|' || ch == ';' || ch == '>' || ch == '<' || (ch == '&' && i+1 < len(line) && line[i+1] == '&'):
			if ch == '>' && inWord && w.String() == "2" {
				w.Reset()
				inWord = false
			}
			flush()
			op := string(ch)
			if ch == '&' {
				op, i = "&&", i+1
			}
			words = append(words, op)
		case ch == '$' && i+1 < len(line) && line[i+1] == '(':
			return nil, "", fmt.Errorf("command substitution is not run by the docs test: write the command on its own line")
		default:
			w.WriteByte(ch)
			inWord = true
		}
	}
	flush()
	return words, "", nil
}

// docCommand is one errtrack command of an example.
type docCommand struct {
	args  []string
	env   map[string]string
	stdin string
	code  int
	// version, from a comment "against --gitlab-version X": the GitLab
	// release the mock answers as for this example.
	version string
	// clone, from a comment "in a clone of P": the example runs in a git
	// clone whose origin is the mock's project P.
	clone string
}

var (
	exitComment    = regexp.MustCompile(`\bexit (\d+)\b`)
	versionComment = regexp.MustCompile(`\bagainst --gitlab-version (\S+)`)
	cloneComment   = regexp.MustCompile(`\bin a clone of (\S+)`)
)

// parseCommand finds the errtrack command of an example line: ok is false
// for a line that runs no errtrack (make demo, git clone).
func parseCommand(line string) (cmd docCommand, ok bool, err error) {
	words, comment, err := shellWords(line)
	if err != nil || len(words) == 0 {
		return cmd, false, err
	}
	// The segments between |, &&, ;: the errtrack one is run, a
	// printenv or echo before a | gives its standard input.
	var segs [][]string
	seg := []string{}
	for _, w := range words {
		if w == "|" || w == "&&" || w == ";" {
			segs = append(segs, seg)
			seg = []string{}
			seg = append(seg, w)
			continue
		}
		seg = append(seg, w)
	}
	segs = append(segs, seg)
	for i, s := range segs {
		sep := ""
		if i > 0 {
			sep, s = s[0], s[1:]
		}
		env := map[string]string{}
		for len(s) > 0 && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(s[0]) {
			k, v, _ := strings.Cut(s[0], "=")
			env[k] = v
			s = s[1:]
		}
		if len(s) == 0 || s[0] != "errtrack" {
			continue
		}
		cmd = docCommand{env: env}
		for _, w := range s[1:] {
			if w == ">" || w == "<" {
				break // a redirect: the output is checked, not written
			}
			cmd.args = append(cmd.args, w)
		}
		if sep == "|" {
			prev := segs[i-1]
			if i > 1 {
				prev = prev[1:]
			}
			switch {
			case len(prev) == 2 && prev[0] == "echo":
				cmd.stdin = prev[1] + "\n"
			case len(prev) == 2 && prev[0] == "printenv":
			default:
				return cmd, false, fmt.Errorf("only echo or printenv may feed errtrack here")
			}
		}
		if m := exitComment.FindStringSubmatch(comment); m != nil {
			cmd.code, _ = strconv.Atoi(m[1])
		}
		if m := versionComment.FindStringSubmatch(comment); m != nil {
			cmd.version = m[1]
		}
		if m := cloneComment.FindStringSubmatch(comment); m != nil {
			cmd.clone = m[1]
		}
		return cmd, true, nil
	}
	return cmd, false, nil
}
