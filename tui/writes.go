package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// Writes go through the root, not the screen that asked for them: the user
// may leave the screen before the answer, and a created key, its DSN and the
// next question of a rotation must reach them wherever they are. Each write
// is a small value (as gh-dash's tasks) carrying what the user confirmed,
// not whatever a screen shows by the time it runs. A write says how it
// ended (its outcome, and what it changed); the root applies that and
// keeps the bookkeeping (app_writes.go).
type write interface {
	// project is the project the write changes (zero for the token).
	project() projectscope.Project
	// pending says what is under way, for PendingWrites and on quitting.
	pending() string
	// conflicts reports the same change already under way.
	conflicts(other write) bool
	// holds is what it holds of its project while it runs (write_holds.go).
	holds() []change.Hold
	// run makes the change, off the UI goroutine, and returns the write
	// with its outcome.
	run(ctx context.Context, api API, deps Deps) write
	// failure is the error the write ended with, if any.
	failure() error
	// changed says what the screens showing the project update.
	changed() changes
	// outcome words how the write ended, and asks the next question where
	// there is one, in the console's voice.
	outcome(v voice) outcome
}

// voice is how the console words the end of a write: its keys, its words
// for an error, its host and where it keeps the token, and the time. It is
// all a write's outcome reads of the console.
type voice struct {
	keys       KeyMap
	explain    func(error) string
	host       string
	tokenStore string
	now        time.Time
}

// outcome is what a write's end asks of the console, as messages the root
// applies at once, in order: a line about the project (statusMsg with
// about), the next question (openDialogMsg, askAtKeyMsg), a copy
// (copyTextMsg), the console's new token (tokenRotatedMsg, loggedOutMsg).
type outcome []tea.Msg

// say is the outcome of most writes: one line on the status bar, about
// project p (named there when the user looks elsewhere).
func say(p projectscope.Project, kind statusKind, text string) outcome {
	return outcome{statusMsg{text: text, kind: kind, about: &p}}
}

// consoleChecks say how to check, from the console, what a lost answer left.
func consoleChecks(k KeyMap) rotation.Checks {
	return rotation.Checks{
		Keys:        "press " + keyName(k.Refresh) + " to refresh the list",
		Variables:   "check in GitLab, under the project's Settings > CI/CD > Variables",
		OldKeysStep: keyName(k.BulkDeleteOld) + " in the " + keyName(k.Bulk) + " menu of the marked projects",
		Restart:     "press " + keyName(k.Rotate) + " on the old key again and answer " + keyName(k.Restart) + " (make a new key): the unfinished rotation is closed",
		SwitchOff:   keyName(k.ToggleActive) + " on the project's Settings tab",
	}
}

// changes are what a write changed, for the screens showing its project.
type changes struct {
	added    []apiclient.ClientKey
	updated  []apiclient.ClientKey // renamed, turned off or on, limited
	removed  []apiclient.ClientKey // by keystore.SameKey
	keys     []apiclient.ClientKey // the whole list (GitLab's), when re-read
	settings *apiclient.Settings
	// stale: an answer was lost or a key was missing; read the list again.
	stale bool
	// settingsStale: a settings change's answer was lost; read them again.
	settingsStale bool
	// integratedRefused: GitLab refused integrated error tracking for the
	// project (or kept it off): it is not offered there again.
	integratedRefused bool
}

// Messages of writes.
type (
	// startWriteMsg asks the root to make a write.
	startWriteMsg struct{ w write }
	// writeDoneMsg answers a write; screens showing its project update
	// from it.
	writeDoneMsg struct {
		id uint64
		w  write
	}
	// projectChangedMsg tells the screens showing project what a change
	// that is not one of the console's writes (a bulk change's project)
	// changed there.
	projectChangedMsg struct {
		project projectscope.Project
		c       changes
	}
	// askAtKeyMsg opens a question about a key of project only while
	// the user still looks at that key, with nothing over it: a question
	// about a key they left could take keys meant for another. Otherwise
	// the status line says moved.
	askAtKeyMsg struct {
		project projectscope.Project
		key     apiclient.ClientKey
		d       dialog
		moved   string
	}
	// copyTextMsg puts text on the clipboard and says what was copied;
	// with refused, it says why nothing was.
	copyTextMsg struct{ text, what, refused string }
	// tokenRotatedMsg: the console works with api (the rotated token)
	// from now on; text says so.
	tokenRotatedMsg struct {
		api  API
		text string
	}
	// loggedOutMsg: the console has no token any more; the login screen
	// says why.
	loggedOutMsg struct{ why string }
)

func sameProject(a, b projectscope.Project) bool {
	return (a.ID != 0 && a.ID == b.ID) || a.Ref == b.Ref
}
