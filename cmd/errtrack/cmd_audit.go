package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/workflow"
)

// auditJSON is one project's audit for --json: never a DSN's secret part
// nor a variable's value.
type auditJSON struct {
	Project  string          `json:"project"`
	Backend  string          `json:"backend"`
	Where    string          `json:"keys_in,omitempty"`
	Keys     []keyReport     `json:"keys"`
	Findings []audit.Finding `json:"findings"`
	Unread   []string        `json:"groups_not_read,omitempty"`
}

func (a *app) auditCmd() *cobra.Command {
	g := &globalFlags{}
	var p projectFlag
	var gf groupFlags
	cmd := &cobra.Command{
		Use:   "audit [-p P | --group G [--include-subgroups]] [--json]",
		Short: "Where each client key's DSN is used, and what is wrong with the fix",
		Long: `For every client key: its ID, public key, whether it is active, and where its
DSN is used: the project's CI/CD variables and those of every ancestor group,
with their environment scopes (never their values). Then the findings, each
with a severity and its fix: a variable holding the DSN of a key that no
longer exists or of another project's key (error); error tracking disabled
while variables hand out a DSN, the same DSN in several environment scopes
(warning); a key referenced nowhere, groups whose variables the token cannot
read (info). Exit 1 when there is an error finding, so it runs in CI.`,
		Example: "  errtrack audit -p group/web-shop\n  errtrack audit --group web --include-subgroups --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			var refs []apiclient.ProjectRef
			var c *apiclient.Client
			var host string
			if gf.group != "" {
				if p.raw != "" {
					return usageError{err: errGroupAndProject}
				}
				ref, err := apiclient.ParseGroupRef(gf.group)
				if err != nil {
					return usagef("--group: %v", err)
				}
				cl, h, err := a.hostClient(ctx, g)
				if err != nil {
					return err
				}
				c, host = cl, h
				if refs, err = a.groupRefs(ctx, c, ref, gf.subgroups); err != nil {
					return err
				}
			} else {
				ref, cl, h, err := a.projectClient(ctx, g, &p)
				if err != nil {
					return err
				}
				refs, c, host = []apiclient.ProjectRef{ref}, cl, h
			}
			return a.audit(ctx, g, c, host, refs)
		},
	}
	addHostFlags(cmd.Flags(), g)
	p.add(cmd)
	cmd.Flags().BoolVar(&g.jsonOut, "json", false, "print JSON instead of a report")
	cmd.Flags().StringVar(&gf.group, "group", "", "audit every project of this group (ID or path) you maintain")
	cmd.Flags().BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	return cmd
}

func (a *app) audit(ctx context.Context, g *globalFlags, c *apiclient.Client, host string, refs []apiclient.ProjectRef) error {
	out := []auditJSON{} // [] for a group with no project to audit, not null
	errs := 0
	// The ages and paths files are read once and written once per run,
	// not once per project.
	store, flushAges := a.keysSeenBatch(true)
	defer flushAges()
	paths, flushPaths := a.projectPathsBatch()
	defer flushPaths()
	for _, ref := range refs {
		// Given by ID, a project whose path errtrack has seen has its
		// groups read at once with the rest: one round trip, not two.
		last := ""
		if ref.Path == "" {
			last = a.lastPath(paths, host, ref.ID)
		}
		au, err := audit.AuditProjectWith(ctx, c, ref, audit.AuditOptions{LastPath: last, Resolve: a.sentryResolver(g)})
		if err != nil {
			return reportedf(a, "auditing %s failed: %s", ref, a.explain(err, "run the command again"))
		}
		if paths != nil && au.Project.ID != 0 && au.Project.Path != "" {
			paths.Remember(host, au.Project.ID, au.Project.Path)
		}
		a.withAges(store, host, &au, true)
		errs += au.Errors()
		x := auditJSON{Project: au.Project.Name(), Backend: keystore.BackendGitLab, Where: au.Where, Keys: keyReports(au, false, true), Findings: au.Findings}
		if au.Backend != "" {
			x.Backend = au.Backend
		}
		x.Unread = au.UnreadGroups()
		if x.Findings == nil {
			x.Findings = []audit.Finding{}
		}
		out = append(out, x)
		if !g.jsonOut {
			a.printAudit(au)
		}
	}
	if g.jsonOut {
		if err := writeJSON(a.stdout, out); err != nil {
			return err
		}
	}
	if errs > 0 {
		noun := "error findings"
		if errs == 1 {
			noun = "error finding"
		}
		return reportedf(a, "%d %s (see above): the audit fails", errs, noun)
	}
	return nil
}

