package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/atomicfile"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/explain"
)

// checkJSON is check's --json: each project's rules, findings and what
// could not be checked; never a DSN's secret part nor a variable's value.
type checkJSON struct {
	Policy    string            `json:"policy"`
	Projects  []check.Result    `json:"projects"`
	Unchecked []check.Unchecked `json:"unchecked"`
	Findings  int               `json:"findings"`
}

func (a *app) checkCmd() *cobra.Command {
	g := &globalFlags{}
	var p projectFlag
	var gf groupFlags
	var policyFile, format, junitFile string
	var schema bool
	var ff fixFlags
	cmd := &cobra.Command{
		Use:   "check [-p P | --group G [--include-subgroups]] [--policy FILE] [--format text|json|junit]",
		Short: "Hold projects to a key policy (errtrack.yaml); exit 3 on findings",
		Long: `Holds each project to the rules of a policy file: errtrack.yaml in the
repository's top level, or --policy FILE (docs/check.md; --schema prints its
JSON schema). It reads what errtrack audit reads, and nothing more: one line
per finding with the project, the key, the variable, the rule, and the
command that fixes it. --format json is the evidence; --format junit is a
JUnit XML report for a pipeline's test report.

--fix mends what errtrack can, as one plan shown and asked once (--yes for
a pipeline, --dry-run to show it only): keys past key_max_age rotated with
the variable that holds them repointed and a test event sent (resumable:
run again after an interruption, no key is made twice), the policy's rate
limit set on Sentry keys (their loader settings kept), unused keys deleted
when no variable holds them. Run check again afterwards.

Exit status:
  0  every rule holds
  1  something could not be checked (a project, or a group's CI/CD variables,
     which need the Owner role): named on stderr
  2  the command or the policy file is wrong (its line named)
  3  findings (they win over 1: what could not be checked is still named)
  4  the token is missing, expired, revoked or lacks the permission (named)
With --fix: 0 when every finding was mended, 3 when findings errtrack cannot
mend remain (or with --dry-run), 1 when a fix failed (run it again).`,
		Example: "  errtrack check --group demo --include-subgroups\n  errtrack check --group demo --include-subgroups --fix --dry-run\n  errtrack check -p group/web-shop --policy ci/errtrack.yaml --format junit > check.xml\n  errtrack check --schema > errtrack-policy.schema.json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if schema {
				_, err := a.stdout.Write(check.Schema)
				return err
			}
			if g.jsonOut {
				format = "json"
			}
			if (ff.dryRun || ff.yes) && !ff.fix {
				return usagef("--dry-run and --yes go with --fix")
			}
			if format != "text" && format != "json" && format != "junit" {
				return usagef("--format must be text, json or junit, not %q", format)
			}
			pol, err := a.loadPolicy(policyFile)
			if err != nil {
				return err
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			refs, c, host, err := a.checkTargets(ctx, g, &p, gf)
			if err != nil {
				return a.checkFailed(err, "")
			}
			if !ff.fix && a.getenv("CI") == "true" {
				// In a CI job (a scheduled check, unattended, its token
				// in a variable), least privilege is said: the token's
				// scopes are read beside the audit's reads. At a
				// terminal, check reads no more than audit.
				done := a.warnBroadToken(ctx, c, "check")
				defer done()
			}
			results, err := a.runCheck(ctx, g, c, host, refs, pol, format, junitFile)
			var st exitStatus
			if !ff.fix || !errors.As(err, &st) || st.code != exitFindings {
				return err
			}
			return a.runFix(cmd.Context(), g, c, host, gf.group, results, ff)
		},
	}
	addHostFlags(cmd.Flags(), g)
	p.add(cmd)
	cmd.Flags().BoolVar(&g.jsonOut, "json", false, "the same as --format json")
	cmd.Flags().StringVar(&format, "format", "text", "text, json (evidence) or junit (a JUnit XML report)")
	cmd.Flags().StringVar(&policyFile, "policy", "", "the policy file (default: errtrack.yaml in the repository's top level)")
	cmd.Flags().StringVar(&junitFile, "junit", "", "also write the JUnit XML report to this file (one run, two reports: a pipeline's artifacts)")
	cmd.Flags().BoolVar(&schema, "schema", false, "print the policy file's JSON schema and exit")
	cmd.Flags().BoolVar(&ff.fix, "fix", false, "mend what errtrack can, as one plan shown and asked once")
	cmd.Flags().BoolVar(&ff.dryRun, "dry-run", false, "with --fix, show the plan and change nothing")
	cmd.Flags().BoolVar(&ff.yes, "yes", false, "with --fix, do not ask (for a pipeline)")
	cmd.Flags().BoolVar(&ff.deleteUnread, "delete-with-unread-groups", false, "with --fix, rotate keys even where an ancestor group's CI/CD variables could not be read (they may still hold the old DSN)")
	cmd.Flags().StringVar(&gf.group, "group", "", "check every project of this group (ID or path) you maintain")
	cmd.Flags().BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	return cmd
}

