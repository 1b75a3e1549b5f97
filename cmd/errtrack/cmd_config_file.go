package main

import (
	"cmp"
	"fmt"

	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/internal/hosturl"
)

// writableConfigPath is the config file that `config set` writes: none when the
// file cannot be read or there is no config directory.
func (a *app) writableConfigPath() (string, error) {
	_, p, notice := a.loadConfigQuietly()
	if notice != "" {
		return "", fmt.Errorf("%s", notice)
	}
	if p == "" {
		return "", fmt.Errorf("no config directory: set ERRTRACK_CONFIG_DIR")
	}
	return p, nil
}

// configHost is the host a ca-file setting is for: the --host given, else
// the default host, else the last host used.
func configHost(c *config.Config, host string) (string, error) {
	if host != "" {
		return hosturl.Normalize(host)
	}
	if h := cmp.Or(c.DefaultHost, c.LastHost); h != "" {
		return h, nil
	}
	return "", usagef("no default host yet: give --host")
}
