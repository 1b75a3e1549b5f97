package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/hosturl"
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

func (a *app) configCmd() *cobra.Command {
	var host string
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Read and change errtrack's config file (the default host, CA files, the console's keys and theme)",
		Example: "  errtrack config list\n  errtrack config set host https://gitlab.example.com\n" +
			"  errtrack config set ca-file ~/corp-ca.pem --host https://gitlab.example.com",
		Long: "Read and change errtrack's config file.\n\nSettings:\n" + settingsHelp(),
		Args: noArgs,
	}
	path := func() (string, error) {
		_, p, notice := a.loadConfigQuietly()
		if notice != "" {
			return "", fmt.Errorf("%s", notice)
		}
		if p == "" {
			return "", fmt.Errorf("no config directory: set ERRTRACK_CONFIG_DIR")
		}
		return p, nil
	}
	hostFor := func(c *config.Config) (string, error) {
		if host != "" {
			return hosturl.Normalize(host)
		}
		if h := cmp.Or(c.DefaultHost, c.LastHost); h != "" {
			return h, nil
		}
		return "", usagef("no default host yet: give --host")
	}
	list := &cobra.Command{
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
	get := &cobra.Command{
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
				h, err := hostFor(c)
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
	set := &cobra.Command{
		Use: "set host URL | set ca-file PATH [--host H] | set theme light|dark|auto | set keys.ACTION KEY[,KEY]", Short: "Change one setting", Args: cobra.ExactArgs(2),
		Example: "  errtrack config set host https://gitlab.example.com\n  errtrack config set ca-file ~/corp-ca.pem",
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := path()
			if err != nil {
				return err
			}
			if action, ok := strings.CutPrefix(args[0], "keys."); ok {
				keys := strings.Split(args[1], ",")
				for i := range keys {
					keys[i] = strings.TrimSpace(keys[i])
				}
				var rerr error
				err := config.Update(p, func(c *config.Config) bool {
					next := map[string][]string{}
					for k, v := range c.Keys {
						next[k] = v
					}
					next[action] = keys
					if _, rerr = tui.DefaultKeyMap().Rebind(next); rerr != nil {
						return false
					}
					c.Keys = next
					return true
				})
				if rerr != nil {
					var re *tui.RebindError
					if errors.As(rerr, &re) {
						rerr = re.From(action) // the entry just set is the one named
					}
					return usagef("%s", explain.Text(rerr.Error()))
				}
				return err
			}
			switch args[0] {
			case "theme":
				t, ok := tui.ParseTheme(args[1])
				if !ok {
					return usagef("theme is light, dark or auto, not %q", explain.Text(args[1]))
				}
				return config.Update(p, func(c *config.Config) bool { c.Theme = string(t); return true })
			case "host":
				h := ""
				if strings.TrimSpace(args[1]) != "" {
					var err error
					if h, err = hosturl.Normalize(args[1]); err != nil {
						return usageError{err: err}
					}
				}
				return config.Update(p, func(c *config.Config) bool { c.DefaultHost = h; return true })
			case "ca-file":
				abs, err := filepath.Abs(args[1])
				if err != nil {
					return usageError{err: err}
				}
				if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
					return usagef("%s is not a readable file", explain.Text(abs))
				}
				var herr error
				err = config.Update(p, func(c *config.Config) bool {
					h, err := hostFor(c)
					if err != nil {
						herr = err
						return false
					}
					if c.CAFiles == nil {
						c.CAFiles = map[string]string{}
					}
					c.CAFiles[h] = abs
					return true
				})
				if herr != nil {
					return herr
				}
				return err
			}
			return usagef("%q is not a setting: use host, ca-file, theme or keys.ACTION", explain.Text(args[0]))
		},
	}
	for _, c := range []*cobra.Command{get, set} {
		c.Flags().StringVar(&host, "host", "", "the host a ca-file is for (default: the default host)")
	}
	cmd.AddCommand(list, get, set)
	return cmd
}
