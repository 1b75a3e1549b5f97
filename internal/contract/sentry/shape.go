package sentry

import (
	"fmt"
	"sort"
)

// Shape lists how got differs from want in shape: a field one has and the
// other lacks, a JSON type that differs (null goes with any type: a
// nullable field), a list of another length. Values are not compared: the
// mock's keys and dates are its own.
func Shape(want, got any) []string {
	var out []string
	shape(&out, "$", want, got)
	return out
}

func shape(out *[]string, at string, want, got any) {
	if want == nil || got == nil {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %s, Sentry's an object", at, kind(got)))
			return
		}
		for _, k := range keys(w) {
			if _, ok := g[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: missing", at, k))
				continue
			}
			shape(out, at+"."+k, w[k], g[k])
		}
		for _, k := range keys(g) {
			if _, ok := w[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: a field Sentry does not send", at, k))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %s, Sentry's a list", at, kind(got)))
			return
		}
		if len(w) != len(g) {
			*out = append(*out, fmt.Sprintf("%s: %d items, Sentry's %d", at, len(g), len(w)))
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			shape(out, fmt.Sprintf("%s[%d]", at, i), w[i], g[i])
		}
	default:
		if kind(want) != kind(got) {
			*out = append(*out, fmt.Sprintf("%s: %s, Sentry's %s", at, kind(got), kind(want)))
		}
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
