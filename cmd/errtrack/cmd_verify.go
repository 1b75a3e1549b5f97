package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
)

// verifyJSON is what `keys verify --json` prints.
type verifyJSON struct {
	KeyID    int64  `json:"key_id"`
	URL      string `json:"url"`
	Accepted bool   `json:"accepted"`
	Status   int    `json:"status"`
	Message  string `json:"message,omitempty"`
}

func (a *app) verifyCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var yes bool
	var gf groupFlags
	var ciVar, scope string
	cmd := &cobra.Command{
		Use:   "verify --project P KEY_ID | --group G [--ci-variable NAME]",
		Short: "Check a client key's DSN by sending it one test event",
		Long: `Sends one minimal Sentry envelope (a single test error event) to the ingestion
endpoint of the key's DSN, as an SDK would, and reports what the answer
proves: accepted by ingestion (which Sentry also answers for a key whose
settings it has not fetched yet), refused (the key), or rate-limited (a
quota or the key's own rate limit, with the wait). The event is recorded in the project's error tracking, so errtrack
asks first; --yes skips the question. Exits 1 when the event is refused.

--group G (with --include-subgroups) sends one event per project of the
group, with the DSN of the key its CI/CD variable (--ci-variable, default
SENTRY_DSN) holds: the DSN its applications really use. It shows the plan
first (projects without the variable, or that you do not maintain, are
skipped with the reason), asks once (--dry-run stops there), says each
project's outcome as it ends and prints a report (--json: one object per
project). Exits 1 when any project's event was refused or not sent.`,
		Example: "  errtrack keys verify --project group/web-shop 12\n  errtrack keys verify -p 42 12 --yes --json\n" +
			"  errtrack keys verify --group web --include-subgroups --dry-run",
		Annotations: map[string]string{annotKeyArg: "yes"},
		Args: func(cmd *cobra.Command, args []string) error {
			if gf.group != "" {
				if len(args) > 0 {
					return usagef("with --group, the key is the one --ci-variable holds in each project: give no KEY_ID")
				}
				return nil
			}
			return oneKeyID(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case gf.group != "" && p.raw != "":
				return usageError{err: errGroupAndProject}
			case (gf.subgroups || gf.dryR || ciVar != "" || scope != "") && gf.group == "":
				return usagef("--include-subgroups, --dry-run, --ci-variable and --environment-scope go with --group")
			case ciVar != "" && !projectscope.ValidVariableName(ciVar):
				return usagef("--ci-variable %q is not a CI/CD variable name: letters, digits and _ only, up to 255", explain.Text(ciVar))
			}
			if gf.group != "" {
				if !yes && !gf.dryR && !a.stdinIsTTY() {
					return usagef("refusing to send test events without confirmation: standard input is not a terminal, so pass --yes")
				}
				if ciVar == "" {
					ciVar = "SENTRY_DSN"
				}
				return a.verifyGroup(cmd.Context(), g, gf, ciVar, scope, yes)
			}
			id, kref, err := parseKeyRef(args[0])
			if err != nil {
				return err
			}
			if !yes && !a.stdinIsTTY() {
				return usagef("refusing to send a test event without confirmation: standard input is not a terminal, so pass --yes")
			}
			ctx := cmd.Context()
			ref, c, host, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			lctx, cancel := a.deadline(ctx, g)
			proj, keys, err := projectscope.ProjectKeys(lctx, c, ref)
			if err == nil && kref != "" {
				var store keystore.KeyStore
				if store, err = keystore.StoreOf(lctx, c, ref, a.sentryResolver(g)); err == nil {
					keys, err = store.All(lctx)
				}
			}
			cancel()
			if err != nil {
				return err
			}
			k, ok := rotation.FindKeyRef(keys, keyRefString(id, kref))
			if !ok {
				return fmt.Errorf("project %s has no client key %s: nothing was sent (see 'errtrack keys list -p %s')", proj.Name(), keyRefString(id, kref), ref)
			}
			a.rememberHost(host)
			if !yes {
				ok, err := a.confirm(ctx, fmt.Sprintf("%s\nSend a test event with the DSN of key %s of %s? [y/N] ", testevent.Warning, rotation.KeyLabel(k), proj.Name()))
				switch {
				case err != nil:
					return fmt.Errorf("%w: nothing was sent", err)
				case !ok:
					fmt.Fprintln(a.stderr, "Nothing sent.")
					return nil
				}
			}
			sctx, cancel := a.deadline(ctx, g)
			defer cancel()
			check, err := testevent.Send(sctx, c, proj, k)
			var refused *testevent.RefusedError
			if err != nil && !errors.As(err, &refused) {
				return reportedf(a, "the test event could not be sent: %s", a.explain(err, "run the command again"))
			}
			if g.jsonOut {
				if werr := writeJSON(a.stdout, verifyJSON{KeyID: k.ID, URL: check.URL, Accepted: check.Accepted, Status: check.StatusCode, Message: check.Message}); werr != nil {
					return werr
				}
				if refused != nil {
					return reported{refused}
				}
				return nil
			}
			if refused != nil {
				return reportedf(a, "key %s: %s. %s", rotation.KeyLabel(k), refused, refused.Advice())
			}
			fmt.Fprintf(a.stdout, "Key %s: the test event was %s (HTTP %d by %s).\n", rotation.KeyLabel(k), testevent.AcceptedWords, check.StatusCode, explain.Text(check.URL))
			return nil
		},
	}
	p.add(cmd)
	fl := cmd.Flags()
	fl.BoolVarP(&yes, "yes", "y", false, "send without asking (needed when standard input is not a terminal)")
	fl.StringVar(&gf.group, "group", "", "send one event per project of this group (ID or path)")
	fl.BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	fl.BoolVar(&gf.dryR, "dry-run", false, "with --group, show the plan and send nothing")
	fl.StringVar(&ciVar, "ci-variable", "", "with --group, the CI/CD variable whose DSN is checked (default SENTRY_DSN)")
	fl.StringVar(&scope, "environment-scope", "", "with --group, the environment scope of --ci-variable, when several variables have its name")
	return cmd
}

// verifyGroup runs `keys verify --group` with the one group driver.
func (a *app) verifyGroup(ctx context.Context, g *globalFlags, gf groupFlags, variable, scope string, yes bool) error {
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return err
	}
	return a.runGroup(ctx, groupRun{g: g, gf: gf, yes: yes, kind: change.VerifyChange{Variable: variable, Scope: scope, ScopeHow: chooseScope, Resolve: a.sentryResolver(g)}, c: c, host: host, noun: "sent"})
}
