package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/tui"
)

// configGetCmd is `config get`: one setting, or the value errtrack uses
// where the file sets none.
func (a *app) configGetCmd() *cobra.Command {
	var host string
	cmd := &cobra.Command{
		Use: "get host|ca-file|theme|keys.ACTION [--host H]", Short: "Print one setting", Args: cobra.ExactArgs(1),
		Example: "  errtrack config get host\n  errtrack config get ca-file --host https://gitlab.example.com",
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, _ := a.loadConfigQuietly()
			if action, ok := strings.CutPrefix(args[0], "keys."); ok {
				keys, ok := c.Keys[action]
				if !ok {
					if keys, ok = tui.DefaultKeys(action); !ok {
						return usagef("%q is not an action that can be rebound; these can: %s", explain.Text(action), strings.Join(tui.Rebindable, ", "))
					}
				}
				fmt.Fprintln(a.stdout, explain.Text(strings.Join(keys, ",")))
				return nil
			}
			switch args[0] {
			case "theme":
				fmt.Fprintln(a.stdout, explain.Text(cmp.Or(c.Theme, string(tui.ThemeAuto))))
			case "host":
				// The host used when nothing names one.
				fmt.Fprintln(a.stdout, explain.Text(cmp.Or(c.DefaultHost, c.LastHost)))
			case "ca-file":
				h, err := configHost(c, host)
				if err != nil {
					return err
				}
				fmt.Fprintln(a.stdout, explain.Text(c.CAFiles[h]))
			default:
				return usagef("%q is not a setting: use host, ca-file, theme or keys.ACTION", explain.Text(args[0]))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&host, "host", "", "the host a ca-file is for (default: the default host)")
	return cmd
}
