package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The inventory `errtrack export` writes: its field names are stable
// (docs/export.md). No variable's value is in it, no DSN unless --with-dsn,
// and no public key (which with the project's ID rebuilds the DSN) unless
// --with-public-keys or --with-dsn.

type exportProject struct {
	Project       string        `json:"project" yaml:"project"`
	ProjectID     int64         `json:"project_id" yaml:"project_id"`
	ErrorTracking exportTrack   `json:"error_tracking" yaml:"error_tracking"`
	Keys          []keyReport   `json:"keys" yaml:"keys"`
	Unread        []string      `json:"groups_not_read,omitempty" yaml:"groups_not_read,omitempty"`
	Findings      []exportFind  `json:"findings" yaml:"findings"`
	Migration     *exportMigrat `json:"migration,omitempty" yaml:"migration,omitempty"`
}

type exportTrack struct {
	Configured bool   `json:"configured" yaml:"configured"`
	Active     bool   `json:"active" yaml:"active"`
	Backend    string `json:"backend" yaml:"backend"` // gitlab, sentry, none
	// SentryAPIURL is the Sentry project GitLab's settings name.
	SentryAPIURL string `json:"sentry_api_url,omitempty" yaml:"sentry_api_url,omitempty"`
}

type exportFind struct {
	Severity string `json:"severity" yaml:"severity"`
	What     string `json:"what" yaml:"what"`
	Fix      string `json:"fix" yaml:"fix"`
}

type exportMigrat struct {
	Target string    `json:"target" yaml:"target"`
	Phase  string    `json:"phase" yaml:"phase"`
	Since  time.Time `json:"since" yaml:"since"`
}

func (a *app) exportCmd() *cobra.Command {
	g := &globalFlags{}
	var p projectFlag
	var gf groupFlags
	var format string
	var withDSN, withPublic bool
	cmd := &cobra.Command{
		Use:   "export [-p P | --group G [--include-subgroups]] [--format json|yaml] [--with-public-keys | --with-dsn]",
		Short: "The inventory of error tracking: each project's settings, keys and where each DSN is used",
		Long: `Writes, for each project (one, or every project of a group you maintain):
its error tracking settings (integrated or Sentry, active), its client keys
(ID, public key, active, a Sentry key's name, when errtrack first saw it)
and where each key's DSN is used (project and group CI/CD variables, by
name and environment scope, never a value), the audit's findings, and a
migration to Sentry under way. It is what a maintainer keeps before GitLab
changes anything, and what 'errtrack migrate' plans from. No secret is in
it: each key is named by its ID (a Sentry key by its name) and the start of
its public key. A key's whole public key is as good as its DSN (with the
project's ID it rebuilds the DSN, and events sent with it are accepted), so
it is left out: --with-public-keys adds the public keys, --with-dsn the
public keys and DSNs; keep such a file as you keep the DSNs. The field
names are stable (docs/export.md).`,
		Example: "  errtrack export --group web --include-subgroups --format yaml > error-tracking.yaml\n  errtrack export -p web/shop --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case format != "json" && format != "yaml":
				return usagef("--format is json or yaml, not %q", explain.Text(format))
			case g.jsonOut && format != "json":
				return usagef("--json and --format %s ask for two formats: give one", explain.Text(format))
			case gf.subgroups && gf.group == "":
				return usagef("--include-subgroups goes with --group")
			}
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			var refs []apiclient.ProjectRef
			var c *apiclient.Client
			var host string
			var err error
			switch {
			case gf.group != "" && p.raw != "":
				return usageError{err: errGroupAndProject}
			case gf.group != "":
				ref, perr := apiclient.ParseGroupRef(gf.group)
				if perr != nil {
					return usagef("--group: %v", perr)
				}
				if c, host, err = a.hostClient(ctx, g); err != nil {
					return err
				}
				if refs, err = a.groupRefs(ctx, c, ref, gf.subgroups); err != nil {
					return err
				}
			default:
				var ref apiclient.ProjectRef
				if ref, c, host, err = a.projectClient(ctx, g, &p); err != nil {
					return err
				}
				refs = []apiclient.ProjectRef{ref}
			}
			out, err := a.inventory(ctx, g, c, host, refs, withDSN, withPublic)
			if err != nil {
				return err
			}
			a.rememberHost(host)
			return writeInventory(a.stdout, format, out)
		},
	}
	addHostFlags(cmd.Flags(), g)
	p.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "json", "json or yaml")
	fl.BoolVar(&g.jsonOut, "json", false, "the same as --format json (the default), as every command takes it")
	fl.BoolVar(&withDSN, "with-dsn", false, "include each key's public key and DSN (credentials: keep the file safe)")
	fl.BoolVar(&withPublic, "with-public-keys", false, "include each key's public key (with the project's ID it rebuilds the DSN: keep the file safe)")
	fl.StringVar(&gf.group, "group", "", "every project of this group (ID or path) you maintain")
	fl.BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	return cmd
}

// inventory reads each project's audit (its Sentry's keys for a
// Sentry-backed one) into the export's shape.
func (a *app) inventory(ctx context.Context, g *globalFlags, c *apiclient.Client, host string, refs []apiclient.ProjectRef, withDSN, withPublic bool) ([]exportProject, error) {
	out := []exportProject{}
	store, flushAges := a.keysSeenBatch(false)
	defer flushAges()
	// The ledger adds the migrations under way; without it the export
	// goes on, saying what it lacks.
	led, closeLedger, lerr := a.rotations(host, rotation.FrontEndMigrate)
	if lerr != nil {
		fmt.Fprintf(a.stderr, "errtrack: warning: the export says nothing of migrations under way: %s\n", a.explain(lerr, "run the command again"))
	} else {
		defer closeLedger()
	}
	for _, ref := range refs {
		au, err := audit.AuditProjectWith(ctx, c, ref, audit.AuditOptions{Resolve: a.sentryResolver(g)})
		if err != nil {
			return nil, reportedf(a, "reading %s failed: %s Nothing was written.", ref, a.explain(err, "run the command again"))
		}
		a.withAges(store, host, &au, false)
		x := exportProject{Project: au.Project.Name(), ProjectID: au.Project.ID, Keys: keyReports(au, withDSN, withPublic), Findings: []exportFind{}}
		x.ErrorTracking = exportTrack{Backend: "none"}
		if s := au.Settings; s != nil {
			x.ErrorTracking.Configured, x.ErrorTracking.Active = true, s.Active
			switch {
			case keystore.SentryBacked(s):
				x.ErrorTracking.Backend, x.ErrorTracking.SentryAPIURL = keystore.BackendSentry, *s.APIURL
			case s.Integrated:
				x.ErrorTracking.Backend = keystore.BackendGitLab
			}
		}
		x.Unread = au.UnreadGroups()
		for _, f := range au.Findings {
			x.Findings = append(x.Findings, exportFind{Severity: f.Severity, What: f.What, Fix: f.Fix})
		}
		if rec, ok := migrate.MigrationOf(led, au.Project.ID); ok {
			x.Migration = &exportMigrat{Target: rec.Target, Phase: rec.Phase, Since: rec.Started}
		}
		out = append(out, x)
	}
	return out, nil
}

func writeInventory(w io.Writer, format string, out []exportProject) error {
	if format == "json" {
		return writeJSON(w, out)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	return enc.Close()
}