// loadPolicy reads --policy, or errtrack.yaml in the repository's top level.
func (a *app) loadPolicy(file string) (*check.Policy, error) {
	if file == "" {
		f, err := check.Find(a.dir)
		if err != nil {
			return nil, usagef("%v: give --policy FILE, or add %s to the repository's top level (docs/check.md)", err, check.FileName)
		}
		file = f
	}
	pol, err := check.Load(file)
	if err != nil {
		return nil, usagef("the policy cannot be used: %v", err)
	}
	return pol, nil
}

// checkTargets are the projects to check, as audit finds them.
func (a *app) checkTargets(ctx context.Context, g *globalFlags, p *projectFlag, gf groupFlags) ([]apiclient.ProjectRef, *apiclient.Client, string, error) {
	if gf.group == "" {
		ref, c, host, err := a.projectClient(ctx, g, p)
		return []apiclient.ProjectRef{ref}, c, host, err
	}
	if p.raw != "" {
		return nil, nil, "", usageError{err: errGroupAndProject}
	}
	ref, err := apiclient.ParseGroupRef(gf.group)
	if err != nil {
		return nil, nil, "", usagef("--group: %v", err)
	}
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return nil, nil, "", err
	}
	refs, err := a.groupRefs(ctx, c, ref, gf.subgroups)
	return refs, c, host, err
}

// checkProjects audits and evaluates each project; a project that could
// not be read is unchecked (named), a token that fails ends the run.
func (a *app) checkProjects(ctx context.Context, g *globalFlags, c *apiclient.Client, host string, refs []apiclient.ProjectRef, pol *check.Policy) (checkFindings, error) {
	var out checkFindings
	store, flushAges := a.keysSeenBatch(true)
	defer flushAges()
	paths, flushPaths := a.projectPathsBatch()
	defer flushPaths()
	out.results, out.unchecked = []check.Result{}, []check.Unchecked{}
	for _, ref := range refs {
		last := ""
		if ref.Path == "" {
			last = a.lastPath(paths, host, ref.ID)
		}
		watch := &sentryWatch{}
		au, err := audit.AuditProjectWith(ctx, c, ref, audit.AuditOptions{LastPath: last, Resolve: watch.resolver(a.sentryResolver(g))})
		if err != nil {
			if tokenError(err) || ctx.Err() != nil {
				return out, a.checkFailed(err, "checking "+ref.String())
			}
			out.unchecked = append(out.unchecked, check.Unchecked{Project: ref.String(), Why: a.explain(err, "run errtrack check again")})
			continue
		}
		if paths != nil && au.Project.ID != 0 && au.Project.Path != "" {
			paths.Remember(host, au.Project.ID, au.Project.Path)
		}
		a.withAges(store, host, &au, true)
		pr := check.ProjectOf(au)
		if err := watch.get(); err != nil {
			pr.KeysUnread = a.explain(err, "run errtrack check again")
			if tokenError(err) {
				out.tokens = append(out.tokens, au.Project.Name())
			}
		}
		if pol.For(au.Project.Path).Has(check.RuleTestEvent) {
			pr.TestEvents = sendTestEvents(ctx, c, au)
		}
		r := check.Evaluate(pol, pr, a.now())
		out.unchecked = append(out.unchecked, r.Unchecked...)
		out.results = append(out.results, r)
	}
	return out, nil
}

// checkFindings is what check found: each project's result, what could not be
// checked, and the Sentry tokens that failed (exit 4, named).
type checkFindings struct {
	results   []check.Result
	unchecked []check.Unchecked
	tokens    []string
}

