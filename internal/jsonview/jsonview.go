// Package jsonview decides whether an answer can be pretty-printed: the
// indentation of JSON nested n deep costs n² bytes (a 90 KB answer nested
// 9,000 deep became 810 MB), so past a depth or a size it is shown as
// received.
package jsonview

// MaxDepth and MaxSize bound what is indented: GitLab's answers nest a few
// levels and weigh kilobytes.
const (
	MaxDepth = 64
	MaxSize  = 4 << 20
)

// Indentable reports that b (valid JSON) is small and shallow enough to
// indent.
func Indentable(b []byte) bool {
	return len(b) <= MaxSize && Depth(b) <= MaxDepth
}

// Depth is the deepest nesting of objects and arrays in b, strings skipped.
func Depth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
