package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/tokens"
)

// tokenLoadedMsg answers the check of the token in use (user and scopes).
type tokenLoadedMsg struct {
	st  tokens.TokenStatus
	err error
}

type projectsLoadedMsg struct {
	id       uint64
	search   string
	page     int
	projects []apiclient.Project
	nextPage int
	complete bool // no more pages for this search
	err      error
	// groupPath is the scope group's path, when it was named by ID.
	groupPath string
}

// projectLoadedMsg answers GET /projects/:id, which names the project.
type projectLoadedMsg struct {
	id      uint64
	project projectscope.Project
	err     error
}

// overviewLoadedMsg answers the overview of one project of the list.
type overviewLoadedMsg struct {
	gen int
	id  int64
	o   audit.Overview
}

// settings is what the server says about a project's settings: nil with
// missing set when none are configured.
type settings struct {
	s       *apiclient.Settings
	missing bool
}

type settingsLoadedMsg struct {
	id  uint64
	val settings
	err error
}

// doctorDoneMsg: the doctor's checks of a project.
type doctorDoneMsg struct {
	id     uint64
	checks []audit.Check
}

// usesLoadedMsg: where each key's DSN is used, and the project's findings.
type usesLoadedMsg struct {
	id    uint64
	audit audit.Audit
	err   error
	// policy: the key policy's findings (nil without a policy).
	policy *check.Result
}

// keysLoadedMsg answers the list of a project's keys where they are:
// store is a Sentry's (a Sentry-backed project) or GitLab's; nil when the
// Sentry could not be reached (err says why).
type keysLoadedMsg struct {
	id    uint64
	store keystore.KeyStore
	keys  []apiclient.ClientKey
	err   error
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
	// retry is the token typed, back for another try when the server
	// was not reached (it never judged the token); empty otherwise.
	retry string
}

// Messages screens and dialogs send to the root.
type (
	openProjectMsg struct {
		ref  apiclient.ProjectRef
		name string
	}
	backMsg     struct{}
	showHelpMsg struct{}
	statusMsg   struct {
		text string
		kind statusKind
		ttl  time.Duration // 0: the default; errors stay until replaced
		// about is the project the message is about, when it is about one:
		// it goes when the user opens another project.
		about *projectscope.Project
		// inLog: the message is about the request log (a request copied);
		// it goes when the log closes.
		inLog bool
	}
	clearStatusMsg struct{ seq int }
	// copyDSNMsg copies a key's DSN (c in the key's details).
	copyDSNMsg struct{ k apiclient.ClientKey }
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

// sideEffect runs f (a config write) off the UI goroutine.
func sideEffect(f func()) tea.Cmd {
	return func() tea.Msg { f(); return nil }
}

// msgCmd wraps a message as a command.
func msgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

func statusCmd(kind statusKind, text string) tea.Cmd {
	return msgCmd(statusMsg{text: text, kind: kind})
}

// Messages of a bulk change.
type (
	// planBulkMsg asks the root to plan kind for the marked projects;
	// variable, when the change names one, is offered again next time.
	planBulkMsg struct {
		kind     change.Kind
		variable string
		projects []apiclient.Project
		// build, when set, makes the kind inside the plan's command (a
		// migration reads the Sentry's token first); doing names it
		// meanwhile, and migrate is offered again next time.
		build   func(context.Context) (change.Kind, error)
		doing   string
		migrate *MigrateTarget
	}
	// bulkPlannedMsg is the plan's answer, for the request id.
	bulkPlannedMsg struct {
		id       uint64
		plan     change.Plan
		marked   int
		err      error
		projects []apiclient.Project
		// asked: the user answered the unread groups' question (No).
		asked bool
	}
	// startBulkMsg is the user's yes to the plan.
	startBulkMsg struct {
		plan   change.Plan
		marked int
	}
	// bulkBegunMsg answers the start of a run: the claim on a rotation's
	// campaign, held until release, or why the run cannot start.
	bulkBegunMsg struct {
		id      uint64
		release func()
		err     error
	}
	// bulkEventMsg is a project starting or ending; bulkEndedMsg the run's
	// end, with every result.
	bulkEventMsg struct {
		id uint64
		ev change.Event
	}
	bulkEndedMsg struct {
		id   uint64
		plan change.Plan
	}
	// bulkBatchMsg is the events the run sent since the last batch, in
	// order: one frame for them all.
	bulkBatchMsg []tea.Msg
	// bulkDoneMsg tells the screens a bulk change ran through; failed
	// are the projects that failed, which stay marked to try again.
	bulkDoneMsg struct{ failed map[int64]bool }
)
