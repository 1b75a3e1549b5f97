package mocksentry

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// cursor is Sentry's "value:offset:is_prev" (src/sentry/utils/cursors.py).
type cursor struct {
	value, offset int64
	prev          bool
	has           bool // has_results: the Link's results="true"
}

func (c cursor) String() string {
	p := 0
	if c.prev {
		p = 1
	}
	return fmt.Sprintf("%d:%d:%d", c.value, c.offset, p)
}

// parseCursor is Cursor.from_string; a malformed one is the 400 of
// Endpoint.get_cursor_from_request.
func parseCursor(s string) (cursor, bool) {
	bits := strings.Split(s, ":")
	if len(bits) != 3 {
		return cursor{}, false
	}
	var n [3]int64
	for i, b := range bits {
		v, err := strconv.ParseInt(b, 10, 64)
		if err != nil {
			return cursor{}, false
		}
		n[i] = v
	}
	return cursor{value: n[0], offset: n[1], prev: n[2] != 0}, true
}

// pageParams reads per_page (clamp_pagination_per_page) and cursor. It
// writes the 400 and reports false when either is malformed.
func pageParams(w http.ResponseWriter, r *http.Request, defaultPerPage int) (int, *cursor, bool) {
	q := r.URL.Query()
	per := defaultPerPage
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "Invalid per_page parameter."})
			return 0, nil, false
		}
		if maxPer := max(100, defaultPerPage); n > maxPer {
			writeJSON(w, http.StatusBadRequest, map[string]string{"detail": fmt.Sprintf("Invalid per_page value. Cannot exceed %d.", maxPer)})
			return 0, nil, false
		}
		per = n
	}
	if v := q.Get("cursor"); v != "" {
		c, ok := parseCursor(v)
		if !ok {
			writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "Invalid cursor parameter."})
			return 0, nil, false
		}
		return per, &c, true
	}
	return per, nil, true
}

// pageByID is Paginator.get_result for order_by="-id" (BasePaginator in
// src/sentry/api/paginator.py, build_cursor in utils/cursors.py), on ids
// sorted newest first. It returns the page's ids and the two cursors.
func pageByID(ids []int64, limit int, cur *cursor) (page []int64, next, prev cursor) {
	c := cursor{}
	if cur != nil {
		c = *cur
	}
	// build_queryset: with a descending key, a prev cursor reads ascending.
	asc := c.prev
	var qs []int64
	if asc {
		for i := len(ids) - 1; i >= 0; i-- {
			if c.value == 0 || ids[i] >= c.value {
				qs = append(qs, ids[i])
			}
		}
	} else {
		for _, id := range ids {
			if c.value == 0 || id <= c.value {
				qs = append(qs, id)
			}
		}
	}
	extra := int64(1)
	if c.prev && c.value != 0 {
		extra++
	}
	lo := min(max(c.offset, 0), int64(len(qs)))
	hi := min(lo+int64(limit)+extra, int64(len(qs)))
	results := append([]int64(nil), qs[lo:hi]...)
	if c.prev && c.value != 0 {
		if len(results) > 0 && results[0] == c.value {
			results = results[1:]
		} else if int64(len(results)) == c.offset+int64(limit)+extra {
			results = results[:len(results)-1]
		}
	}
	if c.prev {
		for i, j := 0, len(results)-1; i < j; i, j = i+1, j-1 {
			results[i], results[j] = results[j], results[i]
		}
	}
	next, prev = buildCursor(results, limit, c)
	switch {
	case c.prev && prev.has:
		results = results[1:]
	case !c.prev && len(results) > limit:
		results = results[:limit]
	}
	return results, next, prev
}

// buildCursor is build_cursor with is_desc and integer keys.
func buildCursor(results []int64, limit int, c cursor) (next, prev cursor) {
	n := len(results)
	// _build_next_values
	value, offset := c.value, c.offset
	if value == 0 && n > 0 {
		value = results[0]
	}
	switch {
	case c.prev:
		next = cursor{value: value, offset: 0, has: true}
	case n == 0:
		next = cursor{value: value, offset: offset}
	default:
		hasNext := n > limit
		nv := results[n-1]
		if nv == value {
			next = cursor{value: nv, offset: offset + int64(limit), has: hasNext}
			break
		}
		var no int64
		i := n - 1
		if hasNext {
			i--
		}
		for ; i >= 0 && results[i] <= nv; i-- {
			no++
		}
		next = cursor{value: nv, offset: no, has: hasNext}
	}
	// _build_prev_values: value is the cursor's own.
	var hasPrev bool
	if c.prev {
		hasPrev = n > limit
	} else {
		hasPrev = c.value != 0 || c.offset != 0
	}
	first := 0
	if c.prev && hasPrev {
		first = 1
	}
	var pv int64
	if n > first {
		pv = results[first]
	}
	po := int64(0)
	if c.prev {
		po = c.offset
	}
	prev = cursor{value: pv, offset: po, prev: true, has: hasPrev}
	if c.prev && n > 0 {
		if pv == c.value {
			prev.offset = c.offset + int64(limit)
		} else {
			prev.offset = 0
			i := 1
			if hasPrev {
				i = 2
			}
			for ; i < n && results[i] >= pv; i++ {
				prev.offset++
			}
		}
	}
	return next, prev
}

// offsetPage is OffsetPaginator.get_result: the cursor's value is the page
// size and its offset the page number.
func offsetPage(n, limit int, cur *cursor) (lo, hi int, next, prev cursor, ok bool) {
	c := cursor{}
	if cur != nil {
		c = *cur
	}
	page := c.offset
	offset := page * c.value
	if offset < 0 {
		return 0, 0, cursor{}, cursor{}, false
	}
	size := c.value
	if size == 0 {
		size = int64(limit)
	}
	stop := min(offset+size+1, int64(n))
	start := min(offset, int64(n))
	if c.value != int64(limit) && stop-start > int64(limit)+1 {
		start = stop - int64(limit) - 1
	}
	more := stop-start > int64(limit)
	next = cursor{value: int64(limit), offset: page + 1, has: more}
	prev = cursor{value: int64(limit), offset: page - 1, prev: true, has: page > 0}
	end := min(start+int64(limit), stop)
	return int(start), int(end), next, prev, true
}

// setLink writes Sentry's Link header (Endpoint.add_cursor_headers and
// build_cursor_link): previous then next, each with results and cursor,
// on the request's path and query without its cursor.
func setLink(w http.ResponseWriter, r *http.Request, base string, next, prev cursor) {
	var kept []string
	for _, kv := range strings.Split(r.URL.RawQuery, "&") {
		if kv == "" || strings.HasPrefix(kv, "cursor=") || kv == "cursor" {
			continue
		}
		kept = append(kept, kv)
	}
	uri := base + r.URL.EscapedPath() + "?" + strings.Join(kept, "&")
	link := func(name string, c cursor) string {
		return fmt.Sprintf(`<%s&cursor=%s>; rel="%s"; results="%t"; cursor="%s"`, uri, c, name, c.has, c)
	}
	w.Header().Set("Link", link("previous", prev)+", "+link("next", next))
}
