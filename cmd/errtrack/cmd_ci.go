package main

import (
	_ "embed"

	"github.com/spf13/cobra"
)

// ciTemplate is the scheduled job errtrack ci template prints.
//
//go:embed ci_template.yml
var ciTemplate string

func (a *app) ciCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "ci",
		Short:   "errtrack in a pipeline",
		Example: "  errtrack ci template >> .gitlab-ci.yml",
		Args:    noArgs,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "template",
		Short: "Print a .gitlab-ci.yml job that runs errtrack check on a schedule",
		Long: `Prints a GitLab CI/CD job that runs errtrack check on a pipeline schedule
with the tokens from masked CI/CD variables, keeps the JSON report as an
artifact and publishes the JUnit report in the pipeline's tests. Findings
(exit 3) mark the job as allowed to fail; a token or a read that fails
fails it. In CI (CI=true), errtrack takes its host from CI_SERVER_URL when
no --host or GITLAB_HOST is given. docs/check.md says how to set it up.`,
		Example: "  errtrack ci template >> .gitlab-ci.yml",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := a.stdout.Write([]byte(ciTemplate))
			return err
		},
	})
	return cmd
}