func (a *app) printAudit(au audit.Audit) {
	state := "no error tracking settings"
	if s := au.Settings; s != nil {
		state = map[bool]string{true: "enabled", false: "disabled"}[s.Active]
	}
	if au.Where != "" {
		state += "; keys of the " + au.Where
	}
	fmt.Fprintf(a.stdout, "%s (error tracking %s)\n", explain.Text(au.Project.Name()), explain.Text(state))
	tw := newTable(a.stdout)
	fmt.Fprintln(tw, "  KEY\tACTIVE\tFIRST SEEN\tPUBLIC KEY\tUSED IN")
	for _, k := range au.Keys {
		var used []string
		for _, u := range k.Used {
			used = append(used, u.Label())
		}
		where := strings.Join(used, ", ")
		if where == "" {
			where = "nowhere errtrack can see"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", explain.Text(keystore.KeyName(k.Key)), yesNo(k.Key.Active), firstSeen(k.Seen), explain.Text(k.Key.PublicKey), explain.Text(where))
	}
	_ = tw.Flush()
	if len(au.Findings) == 0 {
		fmt.Fprintln(a.stdout, "  No findings.")
	}
	for _, f := range au.Findings {
		fmt.Fprintf(a.stdout, "  %-7s  %s\n           fix: %s\n", f.Severity, explain.Text(f.What), explain.Text(f.Fix))
	}
	fmt.Fprintln(a.stdout)
}

// keyReport is a key in the audit's and the inventory's JSON (and YAML):
// never a variable's value; the DSN only when asked.
type keyReport struct {
	ID int64 `json:"id,omitempty" yaml:"id,omitempty"`
	// PublicKey, with the project's ID, rebuilds the key's DSN: the
	// export leaves it out unless asked (PublicKeyStart names the key).
	PublicKey      string     `json:"public_key,omitempty" yaml:"public_key,omitempty"`
	PublicKeyStart string     `json:"public_key_start,omitempty" yaml:"public_key_start,omitempty"`
	Name           string     `json:"name,omitempty" yaml:"name,omitempty"`
	Active         bool       `json:"active" yaml:"active"`
	FirstSeen      *time.Time `json:"first_seen,omitempty" yaml:"first_seen,omitempty"`
	// FirstSeenSource says where FirstSeen comes from: "sentry" (the
	// key's dateCreated) or "errtrack" (when errtrack first saw the key).
	FirstSeenSource string         `json:"first_seen_source,omitempty" yaml:"first_seen_source,omitempty"`
	Created         bool           `json:"created_by_errtrack,omitempty" yaml:"created_by_errtrack,omitempty"`
	DSN             string         `json:"dsn,omitempty" yaml:"dsn,omitempty"`
	UsedIn          []workflow.Use `json:"used_in" yaml:"used_in"`
	// UseUnknown: no variable errtrack can read holds the key's DSN and
	// these cannot be read (hidden variables, groups): its use is unknown.
	UseUnknown []string `json:"use_unknown,omitempty" yaml:"use_unknown,omitempty"`
}

// keyReports are an audit's keys as reported: each key's public key with
// withPublic, else the start of it; its DSN with withDSN.
func keyReports(au audit.Audit, withDSN, withPublic bool) []keyReport {
	out := []keyReport{}
	for _, k := range au.Keys {
		used := k.Known()
		if used == nil {
			used = []workflow.Use{}
		}
		r := keyReport{ID: k.Key.ID, Name: k.Key.Name, Active: k.Key.Active, UsedIn: used, Created: k.Seen.Created}
		if withPublic || withDSN {
			r.PublicKey = k.Key.PublicKey
		} else {
			r.PublicKeyStart = publicKeyStart(k.Key.PublicKey)
		}
		if withDSN {
			r.DSN = k.Key.DSN
		}
		if k.UseUnknown() {
			for _, u := range k.Used {
				r.UseUnknown = append(r.UseUnknown, u.Unknown)
			}
		}
		if !k.Seen.First.IsZero() {
			first := k.Seen.First
			r.FirstSeen, r.FirstSeenSource = &first, "errtrack"
			if au.Backend == keystore.BackendSentry {
				r.FirstSeenSource = "sentry"
			}
		}
		out = append(out, r)
	}
	return out
}

// publicKeyStart is the start of a public key, enough for a person to tell
// keys apart, not to rebuild a DSN: "glet_" and 8 hex digits of 32.
func publicKeyStart(k string) string {
	prefix, rest := "", k
	if strings.HasPrefix(k, "glet_") {
		prefix, rest = "glet_", k[len("glet_"):]
	}
	if len(rest) > 8 {
		rest = rest[:8]
	}
	return prefix + rest
}
