package mockserver

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

const (
	defaultPerPage = 20
	maxPerPage     = 100
	// countLimit is where GitLab stops counting rows for offset pagination:
	// above it, no X-Total, X-Total-Pages or rel="last".
	countLimit = 10000
	// maxPage keeps page arithmetic far from overflow; beyond it every page
	// is empty anyway.
	maxPage = 1 << 40
)

type pageWindow struct{ start, end int }

// rubyInt reads the leading digits of s as Ruby's to_i does ("2abc" is 2):
// the number, capped at maxPage, and its digits without leading zeros, as
// an X-Page header echoes them however large ("" for none). ok reports
// whether s starts with a digit, which Kaminari requires.
func rubyInt(s string) (n int, digits string, ok bool) {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		if n < maxPage {
			n = n*10 + int(s[end]-'0')
		}
		end++
	}
	return min(n, maxPage), strings.TrimLeft(s[:end], "0"), end > 0
}

// paginate reads page and per_page as Kaminari does and sets GitLab's paging
// headers. per_page that does not start with a digit (abc, -1) is 20, above
// 100 is 100, and 0 fails with a 500, as Kaminari's zero page size does; it
// reports false when it answered.
func paginate(c *call, total int, pathParams map[string]string) (pageWindow, bool) {
	q := c.r.URL.Query()
	perPage := defaultPerPage
	if s := q.Get("per_page"); s != "" {
		if n, _, ok := rubyInt(s); ok {
			if n == 0 {
				writeError(c.w, http.StatusInternalServerError, "message", "500 Internal Server Error")
				return pageWindow{}, false
			}
			perPage = min(n, maxPerPage)
		}
	}
	page, pageDigits := 1, "1"
	if n, digits, ok := rubyInt(q.Get("page")); ok && n > 0 {
		page, pageDigits = n, digits
	}
	totalPages := max((total+perPage-1)/perPage, 1)
	counted := total <= countLimit

	h := c.w.Header()
	if counted {
		h.Set("X-Total", strconv.Itoa(total))
		h.Set("X-Total-Pages", strconv.Itoa(totalPages))
	}
	h.Set("X-Per-Page", strconv.Itoa(perPage))
	h.Set("X-Page", pageDigits)
	next, prev := "", ""
	if page < totalPages {
		next = strconv.Itoa(page + 1)
	}
	if page > 1 && page <= totalPages {
		prev = strconv.Itoa(page - 1)
	}
	h.Set("X-Next-Page", next)
	h.Set("X-Prev-Page", prev)

	scheme := schemeOf(c.r)
	link := func(p int, rel string) string {
		v := url.Values{}
		for k, vals := range q {
			v[k] = vals
		}
		for k, val := range pathParams {
			v.Set(k, val) // decoded: Encode encodes it once, id=demo%2Fweb-shop
		}
		v.Set("page", strconv.Itoa(p))
		v.Set("per_page", strconv.Itoa(perPage))
		return "<" + scheme + "://" + c.r.Host + c.r.URL.EscapedPath() + "?" + v.Encode() + `>; rel="` + rel + `"`
	}
	var links []string
	if prev != "" {
		links = append(links, link(page-1, "prev"))
	}
	if next != "" {
		links = append(links, link(page+1, "next"))
	}
	links = append(links, link(1, "first"))
	if counted {
		links = append(links, link(totalPages, "last"))
	}
	h.Set("Link", strings.Join(links, ", "))

	start := total
	if page <= totalPages {
		start = (page - 1) * perPage
	}
	return pageWindow{start, min(start+perPage, total)}, true
}

// servePage writes the page of a project's items the request asks for, with
// GitLab's headers; the project id in links is the one the request used.
func servePage[T any](c *call, items []T, body func(T) any) {
	id, _ := url.PathUnescape(c.segs[1])
	pg, ok := paginate(c, len(items), map[string]string{"id": id})
	if !ok {
		return
	}
	out := make([]any, 0, pg.end-pg.start)
	for _, it := range items[pg.start:pg.end] {
		out = append(out, body(it))
	}
	writeJSON(c.w, http.StatusOK, out)
}
