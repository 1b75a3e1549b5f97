package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/tui"
)

// configSetCmd is `config set`: one setting written to the config file.
func (a *app) configSetCmd() *cobra.Command {
	var host string
	cmd := &cobra.Command{
		Use: "set host URL | set ca-file PATH [--host H] | set theme light|dark|auto | set keys.ACTION KEY[,KEY]", Short: "Change one setting", Args: cobra.ExactArgs(2),
		Example: "  errtrack config set host https://gitlab.example.com\n  errtrack config set ca-file ~/corp-ca.pem",
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := a.writableConfigPath()
			if err != nil {
				return err
			}
			if action, ok := strings.CutPrefix(args[0], "keys."); ok {
				return setConfigKeys(p, action, args[1])
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
				return setConfigCAFile(p, args[1], host)
			}
			return usagef("%q is not a setting: use host, ca-file, theme or keys.ACTION", explain.Text(args[0]))
		},
	}
	cmd.Flags().StringVar(&host, "host", "", "the host a ca-file is for (default: the default host)")
	return cmd
}

// setConfigKeys binds the console's ACTION to the comma-separated keys,
// writing nothing when they clash with another action's.
func setConfigKeys(p, action, value string) error {
	keys := strings.Split(value, ",")
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

// setConfigCAFile trusts file for host (see configHost), after checking it
// is a readable file.
func setConfigCAFile(p, file, host string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return usageError{err: err}
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return usagef("%s is not a readable file", explain.Text(abs))
	}
	var herr error
	err = config.Update(p, func(c *config.Config) bool {
		h, err := configHost(c, host)
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
