package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
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
