package mockserver

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// envelope is what a Sentry SDK sent: its event id (the envelope's, else
// the event's, else a new one) and the types of its items, in order.
type envelope struct {
	eventID string
	types   []string
}

// decodedBody is the request's body, un-gzipped when the SDK compressed it.
func decodedBody(r *http.Request, body []byte) ([]byte, error) {
	if r.Header.Get("Content-Encoding") != "gzip" {
		return body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, errors.New("the body is not gzip")
	}
	b, err := io.ReadAll(io.LimitReader(zr, maxBody+1))
	switch {
	case err != nil:
		return nil, errors.New("the body is not gzip")
	case len(b) > maxBody:
		return nil, errors.New("the body is larger than 1 MiB once unzipped")
	}
	return b, nil
}

// parseEnvelope reads an envelope leniently, as the format has it: a JSON
// header line, then items, each a JSON item header line and a payload. An
// item header's length counts the payload's bytes (newlines included);
// without one the payload ends at the end of its line. Blank lines
// between items and a missing last newline are forgiven; an event's
// payload must be a JSON object.
func parseEnvelope(body []byte) (envelope, error) {
	rest := body
	line := func() ([]byte, bool) {
		if len(rest) == 0 {
			return nil, false
		}
		l, after, _ := bytes.Cut(rest, []byte("\n"))
		rest = after
		return bytes.TrimSuffix(l, []byte("\r")), true
	}
	var env envelope
	var header struct {
		EventID string `json:"event_id"`
	}
	if h, _ := line(); json.Unmarshal(h, &header) != nil {
		return env, errors.New("the envelope has no JSON header line")
	}
	env.eventID = header.EventID
	for {
		ih, ok := line()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(ih)) == 0 {
			continue
		}
		var item struct {
			Type   string `json:"type"`
			Length *int   `json:"length"`
		}
		if json.Unmarshal(ih, &item) != nil || item.Type == "" {
			return env, errors.New("an envelope item has no JSON item header")
		}
		var payload []byte
		if item.Length != nil {
			n := *item.Length
			if n < 0 || n > len(rest) {
				return env, errors.New("an item's length goes beyond the envelope")
			}
			payload, rest = rest[:n], bytes.TrimPrefix(rest[n:], []byte("\n"))
		} else {
			payload, _ = line()
		}
		if item.Type == "event" {
			id, err := eventOf(payload)
			if err != nil {
				return env, err
			}
			if env.eventID == "" {
				env.eventID = id
			}
		}
		env.types = append(env.types, item.Type)
	}
	if len(env.types) == 0 {
		return env, errors.New("the envelope holds no item")
	}
	if env.eventID == "" {
		env.eventID = newEventID()
	}
	return env, nil
}

// parseStore reads what /store takes: one bare event.
func parseStore(body []byte) (envelope, error) {
	id, err := eventOf(body)
	if err != nil {
		return envelope{}, err
	}
	if id == "" {
		id = newEventID()
	}
	return envelope{eventID: id, types: []string{"event"}}, nil
}

// eventOf checks that an event is a JSON object and returns its id.
func eventOf(payload []byte) (string, error) {
	var ev map[string]any
	if json.Unmarshal(payload, &ev) != nil || ev == nil {
		return "", errors.New("the event is not a JSON object")
	}
	id, _ := ev["event_id"].(string)
	return id, nil
}

// newEventID is an event id as SDKs make them: 32 hexadecimal digits.
func newEventID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
