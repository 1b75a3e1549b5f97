package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// manCmd writes one man page per command, generated from the command tree
// so the pages cannot drift from --help. `make man` and the release
// archives use it; it also gives an install from `go install` its pages.
//
// The pages are written as roff here rather than by cobra/doc: that
// package converts Markdown with blackfriday, whose start-up (and
// go-yaml's, for cobra/doc's YAML) every errtrack command paid for.
func (a *app) manCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "man DIR",
		Short:   "Write the man pages (section 1) of every command into DIR",
		Example: "  errtrack man ~/.local/share/man/man1 && man errtrack-keys-rotate",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("man takes exactly one DIR")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return err
			}
			// The date in the header comes from SOURCE_DATE_EPOCH when set,
			// so release pages are reproducible.
			date := time.Now()
			if s, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
				date = time.Unix(s, 0)
			}
			return writeManTree(cmd.Root(), args[0], manHeader{date: date.UTC().Format("Jan 2006"), source: "errtrack " + appVersion(), manual: "errtrack manual"})
		},
	}
}

type manHeader struct{ date, source, manual string }

// writeManTree writes the page of cmd and of every command below it that
// --help lists.
func writeManTree(cmd *cobra.Command, dir string, h manHeader) error {
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && !c.IsAdditionalHelpTopicCommand() {
			if err := writeManTree(c, dir, h); err != nil {
				return err
			}
		}
	}
	name := strings.ReplaceAll(cmd.CommandPath(), " ", "-")
	return os.WriteFile(filepath.Join(dir, name+".1"), manPage(cmd, name, h), 0o644)
}

// manPage is one command's page in roff (man(7)).
func manPage(cmd *cobra.Command, name string, h manHeader) []byte {
	cmd.InitDefaultHelpFlag()
	var b bytes.Buffer
	fmt.Fprintf(&b, ".nh\n.TH %s \"1\" %s %s %s\n", roffQuote(strings.ToUpper(name)), roffQuote(h.date), roffQuote(h.source), roffQuote(h.manual))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", roffText(name), roffText(cmd.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n\\fB%s\\fP\n", roffText(cmd.UseLine()))
	desc := cmd.Long
	if desc == "" {
		desc = cmd.Short
	}
	b.WriteString(".SH DESCRIPTION\n")
	roffParagraphs(&b, desc)
	manFlags(&b, "OPTIONS", cmd.NonInheritedFlags())
	manFlags(&b, "OPTIONS INHERITED FROM PARENT COMMANDS", cmd.InheritedFlags())
	if cmd.Example != "" {
		b.WriteString(".SH EXAMPLE\n.PP\n.RS\n.nf\n")
		for _, line := range strings.Split(cmd.Example, "\n") {
			b.WriteString(roffText(line) + "\n")
		}
		b.WriteString(".fi\n.RE\n")
	}
	var also []string
	if cmd.HasParent() {
		also = append(also, strings.ReplaceAll(cmd.Parent().CommandPath(), " ", "-"))
	}
	children := cmd.Commands()
	sort.Slice(children, func(i, j int) bool { return children[i].Name() < children[j].Name() })
	for _, c := range children {
		if c.IsAvailableCommand() && !c.IsAdditionalHelpTopicCommand() {
			also = append(also, strings.ReplaceAll(c.CommandPath(), " ", "-"))
		}
	}
	if len(also) > 0 {
		b.WriteString(".SH SEE ALSO\n")
		for i, s := range also {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "\\fB%s(1)\\fP", roffText(s))
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// manFlags lists flags as --help does: names, default, then the usage.
func manFlags(b *bytes.Buffer, title string, fs *pflag.FlagSet) {
	if !fs.HasAvailableFlags() {
		return
	}
	b.WriteString(".SH " + title + "\n")
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" {
			return
		}
		names := "\\-\\-" + roffText(f.Name)
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			names = "\\-" + roffText(f.Shorthand) + ", " + names
		}
		def := f.DefValue
		if f.Value.Type() == "string" {
			def = strconv.Quote(def)
		}
		fmt.Fprintf(b, ".PP\n\\fB%s\\fP=%s\n.RS\n%s\n.RE\n", names, roffText(def), roffText(f.Usage))
	})
}

// roffParagraphs writes text, its blank lines as paragraph breaks.
func roffParagraphs(b *bytes.Buffer, text string) {
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		b.WriteString(".PP\n")
		for _, line := range strings.Split(para, "\n") {
			b.WriteString(roffText(strings.TrimRight(line, " ")) + "\n")
		}
	}
}

// roffText escapes a line for roff: backslashes, and a leading dot or
// quote that roff would read as a request.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuote is a quoted argument of a roff request.
func roffQuote(s string) string {
	return `"` + strings.ReplaceAll(roffText(s), `"`, `\(dq`) + `"`
}
