package main

import (
	"encoding/json"
	"fmt"
	"github.com/errtrack/errtrack/internal/explain"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf16"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

// writeJSON prints v as indented JSON. encoding/json already escapes C0
// controls; C1 controls and invisible format characters (bidi overrides,
// zero-width spaces) are escaped too, so server text cannot drive or fool a
// terminal that shows the output. The JSON means the same.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeEscaped(w, b)
}

// writeEscaped prints JSON as writeJSON does, without re-indenting it.
func writeEscaped(w io.Writer, b []byte) error {
	var out strings.Builder
	for _, r := range string(b) {
		switch {
		case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, safetext.Invisible(r) && r <= 0xffff:
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		case safetext.Invisible(r): // beyond the BMP: a UTF-16 surrogate pair, as JSON wants
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
			continue
		}
		out.WriteRune(r)
	}
	out.WriteByte('\n')
	_, err := io.WriteString(w, out.String())
	return err
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACTIVE\tPUBLIC KEY\tDSN")
	for _, k := range keys {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", k.ID, yesNo(k.Active), safetext.Clean(k.PublicKey), safetext.Clean(k.DSN))
	}
	tw.Flush()
}

func printKey(w io.Writer, k *apiclient.ClientKey) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ID:\t%s\n", strconv.FormatInt(k.ID, 10))
	fmt.Fprintf(tw, "Active:\t%s\n", yesNo(k.Active))
	fmt.Fprintf(tw, "Public key:\t%s\n", safetext.Clean(k.PublicKey))
	fmt.Fprintf(tw, "DSN:\t%s\n", safetext.Clean(k.DSN))
	tw.Flush()
}
