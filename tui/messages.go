package tui

import (
	"sync/atomic"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// Every request carries an id; a screen keeps the id it waits for and drops
// any other answer, so a slow, stale reply never overwrites newer data.
var lastRequestID atomic.Uint64

func nextRequestID() uint64 { return lastRequestID.Add(1) }

type userLoadedMsg struct {
	user  *apiclient.User
	token *apiclient.TokenInfo
	err   error
}

type projectsLoadedMsg struct {
	id       uint64
	search   string
	page     int
	projects []apiclient.Project
	nextPage int
	complete bool // no more pages for this search
	err      error
}

type settingsLoadedMsg struct {
	id       uint64
	settings *apiclient.Settings
	err      error
}

type keysLoadedMsg struct {
	id   uint64
	keys []apiclient.ClientKey
	err  error
}

// settingsChangedMsg answers a PUT or PATCH.
type settingsChangedMsg struct {
	id       uint64
	what     string // "created", "enabled", ...
	settings *apiclient.Settings
	err      error
}

type keyCreatedMsg struct {
	id  uint64
	key *apiclient.ClientKey
	// rotating is the key being replaced when the create is a rotation's first step.
	rotating *apiclient.ClientKey
	err      error
}

type keyDeletedMsg struct {
	id uint64
	// asked is the key the user confirmed; key is the server's answer.
	asked apiclient.ClientKey
	key   *apiclient.ClientKey
	// gone: a retry found the key deleted by the first attempt.
	gone bool
	err  error
}

// connectedMsg answers Deps.Connect.
type connectedMsg struct {
	api API
	err error
}

type loginDoneMsg struct {
	api  API
	host string
	err  error
}

// Messages screens send to the root.
type (
	openProjectMsg struct {
		ref  apiclient.ProjectRef
		name string
	}
	backMsg       struct{}
	openDialogMsg struct{ d dialog }
	statusMsg     struct {
		text string
		kind statusKind
		ttl  time.Duration // 0: the default; errors stay until replaced
	}
	clearStatusMsg struct{ seq int }
	// authFailedMsg sends the user to the login screen with the reason.
	authFailedMsg struct{ err error }
	// searchTickMsg fires after the filter stopped changing, to ask the server.
	searchTickMsg struct {
		seq   int
		query string
	}
)

type statusKind int

const (
	statusInfo statusKind = iota
	statusSuccess
	statusError
)

// RetryNotice tells the console that a request is about to be retried; the
// program sends it from the API client's retry hook.
type RetryNotice struct {
	Wait        time.Duration
	StatusCode  int // 0 for a connection error
	RateLimited bool
}
