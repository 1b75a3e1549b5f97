package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

// completionTimeout bounds the server calls of a completion: a shell
// waiting on Tab must not hang.
const completionTimeout = 2 * time.Second

// addCompletions completes --project on every command that takes it, and
// key IDs for the commands that act on one key.
func (a *app) addCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.Flags().Lookup("project") != nil {
			_ = c.RegisterFlagCompletionFunc("project", a.completeProject)
		}
		if c.Annotations[annotKeyArg] != "" {
			c.ValidArgsFunction = a.completeKeyID
		}
	}
	walk(root)
}

// completeProject offers the host's recent projects and, with a token at
// hand, the server's search for what is typed.
func (a *app) completeProject(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	host, err := a.resolveHost(flagValue(cmd, "host"))
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	seen := map[string]bool{}
	add := func(path, desc string) {
		// Completion goes to the shell, then the terminal, raw: only a
		// path made of GitLab path segments is offered, with a cleaned
		// description.
		if !completablePath().MatchString(path) {
			return
		}
		if !seen[path] && strings.HasPrefix(strings.ToLower(path), strings.ToLower(toComplete)) {
			seen[path] = true
			out = append(out, path+"\t"+completionText(desc))
		}
	}
	c, _, _ := a.loadConfigQuietly()
	for _, r := range c.Recent[host] {
		if r.Path != "" {
			add(r.Path, "recent")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	if api, err := a.clientFor(ctx, &globalFlags{host: host}, host); err == nil {
		ps, _, err := api.ListProjects(ctx, apiclient.ListProjectsOptions{Search: lastSegment(toComplete), PerPage: 20})
		if err == nil {
			for _, p := range ps {
				add(p.PathWithNamespace, p.Name)
			}
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// lastSegment is what GitLab's project search can match: the part after
// the last slash of a path being typed.
func lastSegment(s string) string {
	if i := strings.LastIndex(s, "/"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// completeKeyID offers the key IDs of the project given (or the git
// remote's), with their public keys.
func (a *app) completeKeyID(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	g := &globalFlags{host: flagValue(cmd, "host")}
	ref, c, _, err := a.projectClient(ctx, g, &projectFlag{raw: flagValue(cmd, "project")})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	keys, _, err := c.ListClientKeys(ctx, ref)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, k := range keys {
		if id := fmt.Sprint(k.ID); strings.HasPrefix(id, toComplete) {
			out = append(out, id+"\t"+completionText(k.PublicKey))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completablePath is a project path as GitLab allows it: segments of
// letters, digits, _, - and . separated by slashes.
var completablePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+$`) })

// completionText is server text fit for a completion's description: no
// control characters or escape sequences, no tabs or line breaks (which
// separate completions), short.
func completionText(s string) string {
	s = safetext.Excerpt(s, 80)
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}

func flagValue(cmd *cobra.Command, name string) string {
	if f := cmd.Flags().Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}
