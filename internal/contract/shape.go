package contract

import (
	"fmt"
)

// Compare lists how got differs from GitLab's answer want in shape: a
// field one has and the other lacks, a JSON type that differs (null goes
// with any type: a nullable field), and, in a list of objects with ids,
// other ids or another order. Values are not compared: a mock's keys are
// its own.
func Compare(want, got any) []string { return Shapes{Server: "GitLab", ByID: true}.Compare(want, got) }

// Shapes compares answers with a server's (Server names it in the
// differences); ByID compares lists of objects with ids by their ids,
// else by their length.
type Shapes struct {
	Server string
	ByID   bool
}

// Compare lists how got differs from the server's answer want in shape.
func (s Shapes) Compare(want, got any) []string {
	var out []string
	s.compare(&out, "$", want, got)
	return out
}

func (s Shapes) compare(out *[]string, at string, want, got any) {
	if want == nil || got == nil {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %s, %s's an object", at, kind(got), s.Server))
			return
		}
		for _, k := range sortedKeys(w) {
			if _, ok := g[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: missing", at, k))
				continue
			}
			s.compare(out, at+"."+k, w[k], g[k])
		}
		for _, k := range sortedKeys(g) {
			if _, ok := w[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: a field %s does not send", at, k, s.Server))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %s, %s's a list", at, kind(got), s.Server))
			return
		}
		if wi, gi := ids(w), ids(g); s.ByID && (wi != "" || gi != "") {
			if wi != gi {
				*out = append(*out, fmt.Sprintf("%s: ids %s, %s's %s", at, gi, s.Server, wi))
			}
		} else if len(w) != len(g) {
			*out = append(*out, fmt.Sprintf("%s: %d items, %s's %d", at, len(g), s.Server, len(w)))
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			s.compare(out, fmt.Sprintf("%s[%d]", at, i), w[i], g[i])
		}
	default:
		if kind(want) != kind(got) {
			*out = append(*out, fmt.Sprintf("%s: %s, %s's %s", at, kind(got), s.Server, kind(want)))
		}
	}
}

// ids is the ids of a list of objects, "" when they have none.
func ids(list []any) string {
	s := ""
	for _, el := range list {
		m, ok := el.(map[string]any)
		if !ok {
			return ""
		}
		id, ok := m["id"]
		if !ok {
			return ""
		}
		s += fmt.Sprint(id) + " "
	}
	return s
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
