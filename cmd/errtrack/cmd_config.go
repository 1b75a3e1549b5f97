package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/tui"
)

// configKeys are what `errtrack config` reads and writes: the default host,
// a host's CA file, the console's keys and palette. The last host used and
// the recent projects are errtrack's to keep.
var configKeys = map[string]string{
	"host":        "the default host: used when no --host, GITLAB_HOST or git remote names one; a --host does not replace it (without it, the last host used serves); set it to \"\" to go back to the last host used",
	"ca-file":     "the CA certificate file trusted for --host (or the default host)",
	"keys.ACTION": "the console's keys for ACTION, comma-separated (e.g. keys.rotate x); actions: " + strings.Join(tui.Rebindable, ", "),
	"theme":       "the console's palette: light, dark, or auto, the terminal's background (the default)",
}

func settingsHelp() string {
	names := make([]string, 0, len(configKeys))
	for k := range configKeys {
		names = append(names, k)
	}
	sort.Strings(names)
	var b []byte
	for _, k := range names {
		b = fmt.Appendf(b, "  %-8s %s\n", k, configKeys[k])
	}
	return string(b)
}

// configCmd is `errtrack config`; each subcommand is its own factory.
func (a *app) configCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Read and change errtrack's config file (the default host, CA files, the console's keys and theme)",
		Example: "  errtrack config list\n  errtrack config set host https://gitlab.example.com\n" +
			"  errtrack config set ca-file ~/corp-ca.pem --host https://gitlab.example.com",
		Long: "Read and change errtrack's config file.\n\nSettings:\n" + settingsHelp(),
		Args: noArgs,
	}
	cmd.AddCommand(a.configListCmd(), a.configGetCmd(), a.configSetCmd())
	return cmd
}
