package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
)

// rotationJSON is one rotation of `errtrack rotations --json`: what a
// security review asks for, never a DSN's secret or a variable's value.
type rotationJSON struct {
	ID string `json:"id"`
	// Kind is "rotation", "migration" (to a Sentry, whose project is
	// Target) or "campaign" (a group rotation: the keys Variable holds in
	// the projects of Group).
	Kind      string            `json:"kind"`
	Group     string            `json:"group,omitempty"`
	Variable  string            `json:"variable,omitempty"`
	Target    string            `json:"target,omitempty"`
	Host      string            `json:"host"`
	Project   string            `json:"project"`
	ProjectID int64             `json:"project_id"`
	Backend   string            `json:"backend"`
	State     string            `json:"state"` // open or finished
	Phase     string            `json:"phase"`
	OldKey    keyRefJSON        `json:"old_key"`
	NewKey    *keyRefJSON       `json:"new_key"`
	Named     *ledger.Variable  `json:"named_variable,omitempty"`
	Variables []ledger.Variable `json:"variables"`
	TestEvent *ledger.TestEvent `json:"test_event,omitempty"`
	User      string            `json:"user,omitempty"`
	FrontEnd  string            `json:"front_end"`
	Campaign  string            `json:"group_rotation,omitempty"`
	Started   time.Time         `json:"started"`
	Updated   time.Time         `json:"updated"`
	Ended     *time.Time        `json:"ended,omitempty"`
	Note      string            `json:"note,omitempty"`
	LeftToDo  string            `json:"left_to_do,omitempty"`
}

type rotationsFlags struct {
	project, group, since string
	open, wide            bool
}

