// Package config keeps errtrack's small, secret-free settings: the default
// host, the last host used and the recently opened projects per host. The
// token never goes here.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/errtrack/errtrack/internal/atomicfile"
	"github.com/errtrack/errtrack/internal/capread"
)

// MaxRecent bounds the recent-projects list of a host.
const MaxRecent = 10

// Config is the file's content.
type Config struct {
	// DefaultHost is the host set with errtrack config set host: used when
	// nothing names one, before LastHost, and never replaced by a --host.
	DefaultHost string              `json:"host,omitempty"`
	LastHost    string              `json:"last_host,omitempty"`
	Recent      map[string][]Recent `json:"recent_projects,omitempty"`
	// CAFiles is the --ca-file that worked for a host, used when none is given.
	CAFiles map[string]string `json:"ca_files,omitempty"`
	// Keys rebinds the console's actions: {"rotate": ["ctrl+r"]}.
	Keys map[string][]string `json:"keys,omitempty"`
	// SentryHosts are the Sentry base URLs a token was stored for with
	// login --sentry, for status to list (the keyring cannot be listed).
	SentryHosts []string `json:"sentry_hosts,omitempty"`
	// Theme is the console's palette: light, dark or auto (the default).
	Theme string `json:"theme,omitempty"`
}

// Recent is a project opened before, known by ID and path.
type Recent struct {
	ID   int64  `json:"id,omitempty"`
	Path string `json:"path,omitempty"`
}

// UnmarshalJSON also reads the first format, a bare path.
func (r *Recent) UnmarshalJSON(b []byte) error {
	var path string
	if json.Unmarshal(b, &path) == nil {
		*r = Recent{Path: path}
		return nil
	}
	type plain Recent
	return json.Unmarshal(b, (*plain)(r))
}

// same reports two entries for one project: the same ID, or the same path
// when either lacks an ID.
func (r Recent) same(o Recent) bool {
	if r.ID != 0 && o.ID != 0 {
		return r.ID == o.ID
	}
	return r.Path != "" && r.Path == o.Path
}

// DefaultPath is config.json in dir (ERRTRACK_CONFIG_DIR) when it is set,
// else errtrack/config.json in the user config directory: $XDG_CONFIG_HOME
// or ~/.config on Linux, ~/Library/Application Support on macOS, %AppData%
// on Windows.
func DefaultPath(dir string) (string, error) {
	if dir != "" {
		return filepath.Join(dir, "config.json"), nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no user config directory: %w", err)
	}
	return filepath.Join(base, "errtrack", "config.json"), nil
}

// CorruptError says a config file could not be read and was set aside.
type CorruptError struct{ Path, MovedTo, Cause string }

func (e *CorruptError) Error() string {
	return fmt.Sprintf("config file %s was unreadable (%s); it was moved to %s and errtrack starts with defaults", e.Path, e.Cause, e.MovedTo)
}

// maxSize bounds the config file: it holds a host and a few paths.
const maxSize = 1 << 20

// Load reads path. A missing file gives an empty Config. A corrupt one is
// renamed aside and reported with a *CorruptError next to an empty Config.
// A FIFO, a device or a huge file is refused without blocking or filling
// memory, and left where it is.
func Load(path string) (*Config, error) {
	b, err := capread.ReadFile(path, maxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return &Config{}, fmt.Errorf("the config file was not read (%w); errtrack starts with defaults", err)
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		aside := fmt.Sprintf("%s.corrupt-%s", path, time.Now().UTC().Format("20060102T150405Z"))
		if rerr := os.Rename(path, aside); rerr != nil {
			return &Config{}, fmt.Errorf("config file %s is unreadable (%v) and could not be moved aside: %w", path, err, rerr)
		}
		return &Config{}, &CorruptError{Path: path, MovedTo: aside, Cause: err.Error()}
	}
	return &c, nil
}

// Save writes c to path atomically with mode 0600.
func (c *Config) Save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("saving config: %w", err)
	}
	return nil
}

// AddRecent puts p first in host's recent list, once.
func (c *Config) AddRecent(host string, p Recent) {
	if c.Recent == nil {
		c.Recent = map[string][]Recent{}
	}
	list := []Recent{p}
	for _, o := range c.Recent[host] {
		switch {
		case o.same(p) || (o.Path != "" && o.Path == p.Path):
			if list[0].ID == 0 {
				list[0].ID = o.ID // keep what was known
			}
		case len(list) < MaxRecent:
			list = append(list, o)
		}
	}
	c.Recent[host] = list
}

// ForgetRecent removes p from host's recent list.
func (c *Config) ForgetRecent(host string, p Recent) {
	list := c.Recent[host][:0:0]
	for _, o := range c.Recent[host] {
		if !o.same(p) && !(o.Path != "" && o.Path == p.Path) {
			list = append(list, o)
		}
	}
	c.Recent[host] = list
}
