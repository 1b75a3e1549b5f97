package rotation

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// A rotation finds the old DSN on a dotenv line of a file variable, and
// sets that line alone: the file's other lines stay.
func TestRotationFileVariableKeepsItsOtherLines(t *testing.T) {
	content := "APP_ENV=production\nSENTRY_DSN=\"https://glet_old@gitlab.example.com/errortracking/api/v1/projects/1/\"\nLOG_LEVEL=info\n"
	env := "https://glet_old@GITLAB.example.com:443/errortracking/api/v1/projects/1"
	vars := []apiclient.Variable{{Key: "APP_ENV", VariableType: "file", Value: &content, EnvironmentScope: "*"},
		{Key: "SENTRY_DSN", VariableType: "env_var", Value: &env, EnvironmentScope: "*"}}
	old := "https://glet_old@gitlab.example.com:443/errortracking/api/v1/projects/1"
	p, err := planVariables(vars, old, "", "")
	if err != nil || len(p.targets) != 2 || !p.targets[0].HoldsOld || !p.targets[1].HoldsOld {
		t.Fatalf("%+v %v", p.targets, err)
	}
	repl := "https://glet_new@gitlab.example.com:443/errortracking/api/v1/projects/1"
	if got := p.targets[0].ValueFor(old, repl); got != "APP_ENV=production\nSENTRY_DSN=\""+repl+"\"\nLOG_LEVEL=info\n" {
		t.Errorf("file variable set to %q", got)
	}
	if got := p.targets[1].ValueFor(old, repl); got != repl {
		t.Errorf("variable set to %q", got)
	}
}