func (a *app) rotationsCmd() *cobra.Command {
	g := &globalFlags{}
	var f rotationsFlags
	cmd := &cobra.Command{
		Use:   "rotations [--project P | --group G] [--since DATE] [--open] [--wide | --json]",
		Short: "List the key rotations and migrations errtrack made: open and finished, when, by whom, and what each changed",
		Long: `Lists the rotation ledger kept in errtrack's state directory: every key
rotation run from the console or the commands, single or group-wide, with
when it began and ended, the GitLab user and the front end that ran it, the
old and new key (ID and public key), the CI/CD variables it pointed at the
new DSN (name and environment scope, never a value), the test event's
answer, and, for a rotation not finished, what is left to do. Migrations
to a Sentry (errtrack migrate) are listed too, with their target. It reads
only the ledger: no request is sent.

The ledger is this machine's: rotations run elsewhere are not in it.`,
		Example: `  errtrack rotations --open
  errtrack rotations --group web --since 2026-09-01 --json
  errtrack rotations -p web/shop`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.listRotations(g, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&g.host, "host", "", "only this GitLab's rotations (default: every host's; also GITLAB_HOST)")
	fl.BoolVar(&g.jsonOut, "json", false, "print JSON instead of a table")
	fl.StringVarP(&f.project, "project", "p", "", "only this project's rotations (ID or path)")
	fl.StringVar(&f.group, "group", "", "only the rotations of this group's projects, subgroups included (path)")
	fl.StringVar(&f.since, "since", "", "only rotations begun since this date (2006-01-02, an RFC 3339 time, or a duration such as 90d)")
	fl.BoolVar(&f.open, "open", false, "only the rotations not finished")
	fl.BoolVar(&f.wide, "wide", false, "every column whole, however wide the terminal (a table fits the terminal otherwise)")
	return cmd
}

func (a *app) listRotations(g *globalFlags, f rotationsFlags) error {
	if f.wide && g.jsonOut {
		return usagef("give --wide or --json, not both")
	}
	match, err := a.rotationFilter(g, f)
	if err != nil {
		return err
	}
	store, err := a.openLedger()
	var ro *ledger.UnwritableError
	if errors.As(err, &ro) {
		// Listing writes nothing: a state directory that cannot be
		// written is read as it is.
		if store, err = ledger.ReadOnly(ro.Dir); err == nil {
			fmt.Fprintf(a.stderr, "errtrack: the state directory %s cannot be written (%s): the ledger is listed as it is; a rotation needs it writable.\n",
				explain.Text(ro.Dir), explain.Text(ro.Err.Error()))
		}
	}
	if err != nil {
		return err
	}
	defer store.Close()
	var out []rotationJSON
	hosts := map[string]bool{}
	var keys []string
	for _, r := range store.Records(func(r ledger.Record) bool {
		// A group rotation is listed with its projects' rotations: one a
		// run left open is open until a run finishes it.
		return (r.Kind == ledger.KindRotation || r.Kind == ledger.KindMigration || r.Kind == ledger.KindCampaign) && match(r)
	}) {
		hosts[r.Host] = true
		out = append(out, toRotationJSON(r))
		k := keystore.KeyName(rotation.OldKeyOf(r))
		switch {
		case r.Kind == ledger.KindCampaign:
			k = "the keys " + rotation.VariableRefLabel(ledger.Variable{Key: r.Variable, Scope: r.Scope}) + " holds"
		case r.Kind == ledger.KindMigration:
			k = "→ " + r.Target // a migration's old keys are the project's glet_ keys
		case r.NewKeyID != 0 || r.NewPublic != "":
			k += " → " + keystore.KeyName(rotation.NewKeyOf(r))
		}
		keys = append(keys, k)
	}
	if g.jsonOut {
		if out == nil {
			out = []rotationJSON{}
		}
		return writeJSON(a.stdout, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(a.stderr, "No rotation in the ledger matches ("+store.Path()+").")
		return nil
	}
	head := []string{"STARTED", "PROJECT", "KEYS", "STATE", "BY", "VARIABLES", "TEST EVENT", "LEFT TO DO"}
	// On a narrow terminal: who ran it, the test event and the variables go
	// first, then what is left to do, the keys and the state are cut, then
	// what is left to do goes; the project stays whole the longest.
	o := 0
	if len(hosts) > 1 {
		head = append([]string{"HOST"}, head...)
		o = 1
	}
	steps := []fitStep{dropColumn(o + 4), dropColumn(o + 6), dropColumn(o + 5), cutColumns(o+7, o+2, o+3), dropColumn(o + 7)}
	if o == 1 {
		steps = append(steps, cutColumns(0))
	}
	rows := [][]string{head}
	for i, r := range out {
		state := r.State
		if (r.State == "open" || r.Phase != ledger.PhaseDone) && r.Phase != r.State {
			state += " (" + r.Phase + ")"
		}
		by := r.FrontEnd
		if r.User != "" {
			by = r.User + ", " + by
		}
		var vars []string
		for _, v := range r.Variables {
			vars = append(vars, rotation.VariableRefLabel(v)+" "+v.Result)
		}
		event := "-"
		if t := r.TestEvent; t != nil {
			event = fmt.Sprintf("%s (HTTP %d)", testevent.Words(t.Accepted, t.Status), t.Status)
		}
		left := r.LeftToDo
		if left == "" {
			left = "-"
		}
		cells := []string{r.Started.Local().Format("2006-01-02 15:04"), r.Project, keys[i], state, by, strings.Join(vars, ", "), event, left}
		if len(hosts) > 1 {
			cells = append([]string{r.Host}, cells...)
		}
		for i, c := range cells {
			cells[i] = explain.Text(c)
		}
		rows = append(rows, cells)
	}
	width := a.outputWidth()
	if f.wide {
		width = 0
	}
	rows, cut := fitColumns(rows, width, steps)
	tw := newTable(a.stdout)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if cut {
		fmt.Fprintln(a.stderr, "Columns left out or cut to fit: --wide shows them all, --json everything.")
	}
	return nil
}

func toRotationJSON(r ledger.Record) rotationJSON {
	x := rotationJSON{ID: r.ID, Kind: r.Kind, Target: r.Target, Host: r.Host, Project: r.ProjectPath, ProjectID: r.ProjectID, Backend: r.Backend,
		State: "finished", Phase: r.Phase, OldKey: keyRefJSON{ID: r.OldKeyID, PublicKey: r.OldPublic}, Named: r.Named,
		Variables: r.Variables, TestEvent: r.TestEvent, User: r.User, FrontEnd: r.FrontEnd, Campaign: r.Campaign,
		Started: r.Started, Updated: r.Updated, Ended: r.Ended, Note: r.Note, LeftToDo: rotation.LeftToDo(r, cliChecks(apiclient.ProjectID(r.ProjectID)))}
	if r.IsOpen() {
		x.State = "open"
	}
	if r.Kind == ledger.KindCampaign {
		x.Group, x.Variable = r.Group, r.Variable
		x.Project = fmt.Sprintf("group rotation (%d projects)", len(r.Projects))
		if r.Group != "" {
			x.Project = fmt.Sprintf("group %s (%d projects)", r.Group, len(r.Projects))
		}
		if x.State == "open" {
			x.LeftToDo = "run it again: it rotates the projects no run has rotated yet"
			if r.Group != "" {
				run := "errtrack keys rotate --group " + r.Group + " --ci-variable " + r.Variable
				if r.Scope != "" && r.Scope != "*" {
					run += " --environment-scope " + r.Scope
				}
				x.LeftToDo = "run '" + run + "' again: it rotates the projects no run has rotated yet"
			}
		}
	}
	if r.NewKeyID != 0 || r.NewPublic != "" {
		x.NewKey = &keyRefJSON{ID: r.NewKeyID, PublicKey: r.NewPublic}
	}
	if x.Variables == nil {
		x.Variables = []ledger.Variable{}
	}
	return x
}

// rotationFilter reads the flags into a test of a record.
func (a *app) rotationFilter(g *globalFlags, f rotationsFlags) (func(ledger.Record) bool, error) {
	var tests []func(ledger.Record) bool
	host := g.host
	if host == "" {
		host, _ = a.envHost()
	}
	if host != "" {
		h, err := a.resolveHost(host)
		if err != nil {
			return nil, err
		}
		tests = append(tests, func(r ledger.Record) bool { return hosturl.Same(r.Host, h) })
	}
	switch {
	case f.project != "" && f.group != "":
		return nil, usagef("give --project or --group, not both")
	case f.project != "":
		ref, err := apiclient.ParseProjectRef(f.project)
		if err != nil {
			return nil, usagef("--project: %v", err)
		}
		tests = append(tests, func(r ledger.Record) bool {
			return r.Kind != ledger.KindCampaign && ((ref.ID != 0 && r.ProjectID == ref.ID) || (ref.Path != "" && strings.EqualFold(r.ProjectPath, ref.Path)))
		})
	case f.group != "":
		ref, err := apiclient.ParseGroupRef(f.group)
		if err != nil {
			return nil, usagef("--group: %v", err)
		}
		if ref.Path == "" {
			return nil, usagef("--group takes the group's path here (the ledger records projects by path): e.g. --group web")
		}
		prefix := strings.ToLower(ref.Path) + "/"
		tests = append(tests, func(r ledger.Record) bool {
			if r.Kind == ledger.KindCampaign {
				return strings.EqualFold(r.Group, ref.Path) || strings.HasPrefix(strings.ToLower(r.Group), prefix)
			}
			return strings.HasPrefix(strings.ToLower(r.ProjectPath), prefix)
		})
	}
	if f.since != "" {
		since, err := parseSince(f.since, time.Now())
		if err != nil {
			return nil, usagef("--since %q: %v", explain.Text(f.since), err)
		}
		tests = append(tests, func(r ledger.Record) bool { return !r.Started.Before(since) })
	}
	if f.open {
		tests = append(tests, ledger.Record.IsOpen)
	}
	return func(r ledger.Record) bool {
		for _, t := range tests {
			if !t(r) {
				return false
			}
		}
		return true
	}, nil
}

// parseSince reads a date, an RFC 3339 time, or a duration back from now
// (90d, 12h, 2w).
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if n := len(s); n > 1 {
		unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour, 'h': time.Hour}[s[n-1]]
		if v, err := strconv.Atoi(s[:n-1]); err == nil && unit != 0 && v >= 0 && v < 100000 {
			return now.Add(-time.Duration(v) * unit), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date: give 2006-01-02, 2006-01-02T15:04:05Z or a duration such as 90d, 2w or 12h")
}
