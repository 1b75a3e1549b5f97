package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// What each command needs of its tokens: GitLab's classic scope, its
// fine-grained permissions and the role, and a Sentry token's scopes. The
// one table, so that auth permissions, check's warning and the docs agree.
//
// Sources:
//   - GitLab's fine-grained permissions: gitlabhq/gitlabhq
//     lib/api/error_tracking/client_keys.rb (route_setting :authorization:
//     read_/create_/delete_error_tracking_client_key),
//     lib/api/error_tracking/project_settings.rb (read_/update_error_tracking_setting),
//     config/authz/permission_groups/assignable_permissions/ci_cd/variable/*.yml
//     (read_variable, update_variable: project and group boundaries);
//     both error tracking APIs authorize :admin_operations (the Maintainer
//     role); a group's variables need the Owner role (the mock's rule,
//     docs/gitlab-mock.md).
//   - The classic scope: read_api reads, api writes (the mock answers a
//     read_api token's write 403 insufficient_scope, as GitLab does).
//   - Sentry's scopes: docs/sentry-api.md (project_key_details.py and
//     project_keys.py: project:read lists and reads keys, project:write
//     creates and changes them, project:admin deletes them).
type permission struct {
	command string
	scope   string   // GitLab classic scope: read_api or api
	fine    []string // GitLab fine-grained permissions
	role    string
	sentry  []string // Sentry scopes (Sentry-backed projects)
}

var (
	readKeys     = []string{"read_error_tracking_setting", "read_error_tracking_client_key"}
	readAll      = append(slices.Clone(readKeys), "read_variable")
	rotateNeeds  = append(slices.Clone(readAll), "create_error_tracking_client_key", "delete_error_tracking_client_key", "update_variable")
	ownerForVars = "Maintainer (Owner of a group to read its variables)"
)

var permissions = []permission{
	{"settings get", "read_api", []string{"read_error_tracking_setting"}, "Maintainer", nil},
	{"settings create/update/enable/disable", "api", []string{"read_error_tracking_setting", "update_error_tracking_setting"}, "Maintainer", nil},
	{"keys list", "read_api", readKeys, "Maintainer", []string{"project:read"}},
	{"keys create", "api", append(slices.Clone(readKeys), "create_error_tracking_client_key"), "Maintainer", []string{"project:write"}},
	{"keys update", "read_api", []string{"read_error_tracking_setting"}, "Maintainer", []string{"project:write"}},
	{"keys delete", "api", append(slices.Clone(readAll), "delete_error_tracking_client_key"), ownerForVars, []string{"project:admin"}},
	{"keys rotate", "api", rotateNeeds, ownerForVars, []string{"project:write", "project:admin"}},
	{"keys verify", "read_api", readKeys, "Maintainer", []string{"project:read"}},
	{"audit", "read_api", readAll, ownerForVars, []string{"project:read"}},
	{"check", "read_api", readAll, ownerForVars, []string{"project:read"}},
	{"check --fix", "api", rotateNeeds, ownerForVars, []string{"project:write", "project:admin"}},
	{"doctor", "read_api", readAll, ownerForVars, []string{"project:read"}},
	{"export", "read_api", readAll, ownerForVars, []string{"project:read"}},
}

// permissionFor is the row of a command ("keys rotate", "check --fix").
func permissionFor(command string) (permission, bool) {
	command = strings.Join(strings.Fields(command), " ")
	for _, p := range permissions {
		for _, name := range expandCommand(p.command) {
			if name == command {
				return p, true
			}
		}
	}
	return permission{}, false
}

// expandCommand spells out "settings create/update" as its commands.
func expandCommand(c string) []string {
	head, tail, ok := strings.Cut(c, " ")
	if !ok || !strings.Contains(tail, "/") {
		return []string{c}
	}
	var out []string
	for _, t := range strings.Split(tail, "/") {
		out = append(out, head+" "+t)
	}
	return out
}

func (a *app) permissionsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "permissions [COMMAND]",
		Short: "The token permissions each command needs (GitLab and Sentry)",
		Long: `Prints, for each command (or the one named), the GitLab classic scope, the
GitLab fine-grained permissions and role, and the Sentry scopes it needs, so
that a scheduled job runs with least privilege: errtrack check needs only
read_api; check --fix, api. A Sentry organisation token cannot manage keys:
use an internal integration's token.`,
		Example: "  errtrack auth permissions\n  errtrack auth permissions check\n  errtrack auth permissions 'keys rotate'",
		Args:    cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			rows := permissions
			if len(args) > 0 {
				p, ok := permissionFor(strings.Join(args, " "))
				if !ok {
					var names []string
					for _, p := range permissions {
						names = append(names, p.command)
					}
					return usagef("no permissions listed for %q: one of %s", strings.Join(args, " "), strings.Join(names, ", "))
				}
				rows = []permission{p}
			}
			tw := newTable(a.stdout)
			fmt.Fprintln(tw, "COMMAND\tGITLAB SCOPE\tGITLAB FINE-GRAINED PERMISSIONS\tROLE\tSENTRY SCOPES")
			for _, p := range rows {
				sentry := strings.Join(p.sentry, ", ")
				if sentry == "" {
					sentry = "-"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.command, p.scope, strings.Join(p.fine, ", "), p.role, sentry)
			}
			return tw.Flush()
		},
	}
	// "auth permissions check --fix" names the command check --fix.
	cmd.Flags().SetInterspersed(false)
	return cmd
}

// broaderScope says, when the token's classic scopes give more than the
// command needs (api where read_api does), how to narrow it; "" when not.
func broaderScope(command string, scopes []string) string {
	p, ok := permissionFor(command)
	if !ok || p.scope != "read_api" || !slices.Contains(scopes, "api") {
		return ""
	}
	return fmt.Sprintf("the token has the api scope (it can change everything you can); %s needs only read_api (errtrack auth permissions %s): give a scheduled job a read_api token", command, command)
}