func (a *app) runCheck(ctx context.Context, g *globalFlags, c *apiclient.Client, host string, refs []apiclient.ProjectRef, pol *check.Policy, format, junitFile string) ([]check.Result, error) {
	out, err := a.checkProjects(ctx, g, c, host, refs, pol)
	if err != nil {
		return nil, err
	}
	results, unchecked := out.results, out.unchecked
	n := 0
	for _, r := range results {
		n += len(r.Findings)
	}
	switch format {
	case "json":
		err = writeJSON(a.stdout, checkJSON{Policy: pol.Source, Projects: results, Unchecked: unchecked, Findings: n})
	case "junit":
		err = check.WriteJUnit(a.stdout, results)
	default:
		a.printCheck(a.stdout, results)
	}
	if err == nil && junitFile != "" {
		err = writeJUnitFile(junitFile, results)
	}
	if err != nil {
		return nil, err
	}
	// What could not be checked is named on stderr whatever the format,
	// once per cause: the projects one unread group leaves unchecked are
	// one line.
	for _, line := range uncheckedLines(unchecked) {
		fmt.Fprintf(a.stderr, "errtrack: not checked: %s\n", explain.Text(line))
	}
	switch {
	case len(out.tokens) > 0:
		return results, exitStatus{code: exitToken, err: reportedf(a, "a Sentry token failed (see above): the keys of %s were not checked", strings.Join(out.tokens, ", "))}
	case n > 0:
		return results, exitStatus{code: exitFindings, err: reportedf(a, "%s in %s: the policy does not hold", plural(n, "finding"), plural(len(results), "project"))}
	case len(unchecked) > 0:
		return results, exitStatus{code: exitFailure, err: reportedf(a, "no findings, but not everything could be checked (see above)")}
	}
	if format == "text" {
		fmt.Fprintf(a.stdout, "The policy holds in %s.\n", plural(len(results), "project"))
	}
	return results, nil
}

// printCheck prints one line per finding: project, key, variable, rule,
// then the command that fixes it.
func (a *app) printCheck(w io.Writer, results []check.Result) {
	tw := newTable(w)
	any := false
	for _, r := range results {
		for _, f := range r.Findings {
			if !any {
				fmt.Fprintln(tw, "PROJECT\tKEY\tVARIABLE\tRULE\tFINDING\tFIX")
				any = true
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", explain.Text(r.Project), dash(f.Key), dash(f.Variable), f.Rule, explain.Text(f.What), explain.Text(f.Fix))
		}
	}
	_ = tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return explain.Text(s)
}

// writeJUnitFile writes the JUnit report whole or not at all.
func writeJUnitFile(path string, results []check.Result) error {
	var b strings.Builder
	if err := check.WriteJUnit(&b, results); err != nil {
		return err
	}
	if err := atomicfile.Write(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("the JUnit report could not be written: %w", err)
	}
	return nil
}

// warnBroadToken reads the token's scopes while the command runs; the
// returned func waits and warns when they are broader than command needs.
// A token whose scopes cannot be read (not a personal, project or group
// access token) warns of nothing.
func (a *app) warnBroadToken(ctx context.Context, c *apiclient.Client, command string) func() {
	ch := make(chan []string, 1)
	go func() {
		t, _, err := c.TokenInfo(ctx)
		if err != nil || t == nil {
			ch <- nil
			return
		}
		ch <- t.Scopes
	}()
	return func() {
		if w := broaderScope(command, <-ch); w != "" {
			fmt.Fprintf(a.stderr, "errtrack: warning: %s.\n", w)
		}
	}
}

// uncheckedLines names what could not be checked, one line per cause (its
// rules and why), with the projects it left unchecked: at most ten named.
func uncheckedLines(unchecked []check.Unchecked) []string {
	type cause struct{ rules, why string }
	var order []cause
	projects := map[cause][]string{}
	for _, u := range unchecked {
		c := cause{strings.Join(u.Rules, ", "), u.Why}
		if _, ok := projects[c]; !ok {
			order = append(order, c)
		}
		if ps := projects[c]; len(ps) == 0 || ps[len(ps)-1] != u.Project {
			projects[c] = append(ps, u.Project)
		}
	}
	lines := make([]string, 0, len(order))
	for _, c := range order {
		ps := projects[c]
		what := strings.Join(ps, ", ")
		if len(ps) > 10 {
			what = strings.Join(ps[:10], ", ") + fmt.Sprintf(" and %d more projects", len(ps)-10)
		}
		if c.rules != "" {
			what += " (" + c.rules + ")"
		}
		lines = append(lines, what+": "+c.why)
	}
	return lines
}
