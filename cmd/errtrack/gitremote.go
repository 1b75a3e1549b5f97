package main

import (
	"bufio"
	"bytes"
	"context"
	"net/url"
	"os/exec"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/hosturl"
)

// gitRemote is a git remote that names a GitLab project.
type gitRemote struct {
	name string
	host string // normalized, e.g. https://gitlab.example.com
	path string // group/sub/project
}

// gitRemotes lists the remotes of the clone the command runs in, origin
// first; none outside a clone or without git.
func (a *app) gitRemotes(ctx context.Context) []gitRemote {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "remote", "-v")
	cmd.Dir = a.dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var list []gitRemote
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || seen[f[0]] {
			continue
		}
		if host, path, ok := parseRemote(f[1]); ok {
			seen[f[0]] = true
			r := gitRemote{name: f[0], host: host, path: path}
			if r.name == "origin" {
				list = append([]gitRemote{r}, list...)
			} else {
				list = append(list, r)
			}
		}
	}
	return list
}

// parseRemote reads the GitLab host and project path of a remote URL:
// git@host:group/app.git, ssh://git@host:2222/group/app.git or
// https://host/group/app.git. An SSH remote's GitLab is on https.
func parseRemote(raw string) (host, path string, ok bool) {
	var h, p string
	switch {
	case strings.Contains(raw, "://"):
		u, err := url.Parse(raw)
		if err != nil || u.Hostname() == "" {
			return "", "", false
		}
		switch u.Scheme {
		case "https", "http":
			h = u.Scheme + "://" + u.Host
		case "ssh", "git+ssh", "ssh+git", "git":
			h = "https://" + u.Hostname()
		default:
			return "", "", false
		}
		p = u.Path
	default: // scp-like: [user@]host:path
		at := strings.LastIndex(raw, "@")
		colon := strings.Index(raw, ":")
		if colon < 0 || colon < at {
			return "", "", false
		}
		h, p = "https://"+raw[at+1:colon], raw[colon+1:]
	}
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	norm, err := hosturl.Normalize(h)
	if err != nil {
		return "", "", false
	}
	if ref, err := apiclient.ParseProjectRef(p); err != nil || ref.Path == "" {
		return "", "", false
	}
	return norm, p, true
}

// projectFromRemote picks the git remote's project when --project is not
// given: the first remote (origin first) on the host the user named
// (--host, GITLAB_HOST…), else the first on a host with a token. It says
// which on stderr, or, for the console, returns the words to show.
func (a *app) projectFromRemote(ctx context.Context, hostFlag string) (ref apiclient.ProjectRef, host, why string, ok bool) {
	given, from := hostFlag, "--host"
	if given == "" {
		given, from = a.envHost()
	}
	if given != "" {
		if h, err := hosturl.Normalize(given); err == nil {
			given = h
		}
	}
	for _, r := range a.gitRemotes(ctx) {
		path := r.path
		switch {
		case given != "":
			prefix := strings.TrimPrefix(given, r.host)
			if !strings.HasPrefix(given, r.host) || (prefix != "" && !strings.HasPrefix("/"+path, prefix+"/")) {
				continue
			}
			path = strings.TrimPrefix("/"+path, prefix+"/")
			why = "its host is " + from
			r.host = given
		default:
			if _, err := a.keyring.Get(ctx, r.host); err != nil {
				continue
			}
			why = "errtrack has a token for its host"
		}
		ref, err := apiclient.ParseProjectRef(path)
		if err != nil {
			continue
		}
		return ref, r.host, "project " + ref.String() + " on " + r.host + ", from git remote " + r.name + " (" + why + "); --project chooses another", true
	}
	return apiclient.ProjectRef{}, "", "", false
}
