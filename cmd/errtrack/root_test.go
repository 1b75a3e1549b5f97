package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "version").must(t, 0, "errtrack dev")
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.Runnable() && cmd.Name() != "help" && !strings.HasPrefix(cmd.CommandPath(), "errtrack completion") && cmd.Name() != "version" && cmd.Example == "" {
			t.Errorf("%s has no example", cmd.CommandPath())
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(newApp().rootCmdFor(nil))
	c.run("", "keys", "rotate", "--help").must(t, 0, "Examples:", "--old")
	c.run("", "completion", "bash").must(t, 0, "bash completion")
}

// A mistyped command is an error with a suggestion, not a help page and exit 0.
func TestMistypedCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "lsit").must(t, 2, `unknown command "lsit" for "errtrack keys"`, "did you mean list?")
	c.run("", "keys", "lsit", "-p", "1").must(t, 2, `unknown command "lsit"`, "did you mean list?")
	c.run("", "key", "list", "-p", "1").must(t, 2, `unknown command "key" for "errtrack"`, "did you mean keys?")
	c.run("", "auth", "stauts").must(t, 2, "did you mean status?")
	c.run("", "settings").must(t, 0, "Available Commands")
}

// Flag values are checked with words, not strconv's.
func TestFlagValueWords(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"settings", "create", "-p", "2", "--active=yes", "--integrated=true"}, `--active takes true or false, not "yes"`},
		{[]string{"keys", "list", "-p", "1", "--timeout", "soon"}, `--timeout takes a duration such as 30s`},
		{[]string{"keys", "rotate", "-p", "1", "--old", "abc"}, `--old takes the key to replace`},
	} {
		r := c.run("", tc.args...)
		r.must(t, 2, tc.want)
		if strings.Contains(r.stderr, "strconv") {
			t.Fatalf("strconv's words: %s", r.stderr)
		}
	}
}
