package mockserver

import (
	"net/url"
	"strconv"
	"strings"
)

const (
	defaultPerPage = 20
	maxPerPage     = 100
)

type pageWindow struct{ start, end int }

// paginate reads page/per_page as Kaminari does (junk falls back to the
// defaults, per_page is clamped to 100) and sets GitLab's paging headers.
func paginate(c *call, total int, pathParams map[string]string) pageWindow {
	q := c.r.URL.Query()
	perPage := atoiOr(q.Get("per_page"), defaultPerPage)
	if perPage <= 0 {
		perPage = defaultPerPage
	}
	perPage = min(perPage, maxPerPage)
	page := max(atoiOr(q.Get("page"), 1), 1)
	totalPages := max((total+perPage-1)/perPage, 1)
	// A page far beyond the last is an empty page, and (page-1)*perPage
	// must not overflow on ?page=9223372036854775807.
	page = min(page, totalPages+1)

	h := c.w.Header()
	h.Set("X-Total", strconv.Itoa(total))
	h.Set("X-Total-Pages", strconv.Itoa(totalPages))
	h.Set("X-Per-Page", strconv.Itoa(perPage))
	h.Set("X-Page", strconv.Itoa(page))
	next, prev := "", ""
	if page < totalPages {
		next = strconv.Itoa(page + 1)
	}
	if page > 1 {
		prev = strconv.Itoa(page - 1)
	}
	h.Set("X-Next-Page", next)
	h.Set("X-Prev-Page", prev)

	link := func(p int, rel string) string {
		v := url.Values{}
		for k, vals := range q {
			v[k] = vals
		}
		for k, val := range pathParams {
			v.Set(k, val)
		}
		v.Set("page", strconv.Itoa(p))
		v.Set("per_page", strconv.Itoa(perPage))
		return "<http://" + c.r.Host + c.r.URL.EscapedPath() + "?" + v.Encode() + `>; rel="` + rel + `"`
	}
	var links []string
	if prev != "" {
		links = append(links, link(page-1, "prev"))
	}
	if next != "" {
		links = append(links, link(page+1, "next"))
	}
	links = append(links, link(1, "first"), link(totalPages, "last"))
	h.Set("Link", strings.Join(links, ", "))

	start := min((page-1)*perPage, total)
	return pageWindow{start, min(start+perPage, total)}
}

func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return def
	}
	return n
}
