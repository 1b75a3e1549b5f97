package tui

import (
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// keyState is what the project screen shows, published after every update.
type keyState struct {
	ids    []int64
	loaded bool
	busy   bool
	dialog bool
	debug  string
}

type soakObserved struct {
	Model
	state  *atomic.Value
	errors *atomic.Int64
}

func (o soakObserved) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := o.Model.Update(msg)
	o.Model = m.(Model)
	// An error shows in the status line, or in the pane that failed to load.
	if (o.Model.status.kind == statusError && o.Model.status.text != "") || strings.Contains(ansi.Strip(o.Model.View().Content), "Could not load") {
		o.errors.Add(1)
	}
	st := keyState{busy: o.Model.top().Busy() || len(o.Model.sh.pending) > 0, dialog: len(o.Model.dialogs) > 0}
	st.debug = o.Model.top().Title() + " pending="
	for _, w := range o.Model.PendingWrites() {
		st.debug += w.What + ";"
	}
	if s, ok := o.Model.top().(*projectScreen); ok {
		st.debug += " loads=" + strconv.FormatUint(s.info.req, 10) + "/" + strconv.FormatUint(s.settings.data.req, 10) + "/" + strconv.FormatUint(s.keys.data.req, 10)
		st.loaded = s.keys.data.has
		for _, k := range s.keys.keys() {
			st.ids = append(st.ids, k.ID)
		}
	}
	o.state.Store(st)
	_ = ansi.Strip(o.Model.View().Content) // every frame must draw
	return o, cmd
}

// TestConsoleUnderFaults drives the console against a mock server that fails
// 30% of requests: creates, deletes and refreshes, through a real program.
// Failures must show an error and the list must stay consistent: after a
// successful refresh the screen shows exactly the server's keys.
func TestConsoleUnderFaults(t *testing.T) {
	// The real clock here: the status expiry runs as in use.
	zero := 0
	srv, err := mockserver.New(mockserver.Options{FailRate: 0.3, FailSeed: 9, FaultRetryAfter: &zero})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(1, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	state, errs := &atomic.Value{}, &atomic.Int64{}
	state.Store(keyState{busy: true})
	tm := teatest.NewTestModel(t, soakObserved{Model: New(Deps{API: c, Host: ts.URL, Project: "1"}), state: state, errors: errs},
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	idle := func() keyState {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if st := state.Load().(keyState); !st.busy {
				return st
			}
			time.Sleep(2 * time.Millisecond)
		}
		t.Fatalf("the console stayed busy: %+v", state.Load())
		return keyState{}
	}
	// The first load may fail: refresh until the keys are on screen.
	for try := 0; try < 20 && !idle().loaded; try++ {
		tm.Type("r")
		time.Sleep(5 * time.Millisecond)
	}
	// Which requests fail depends on their order, which the console's
	// concurrent loads vary: play the keys until failures were met.
	for round := 0; round < 5 && (round == 0 || errs.Load() == 0); round++ {
		for i, k := range strings.Split("n n d y n R y d y n j d y n R n d n n n d y", " ") {
			// A question that opened on a result takes keys once the
			// keyboard was quiet for the grace period, as a reader's would be.
			if (k == "y" || k == "n") && state.Load().(keyState).dialog {
				time.Sleep(gracePeriod + 20*time.Millisecond)
			}
			switch k {
			case "esc":
				tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
			default:
				tm.Type(k)
			}
			if i%3 == 2 {
				idle()
			}
		}
	}
	idle()
	if st := state.Load().(keyState); st.dialog {
		time.Sleep(gracePeriod + 20*time.Millisecond)
		tm.Type("n")
		idle()
	}
	// Refresh until a refresh gets through, then compare with the server.
	var st keyState
	for try := 0; try < 20; try++ {
		before := errs.Load()
		tm.Type("r")
		time.Sleep(5 * time.Millisecond)
		st = idle()
		if errs.Load() == before {
			break
		}
	}
	want := []int64{}
	for _, k := range srv.Keys(1) {
		want = append(want, k.ID)
	}
	if st.ids == nil {
		st.ids = []int64{}
	}
	if !slices.Equal(st.ids, want) {
		t.Fatalf("screen shows keys %v, server has %v", st.ids, want)
	}
	if errs.Load() == 0 {
		t.Fatalf("no failure was shown: the fault injection did not bite (keys %v, %s)", want, st.debug)
	}
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}) // quits even with a dialog open
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	t.Logf("%d error messages shown; final keys %v", errs.Load(), want)
}
