package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/safetext"
)

func (a *app) keysCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "List, create, delete and rotate a project's client keys",
		Args:  noArgs,
	}
	addHostFlags(cmd.PersistentFlags(), g)
	cmd.PersistentFlags().BoolVar(&g.jsonOut, "json", false, "print the API's JSON instead of a table")

	var listP projectFlag
	list := &cobra.Command{
		Use:     "list --project P",
		Short:   "List the client keys",
		Example: "  errtrack keys list --project group/web-shop\n  errtrack keys list -p 42 --json | jq -r '.[].errtracker_dsn'",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ref, c, err := a.projectClient(cmd.Context(), g, &listP)
			if err != nil {
				return err
			}
			keys, _, err := c.ListClientKeys(cmd.Context(), ref)
			if err != nil {
				return err
			}
			if g.jsonOut {
				if keys == nil {
					keys = []apiclient.ClientKey{}
				}
				return writeJSON(a.stdout, keys)
			}
			printKeys(a.stdout, keys)
			return nil
		},
	}
	listP.add(list)

	var createP projectFlag
	create := &cobra.Command{
		Use:     "create --project P",
		Short:   "Create a client key",
		Example: "  errtrack keys create --project group/web-shop",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ref, c, err := a.projectClient(cmd.Context(), g, &createP)
			if err != nil {
				return err
			}
			k, _, err := c.CreateClientKey(cmd.Context(), ref)
			if err != nil {
				return createFailed(err)
			}
			if g.jsonOut {
				return writeJSON(a.stdout, k)
			}
			printKey(a.stdout, k)
			return nil
		},
	}
	createP.add(create)

	var delP projectFlag
	var delYes bool
	del := &cobra.Command{
		Use:     "delete --project P KEY_ID",
		Short:   "Delete a client key (asks first)",
		Example: "  errtrack keys delete --project group/web-shop 12\n  errtrack keys delete -p 42 12 --yes   # in a script",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("keys delete takes exactly one KEY_ID")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return usagef("KEY_ID %q is not a key ID: see 'errtrack keys list'", args[0])
			}
			if !delYes && !a.stdinIsTTY() {
				return usagef("refusing to delete without confirmation: standard input is not a terminal, so pass --yes")
			}
			ref, c, err := a.projectClient(cmd.Context(), g, &delP)
			if err != nil {
				return err
			}
			if !delYes {
				keys, _, err := c.ListClientKeys(cmd.Context(), ref)
				if err != nil {
					return err
				}
				k, ok := findKey(keys, id)
				if !ok {
					return &apiclient.APIError{StatusCode: 404, Method: "DELETE", Path: "client key " + args[0], Kind: apiclient.ErrKeyNotFound}
				}
				ok, err = a.confirm(fmt.Sprintf("Delete client key %s of %s? Clients using its DSN will stop reporting. [y/N] ", keyLabel(k), safetext.Clean(ref.String())))
				if err != nil {
					return err
				}
				if !ok {
					fmt.Fprintln(a.stderr, "Nothing deleted.")
					return nil
				}
			}
			k, _, err := c.DeleteClientKey(cmd.Context(), ref, id)
			if err != nil {
				return err
			}
			if g.jsonOut {
				return writeJSON(a.stdout, k)
			}
			fmt.Fprintf(a.stdout, "Deleted client key %s.\n", keyLabel(*k))
			return nil
		},
	}
	delP.add(del)
	del.Flags().BoolVarP(&delYes, "yes", "y", false, "delete without asking (needed when standard input is not a terminal)")

	cmd.AddCommand(list, create, del, a.rotateCmd(g))
	return cmd
}

// projectClient parses --project and builds the client.
func (a *app) projectClient(ctx context.Context, g *globalFlags, p *projectFlag) (apiclient.ProjectRef, *apiclient.Client, error) {
	ref, err := p.ref()
	if err != nil {
		return ref, nil, err
	}
	c, host, err := a.client(ctx, g)
	if err != nil {
		return ref, nil, err
	}
	a.rememberHost(host)
	return ref, c, nil
}

func findKey(keys []apiclient.ClientKey, id int64) (apiclient.ClientKey, bool) {
	for _, k := range keys {
		if k.ID == id {
			return k, true
		}
	}
	return apiclient.ClientKey{}, false
}

// createFailed adds the one thing a user must know after a failed create:
// the key may exist anyway when the answer was lost.
func createFailed(err error) error {
	var apiErr *apiclient.APIError
	if errors.As(err, &apiErr) && (apiErr.Kind == apiclient.ErrServer || apiErr.Kind == apiclient.ErrBadResponse) {
		return fmt.Errorf("%s The key may have been created before the failure: check with 'errtrack keys list' before trying again", explain.Error(err, explain.Context{Retry: "check"}))
	}
	return err
}

// confirm asks a y/N question on the terminal; anything but y or yes is No.
func (a *app) confirm(question string) (bool, error) {
	ans, err := a.readLine(question)
	if err != nil {
		return false, fmt.Errorf("no answer read (%v): nothing was changed", err)
	}
	switch strings.ToLower(strings.TrimSpace(ans)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
