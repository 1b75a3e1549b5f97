package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/explain"
)

// configListCmd is `config list`: every setting the config file holds, and
// what errtrack keeps there itself as comments.
func (a *app) configListCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use: "list", Short: "Show what the config file holds", Args: noArgs, Example: "  errtrack config list",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, p, notice := a.loadConfigQuietly()
			if notice != "" {
				fmt.Fprintf(a.stderr, "errtrack: warning: %s\n", notice)
			}
			fmt.Fprintf(a.stdout, "# %s\n", explain.Text(p))
			fmt.Fprintf(a.stdout, "host=%s\n", explain.Text(c.DefaultHost))
			fmt.Fprintf(a.stdout, "# last host used: %s\n", explain.Text(c.LastHost))
			hosts := make([]string, 0, len(c.CAFiles))
			for h := range c.CAFiles {
				hosts = append(hosts, h)
			}
			sort.Strings(hosts)
			for _, h := range hosts {
				fmt.Fprintf(a.stdout, "ca-file[%s]=%s\n", explain.Text(h), explain.Text(c.CAFiles[h]))
			}
			actions := make([]string, 0, len(c.Keys))
			for n := range c.Keys {
				actions = append(actions, n)
			}
			sort.Strings(actions)
			for _, n := range actions {
				fmt.Fprintf(a.stdout, "keys.%s=%s\n", explain.Text(n), explain.Text(strings.Join(c.Keys[n], ",")))
			}
			if c.Theme != "" {
				fmt.Fprintf(a.stdout, "theme=%s\n", explain.Text(c.Theme))
			}
			for h, r := range c.Recent {
				fmt.Fprintf(a.stdout, "# %d recent projects on %s\n", len(r), explain.Text(h))
			}
			return nil
		},
	}
	return cmd
}
