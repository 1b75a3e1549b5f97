package main

import (
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manCmd writes one man page per command, generated from the command tree
// so the pages cannot drift from --help. `make man` and the release
// archives use it; it also gives an install from `go install` its pages.
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
			root := cmd.Root()
			// No "Auto generated ... on DATE" line; the date in the header
			// comes from SOURCE_DATE_EPOCH when set, so release pages are
			// reproducible.
			root.DisableAutoGenTag = true
			return doc.GenManTree(root, &doc.GenManHeader{
				Section: "1",
				Source:  "errtrack " + appVersion(),
				Manual:  "errtrack manual",
			}, args[0])
		},
	}
}
