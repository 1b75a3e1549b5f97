package main

import (
	"fmt"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

func (a *app) doctorCmd() *cobra.Command {
	g := &globalFlags{}
	var p projectFlag
	var gf groupFlags
	var o audit.DoctorOptions
	cmd := &cobra.Command{
		Use:   "doctor [-p P | --group G [--include-subgroups]] [--send-test-event] [--json]",
		Short: "Check a project's error tracking end to end, with the fix for what fails",
		Long: `Runs, in order: the server answers and is GitLab (its release); the token
(scopes, expiry); the project and your role on it; the error tracking API of
this release; the settings (active, integrated or Sentry, or the feature flag
off); at least one active key; each DSN's ingestion endpoint answers (no
event is sent unless --send-test-event, which records one per key); and the
CI/CD variables hold a current DSN. Each check is ok, warn or fail with a
one-line fix. Exit 1 on any fail.`,
		Example: "  errtrack doctor -p group/web-shop\n  errtrack doctor -p 42 --send-test-event --json",
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
				if c, host, err = a.hostClient(ctx, g); err != nil {
					return err
				}
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
			type projectChecks struct {
				Project string        `json:"project"`
				Checks  []audit.Check `json:"checks"`
			}
			all := []projectChecks{} // [] for a group with nothing to check, not null
			failed := 0
			o.TokenRotatable = a.envToken == ""
			o.Resolve = a.sentryResolver(g)
			// A migrated project is checked on its Sentry side: the ledger
			// holds its migration (none read, the doctor checks GitLab's).
			if led, closeLedger, err := a.rotations(host, rotation.FrontEndCommand); err == nil {
				defer closeLedger()
				o.Ledger, o.OldKeysStep, o.MigrateStep = led, "errtrack migrate with --delete-old-keys", "the same errtrack migrate command"
			}
			if !o.TokenRotatable {
				o.TokenEnv = a.envTokenName
			}
			for _, ref := range refs {
				checks := audit.Doctor(ctx, c, ref, o, func(err error) string { return a.explain(err, "run errtrack doctor again") }, a.now())
				if audit.Failed(checks) {
					failed++
				}
				name := ref.Path // projects are named by their path
				if name == "" {
					name = ref.String()
					if pr, _, err := c.GetProject(ctx, ref); err == nil && pr.PathWithNamespace != "" {
						name = pr.PathWithNamespace
					}
				}
				all = append(all, projectChecks{name, checks})
				if g.jsonOut {
					continue
				}
				fmt.Fprintf(a.stdout, "%s\n", explain.Text(name))
				// One column for the details: as wide as the longest check's
				// name (a Sentry key's ingestion names the key), 20 at least.
				w := 20
				for _, ch := range checks {
					w = max(w, utf8.RuneCountInString(explain.Text(ch.Name)))
				}
				for _, ch := range checks {
					fmt.Fprintf(a.stdout, "  %-4s  %-*s %s\n", ch.Status, w, explain.Text(ch.Name), explain.Text(ch.Detail))
					if ch.Fix != "" {
						fmt.Fprintf(a.stdout, "        %-*s fix: %s\n", w, "", explain.Text(ch.Fix))
					}
				}
			}
			if g.jsonOut {
				if err := writeJSON(a.stdout, all); err != nil {
					return err
				}
			}
			if failed > 0 {
				return reportedf(a, "%d of %s %s a failing check (see above)", failed, wording.Projects(len(refs), ""), map[bool]string{true: "has", false: "have"}[failed == 1])
			}
			return nil
		},
	}
	addHostFlags(cmd.Flags(), g)
	p.add(cmd)
	cmd.Flags().BoolVar(&g.jsonOut, "json", false, "print JSON instead of a report")
	cmd.Flags().StringVar(&gf.group, "group", "", "check every project of this group (ID or path) you maintain")
	cmd.Flags().BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	cmd.Flags().BoolVar(&o.SendTestEvent, "send-test-event", false, "send one test event per active key (recorded in the project)")
	return cmd
}
