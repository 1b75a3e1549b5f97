package dsn

import (
	"strings"
)

// A file-type CI/CD variable holds a file's content, often a dotenv file:
// SENTRY_DSN=… on a line of its own among others. Its DSNs are found, and
// replaced, line by line.

// maxFileLines bounds the lines read of one variable: GitLab caps a
// variable's value far below it.
const maxFileLines = 10000

// FileLine is a DSN found on a line of a file variable.
type FileLine struct {
	// Key is the dotenv name before '=' ("" for a line that is a DSN on
	// its own); Value the DSN as written, quotes removed.
	Key, Value string
	// N is the line's number, from 1.
	N int
}

// InFile finds the DSNs content holds, one per line at most: a dotenv line
// (KEY=VALUE, optionally after "export ", the value bare or in ' or "
// quotes, a bare value ending at " #"), or a line that is a DSN alone.
func InFile(content string) []FileLine {
	var out []FileLine
	for n, line := range lines(content) {
		key, start, end, ok := valueSpan(line)
		if !ok {
			continue
		}
		if _, ok := Canonical(line[start:end]); ok {
			out = append(out, FileLine{Key: key, Value: line[start:end], N: n + 1})
		}
	}
	return out
}

// ReplaceInFile replaces, on every line whose value is old's DSN (Same), that
// value by repl, keeping the line's name, quotes and comment, and every
// other line and line ending as they are. n is how many lines changed.
func ReplaceInFile(content, old, repl string) (string, int) {
	var b strings.Builder
	n := 0
	rest := content
	for i := 0; rest != "" && i < maxFileLines; i++ {
		line, nl, found := strings.Cut(rest, "\n")
		body := strings.TrimSuffix(line, "\r")
		if _, start, end, ok := valueSpan(body); ok && Same(body[start:end], old) {
			line = body[:start] + repl + body[end:] + line[len(body):]
			n++
		}
		b.WriteString(line)
		if found {
			b.WriteByte('\n')
		}
		rest = nl
	}
	b.WriteString(rest) // past maxFileLines: kept as it is
	return b.String(), n
}

// lines splits content into at most maxFileLines lines, without their
// line endings (\n or \r\n).
func lines(content string) []string {
	ls := strings.SplitN(content, "\n", maxFileLines+1)
	if len(ls) > maxFileLines {
		ls = ls[:maxFileLines]
	}
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// valueSpan finds the value of a line: for KEY=VALUE the value's bounds
// within the line (inside its quotes), for a line of one word that word.
func valueSpan(line string) (key string, start, end int, ok bool) {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	rest := line[i:]
	if strings.HasPrefix(rest, "export ") {
		i += len("export ")
		i += len(line[i:]) - len(strings.TrimLeft(line[i:], " \t"))
		rest = line[i:]
	}
	eq := strings.IndexByte(rest, '=')
	if eq < 0 || !isName(strings.TrimRight(rest[:eq], " \t")) {
		// No name: the line is a value on its own, or nothing.
		w := strings.TrimSpace(line)
		if w == "" || strings.ContainsAny(w, " \t") {
			return "", 0, 0, false
		}
		s := strings.Index(line, w)
		return "", s, s + len(w), true
	}
	key = strings.TrimRight(rest[:eq], " \t")
	start = i + eq + 1
	start += len(line[start:]) - len(strings.TrimLeft(line[start:], " \t"))
	if start < len(line) && (line[start] == '"' || line[start] == '\'') {
		q := line[start]
		closing := strings.IndexByte(line[start+1:], q)
		if closing < 0 {
			return "", 0, 0, false
		}
		return key, start + 1, start + 1 + closing, true
	}
	end = len(line)
	if c := strings.Index(line[start:], " #"); c >= 0 {
		end = start + c
	}
	end = start + len(strings.TrimRight(line[start:end], " \t"))
	return key, start, end, start < end
}

// isName reports a dotenv variable name: letters, digits and '_', not
// starting with a digit.
func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
