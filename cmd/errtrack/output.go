package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"text/tabwriter"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/safetext"
)

// writeJSON prints v as indented JSON. encoding/json already escapes C0
// controls; C1 controls and invisible format characters (bidi overrides,
// zero-width spaces) are escaped too, so server text cannot drive or fool a
// terminal that shows the output. The JSON means the same.
//
// A list is written an element at a time, as json.MarshalIndent would lay
// it out: 100,000 keys are never held as one text (nor twice, escaped).
func writeJSON(w io.Writer, v any) error {
	if keys, ok := v.([]apiclient.ClientKey); ok && len(keys) > 0 {
		return writeKeysJSON(w, keys)
	}
	return writeJSONReflect(w, v)
}

// marshalJSON is json.MarshalIndent without its HTML escaping: a fix that
// says "Settings > Monitor" keeps its '>' (\u003e helps no terminal and no jq).
func marshalJSON(v any, prefix, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeJSONReflect is writeJSON for any value, through encoding/json.
func writeJSONReflect(w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	_, custom := v.(json.Marshaler) // json.RawMessage, a []byte: not a list
	if custom || rv.Kind() != reflect.Slice || rv.Len() == 0 || rv.Type().Elem().Kind() == reflect.Uint8 {
		b, err := marshalJSON(v, "", "  ")
		if err != nil {
			return err
		}
		return writeEscaped(w, b)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[\n")
	for i := range rv.Len() {
		b, err := marshalJSON(rv.Index(i).Interface(), "  ", "  ")
		if err != nil {
			return err
		}
		bw.WriteString("  ")
		escapeTo(bw, b)
		if i < rv.Len()-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// writeEscaped prints JSON as writeJSON does, without re-indenting it.
func writeEscaped(w io.Writer, b []byte) error {
	bw := bufio.NewWriter(w)
	escapeTo(bw, b)
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeKeysJSON is writeJSON for client keys, the list that runs to
// 100,000: the same bytes encoding/json and escapeTo would write, without
// marshalling then re-indenting every key by reflection (most of the
// command's time at that size).
func writeKeysJSON(w io.Writer, keys []apiclient.ClientKey) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[\n")
	var num []byte
	for i, k := range keys {
		bw.WriteString("  {\n    \"id\": ")
		num = strconv.AppendInt(num[:0], k.ID, 10)
		bw.Write(num)
		bw.WriteString(",\n    \"active\": ")
		bw.WriteString(strconv.FormatBool(k.Active))
		bw.WriteString(",\n    \"public_key\": ")
		writeJSONString(bw, k.PublicKey)
		bw.WriteString(",\n    \"errtracker_dsn\": ")
		writeJSONString(bw, k.DSN)
		bw.WriteString("\n  }")
		if i < len(keys)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// writeJSONString writes s as a JSON string: printable ASCII that JSON
// leaves alone, as it is; anything else as marshalJSON and escapeTo would
// write it.
func writeJSONString(w *bufio.Writer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b, _ := marshalJSON(s, "", "") // a string always marshals
			escapeTo(w, b)
			return
		}
	}
	w.WriteByte('"')
	w.WriteString(s)
	w.WriteByte('"')
}

// escapeTo writes JSON text with the characters a terminal could act on or
// hide escaped as \uXXXX.
func escapeTo(w *bufio.Writer, b []byte) {
	for len(b) > 0 {
		// ASCII, all of JSON's own text and most of a server's, as it is.
		i := 0
		for i < len(b) && b[i] < utf8.RuneSelf {
			i++
		}
		if i > 0 {
			w.Write(b[:i])
			b = b[i:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		switch {
		case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, safetext.Invisible(r) && r <= 0xffff:
			fmt.Fprintf(w, `\u%04x`, r)
		case safetext.Invisible(r): // beyond the BMP: a UTF-16 surrogate pair, as JSON wants
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(w, `\u%04x\u%04x`, r1, r2)
		case r == utf8.RuneError && n == 1:
			w.WriteRune(r) // as ranging over a string did: invalid bytes become U+FFFD
		default:
			w.Write(b[:n])
		}
		b = b[n:]
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s *string) string {
	if s == nil || *s == "" {
		return "-"
	}
	return safetext.Clean(*s)
}

func printSettings(w io.Writer, project string, s *apiclient.Settings) {
	tw := newTable(w)
	fmt.Fprintf(tw, "Project:\t%s\n", safetext.Clean(project))
	fmt.Fprintf(tw, "Active:\t%s\n", yesNo(s.Active))
	if s.NoIntegrated {
		fmt.Fprintf(tw, "Integrated:\t- (this GitLab predates integrated error tracking, added in 14.2)\n")
	} else {
		fmt.Fprintf(tw, "Integrated:\t%s\n", yesNo(s.Integrated))
	}
	fmt.Fprintf(tw, "Project name:\t%s\n", orDash(s.ProjectName))
	fmt.Fprintf(tw, "External URL:\t%s\n", orDash(s.ExternalURL))
	fmt.Fprintf(tw, "API URL:\t%s\n", orDash(s.APIURL))
	tw.Flush()
	if note := explain.SettingsNote(s); note != "" {
		fmt.Fprintf(w, "Note: %s\n", note)
	}
}

func printKeys(w io.Writer, keys []apiclient.ClientKey) {
	if len(keys) == 0 {
		fmt.Fprintln(w, "No client keys. Create one with 'errtrack keys create'.")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tACTIVE\tPUBLIC KEY\tDSN")
	for _, k := range keys {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", k.ID, yesNo(k.Active), safetext.Clean(k.PublicKey), safetext.Clean(k.DSN))
	}
	tw.Flush()
}

func printKey(w io.Writer, k *apiclient.ClientKey) {
	tw := newTable(w)
	fmt.Fprintf(tw, "ID:\t%s\n", strconv.FormatInt(k.ID, 10))
	fmt.Fprintf(tw, "Active:\t%s\n", yesNo(k.Active))
	fmt.Fprintf(tw, "Public key:\t%s\n", safetext.Clean(k.PublicKey))
	fmt.Fprintf(tw, "DSN:\t%s\n", safetext.Clean(k.DSN))
	tw.Flush()
}

// table is a tabwriter over a buffer: a table goes out in a few writes,
// not one system call per cell.
type table struct {
	*tabwriter.Writer
	buf *bufio.Writer
}

func newTable(w io.Writer) table {
	b := bufio.NewWriter(w)
	return table{tabwriter.NewWriter(b, 0, 0, 2, ' ', 0), b}
}

// Flush writes the table out.
func (t table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.buf.Flush()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
