// Package tui is errtrack's Bubble Tea console: a project picker, a project
// screen with error tracking settings and client keys, and a login screen.
//
// It reaches GitLab only through the API interface below, and the keyring and
// config file only through Deps callbacks, so every screen can be tested
// against an in-process mock server, with fakes only to inject failures.
package tui

import (
	"context"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/seen"
)

// API is what the console needs from GitLab: what the shared layer's
// workflows need, and the project picker's list; *apiclient.Client
// implements it.
type API interface {
	change.ChangeAPI
	audit.DoctorAPI
	audit.OverviewAPI
	ListProjects(ctx context.Context, opt apiclient.ListProjectsOptions) ([]apiclient.Project, *apiclient.Response, error)
}

// Clipboard is the system clipboard (pbcopy, wl-copy, xclip or xsel,
// clip.exe); cmd/errtrack passes one.
type Clipboard interface {
	WriteAll(text string) error
}

// Theme chooses the console's palette.
type Theme string

// The themes: the terminal's (asked), or one fixed.
const (
	ThemeAuto  Theme = "auto"
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
)

// ParseTheme reads --theme, ERRTRACK_THEME or the config's theme; "" is
// ThemeAuto.
func ParseTheme(s string) (Theme, bool) {
	switch t := Theme(strings.ToLower(strings.TrimSpace(s))); t {
	case "", ThemeAuto:
		return ThemeAuto, true
	case ThemeDark, ThemeLight:
		return t, true
	}
	return "", false
}

// RecentProject is a project opened before, known by ID and path.
type RecentProject struct {
	ID   int64
	Path string
}

// Deps is everything the console gets from outside.
type Deps struct {
	// API is nil when there is no token yet: the console opens on the login screen.
	API  API
	Host string
	// Demo marks the console as running against the built-in mock server.
	Demo bool
	// Project, when set, is opened directly ("42" or "group/project").
	Project string
	// Recent projects of this host, most recent first.
	Recent []RecentProject
	// Connect, when API is nil, finds the token (the keyring may be slow or
	// locked) and returns an API for it. It runs inside a tea.Cmd so the first
	// frame never waits on it; its error is shown on the login screen.
	Connect func(ctx context.Context) (API, error)
	// RotateToken, when set, rotates the stored token (tokens.RotateToken:
	// the new one is stored before anything else) and returns an API that
	// uses the new one. It is nil when the token cannot be rotated from
	// here: it comes from an environment variable.
	RotateToken func(ctx context.Context, host string) (API, *apiclient.RotatedToken, error)
	// Policy, when set, is the key policy (errtrack.yaml) the project
	// screen's findings hold each project to, each with its rule's name.
	Policy *check.Policy
	// LoginReason is shown on the login screen (why a token is needed).
	LoginReason string
	// Notice is shown in the status line at start (a config file set aside).
	Notice string
	// Login checks token against host, stores it, and returns an API for it.
	// It runs inside a tea.Cmd.
	Login func(ctx context.Context, host, token string) (API, error)
	// TokenEnv names the environment variable the token comes from, when it
	// does: a refused token is then fixed there, not by logging in.
	TokenEnv string
	// HostWorked records host as the last one used, once a request to it
	// succeeded; ProjectOpened records a project opened successfully and
	// ForgetRecent removes one from the recent list. They run inside tea.Cmds.
	HostWorked    func(host string)
	ProjectOpened func(host string, p RecentProject)
	ForgetRecent  func(host string, p RecentProject)
	// Log holds the requests the API client made (its observer adds to
	// them), for the request log pane; nil leaves the pane empty.
	Log *RequestLog
	// Clipboard is the system clipboard; nil copies with OSC 52 only.
	Clipboard Clipboard
	// Remote: the console runs over SSH, where the system clipboard is the
	// remote machine's: OSC 52 reaches the user's terminal instead.
	Remote bool
	// KeysSeen records a project's whole list of keys and returns when
	// errtrack first saw each (its state directory); KeyCreated records a
	// key it created, so that age is exact. Nil: no ages.
	KeysSeen   func(host string, p projectscope.Project, keys []int64) (map[int64]seen.Entry, error)
	KeyCreated func(host string, p projectscope.Project, key int64)
	// Group scopes the projects list to a group's projects (its subgroups'
	// too with Subgroups), as errtrack --group.
	Group     string
	Subgroups bool
	// Sentry reaches a Sentry-backed project's Sentry (the token for the
	// host its settings name, and no other): the keys tab lists and
	// changes that Sentry project's keys. Nil: they are not managed here,
	// and the tab says how to log in to that Sentry.
	Sentry keystore.SentryResolver
	// Rotations is the rotation ledger (errtrack's state directory) the
	// console's rotations are written in, so one interrupted goes on where
	// it stopped, from here or the commands; nil: none (the demo's, tests).
	Rotations *rotation.Rotations
	// Migration builds the change that carries the marked projects off
	// integrated error tracking to a Sentry: errtrack migrate's, with the
	// Sentry's token found for that host only and what it may do read
	// first. Nil: the bulk menu offers no migration.
	Migration func(ctx context.Context, to MigrateTarget, led *rotation.Rotations) (change.Kind, error)
	// MigrateTo is the target offered first (the demo's mock Sentry).
	MigrateTo MigrateTarget
	// Keys rebinds actions (the config file's "keys" section), already
	// checked with KeyMap.Rebind.
	Keys map[string][]string
	// Accessible draws no animation and no colour (--accessible,
	// ACCESSIBLE=1): a screen reader reads words that do not move.
	Accessible bool
	// Theme is the palette: ThemeDark or ThemeLight, or ThemeAuto (the
	// default), which asks the terminal its background (OSC 11) and,
	// until it answers (tmux does not), takes LightBackground's guess.
	Theme Theme
	// LightBackground: the environment says the terminal is light
	// (COLORFGBG), a guess the terminal's own answer replaces.
	LightBackground bool
	// OpenURL opens a page in the user's browser; nil, or an error (no
	// browser, over SSH), and the console shows the address instead.
	OpenURL func(url string) error
	// Clock tells the time and runs timers; nil is the real clock.
	Clock Clock
	// RequestTimeout bounds each API call made from the console.
	RequestTimeout time.Duration
	// Context is the program's: a change to the marked projects runs under
	// it, so quitting stops it (nil: none).
	Context context.Context
}

// keyCreated records a GitLab key created (a Sentry's, without an ID,
// have no ages).
func (d Deps) keyCreated(p projectscope.Project, key int64) {
	if d.KeyCreated != nil && key != 0 {
		d.KeyCreated(d.Host, p, key)
	}
}

// MigrateTarget is the Sentry the marked projects move to, as the console
// asks it: its URL, the organisation, and the team under which missing
// Sentry projects are made ("" makes none: each target must exist).
// DeleteOldKeys is the migration's later step.
type MigrateTarget struct {
	URL, Org, Team string
	DeleteOldKeys  bool
}
