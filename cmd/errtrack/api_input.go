package main

// errtrack api's input and headers: read bounded, in time, and checked.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
)

// maxAPIInput caps what --input reads: a request body, not a data set.
const maxAPIInput = 16 << 20

// parseHeaders reads -H 'Key: Value' flags, refusing the headers the
// client refuses, as usage errors.
func parseHeaders(hs []string) (http.Header, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	h := http.Header{}
	for _, s := range hs {
		k, v, ok := strings.Cut(s, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, usagef("-H takes 'Key: Value', got %q", explain.Text(s))
		}
		if err := apiclient.CheckHeader(k, v); err != nil {
			var apiErr *apiclient.APIError
			if errors.As(err, &apiErr) {
				return nil, usagef("-H: %s", apiErr.Message)
			}
			return nil, usageError{err: err}
		}
		h.Add(k, v)
	}
	return h, nil
}

// readAPIInput reads --input's JSON from a file or, for -, stdin, until
// ctx ends (--timeout, Ctrl+C): opening a FIFO, or reading any file, can
// block for good. A read given up on is left behind; the command ends.
func (a *app) readAPIInput(ctx context.Context, name string) (json.RawMessage, error) {
	type result struct {
		b   json.RawMessage
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := a.readAPIInputNow(name)
		ch <- result{b, err}
	}()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-ctx.Done():
	}
	var intr interrupted
	if errors.As(context.Cause(ctx), &intr) {
		return nil, intr
	}
	from := explain.Text(name)
	if name == "-" {
		from = "standard input"
	}
	return nil, fmt.Errorf("--input: %s gave no complete body within --timeout (%s); nothing was sent. If it is a pipe (FIFO), start the program that writes to it and closes it; or give a regular file", from, a.timeout)
}

func (a *app) readAPIInputNow(name string) (json.RawMessage, error) {
	var r io.Reader
	if name == "-" {
		r = a.input()
	} else {
		file, err := os.Open(name)
		if err != nil {
			return nil, usagef("--input: %v", err)
		}
		defer file.Close()
		r = file
	}
	b, err := io.ReadAll(io.LimitReader(r, maxAPIInput+1))
	if err != nil {
		return nil, usagef("--input: %v", err)
	}
	if len(b) > maxAPIInput {
		return nil, usagef("--input is larger than the %d MiB errtrack sends", maxAPIInput>>20)
	}
	b = bytes.TrimSpace(b)
	if !json.Valid(b) {
		return nil, usagef("--input must hold one JSON value (the request body)")
	}
	return json.RawMessage(b), nil
}

// typedValue reads true, false, null and numbers as JSON values.
func typedValue(v string) any {
	switch v {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}
