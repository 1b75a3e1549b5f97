package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
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
	cmd := &cobra.Command{
		Use:   "verify --project P KEY_ID",
		Short: "Check a client key's DSN by sending it one test event",
		Long: `Sends one minimal Sentry envelope (a single test error event) to the ingestion
endpoint of the key's DSN, as an SDK would, and reports whether it was
accepted. The event is recorded in the project's error tracking, so errtrack
asks first; --yes skips the question. Exits 1 when the event is refused.`,
		Example:     "  errtrack keys verify --project group/web-shop 12\n  errtrack keys verify -p 42 12 --yes --json",
		Annotations: map[string]string{annotKeyArg: "yes"},
		Args:        oneKeyID,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseKeyID(args[0])
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
			proj, keys, err := workflow.ProjectKeys(lctx, c, ref)
			cancel()
			if err != nil {
				return err
			}
			k, ok := workflow.FindKey(keys, id)
			if !ok {
				return fmt.Errorf("project %s has no client key %d: nothing was sent (see 'errtrack keys list -p %s')", proj.Name(), id, ref)
			}
			a.rememberHost(host)
			if !yes {
				ok, err := a.confirm(ctx, fmt.Sprintf("%s\nSend a test event with the DSN of key %s of %s? [y/N] ", workflow.VerifyWarning, workflow.KeyLabel(k), proj.Name()))
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
			check, err := workflow.VerifyKey(sctx, c, proj, k)
			var refused *workflow.RefusedError
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
				return reportedf(a, "key %s: %s. %s", workflow.KeyLabel(k), refused, workflow.RefusedAdvice)
			}
			fmt.Fprintf(a.stdout, "Key %s works: the test event was accepted (HTTP %d by %s).\n", workflow.KeyLabel(k), check.StatusCode, explain.Text(check.URL))
			return nil
		},
	}
	p.add(cmd)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "send without asking (needed when standard input is not a terminal)")
	return cmd
}
