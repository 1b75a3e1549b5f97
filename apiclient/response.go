package apiclient

import (
	"net/http"
	"strconv"
	"strings"
)

// Response is one HTTP response with GitLab's paging headers read.
type Response struct {
	*http.Response
	Page, PerPage, NextPage, PrevPage, TotalPages, Total int
	// HasTotal is false when the server omitted X-Total/X-Total-Pages
	// (GitLab does above 10,000 rows).
	HasTotal bool
	// Attempts is how many times the request was sent (1 without retries).
	Attempts int
	// BodyBytes is the size of the body read.
	BodyBytes int64
	// AlreadyGone is set by DeleteClientKey when a retry found the key
	// deleted: the first attempt reached the server before its answer was lost.
	AlreadyGone bool
}

func newResponse(r *http.Response, attempts int, bodyBytes int64) *Response {
	resp := &Response{Response: r, Attempts: attempts, BodyBytes: bodyBytes}
	h := r.Header
	resp.Page = atoiHeader(h, "X-Page")
	resp.PerPage = atoiHeader(h, "X-Per-Page")
	resp.NextPage = atoiHeader(h, "X-Next-Page")
	resp.PrevPage = atoiHeader(h, "X-Prev-Page")
	if h.Get("X-Total-Pages") != "" {
		resp.TotalPages = atoiHeader(h, "X-Total-Pages")
		resp.Total = atoiHeader(h, "X-Total")
		resp.HasTotal = true
	}
	return resp
}

// atoiHeader reads a non-negative number up to a billion; anything else,
// including a number too large to be a page count, reads as 0.
func atoiHeader(h http.Header, name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(h.Get(name)))
	if err != nil || n < 0 || n > 1e9 {
		return 0
	}
	return n
}
