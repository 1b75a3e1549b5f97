package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/seen"
	"github.com/errtrack/errtrack/tui"
)

// The console's preferences from the environment and the config file:
// keys, theme, accessibility, the keys' ages.

// accessibleEnv reads ACCESSIBLE as gh does: set to anything but empty,
// "0" or "false" turns the accessible console on.
func accessibleEnv(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v != "" && v != "0" && v != "false"
}

// consoleKeys reads the config file's "keys" section and checks it before
// the console starts: a mistake there is said at once, with the entry,
// rather than a key that silently does nothing.
func (a *app) consoleKeys() (map[string][]string, error) {
	cfg, path, _ := a.loadConfigQuietly()
	if len(cfg.Keys) == 0 {
		return nil, nil
	}
	if _, err := tui.DefaultKeyMap().Rebind(cfg.Keys); err != nil {
		return nil, usagef("config file %s: %s. Fix the entry or remove it ('errtrack config list' shows the keys section)", explain.Text(path), explain.Text(err.Error()))
	}
	return cfg.Keys, nil
}

// seenDeps lets the console remember when it first saw each key and show
// its age. The demo keeps them in a folder of its own, gone when it ends:
// its mock server's keys are not the user's. It returns the clean-up.
func (a *app) seenDeps(d *tui.Deps, demo bool) func() {
	store, done := a.keysSeen(), func() {}
	if demo {
		dir, err := os.MkdirTemp("", "errtrack-demo-state-")
		if err != nil {
			return done
		}
		store, done = seen.Open(filepath.Join(dir, "keys-seen.json")), func() { os.RemoveAll(dir) }
	}
	if store == nil {
		return done
	}
	d.KeysSeen = func(host string, p projectscope.Project, keys []int64) (map[int64]seen.Entry, error) {
		return store.Observe(host, p.ID, p.Path, keys, a.now())
	}
	d.KeyCreated = func(host string, p projectscope.Project, key int64) {
		_ = store.Created(host, p.ID, p.Path, key, a.now())
	}
	return done
}

// consoleTheme is the palette asked for: --theme, else ERRTRACK_THEME, else
// the config file's theme, else auto (the terminal's background).
func (a *app) consoleTheme(flag string) (tui.Theme, error) {
	cfg, path, _ := a.loadConfigQuietly()
	for _, src := range []struct{ value, from string }{
		{flag, "--theme"}, {a.getenv("ERRTRACK_THEME"), "ERRTRACK_THEME"}, {cfg.Theme, "the config file's theme (" + path + ")"},
	} {
		if strings.TrimSpace(src.value) == "" {
			continue
		}
		t, ok := tui.ParseTheme(src.value)
		if !ok {
			return "", usagef("%s is %q: use light, dark or auto", explain.Text(src.from), explain.Text(src.value))
		}
		return t, nil
	}
	return tui.ThemeAuto, nil
}

// lightColorFGBG reads COLORFGBG ("fg;bg" or "fg;default;bg", set by rxvt,
// Konsole and others, and passed through tmux): a background of 7 or 9-15
// is light. Anything else, or nothing, is no guess.
func lightColorFGBG(v string) bool {
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(strings.TrimSpace(parts[len(parts)-1]))
	return err == nil && (bg == 7 || (bg >= 9 && bg <= 15))
}

// consolePolicy is the repository's errtrack.yaml for the console, if it
// has one; a policy that cannot be used is said in the status line.
func (a *app) consolePolicy(notice string) (*check.Policy, string) {
	file, err := check.Find(a.dir)
	if err != nil {
		return nil, notice
	}
	pol, err := check.Load(file)
	if err != nil {
		return nil, strings.TrimSpace(notice + " The key policy is not used: " + err.Error())
	}
	return pol, notice
}
