// Package projectscope resolves what a command acts on: a project, the
// projects of a group the user maintains, and the groups above a project.
package projectscope

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
)

// Project is a project known by ID and path.
type Project struct {
	Ref  apiclient.ProjectRef
	ID   int64
	Path string
}

// Name is how a person reads the project: its path when known.
func (p Project) Name() string {
	if p.Path != "" {
		return p.Path
	}
	return p.Ref.String()
}

// ResolveProject reads the project's ID and path. On failure the returned
// Project still names the reference given.
func ResolveProject(ctx context.Context, api keystore.ProjectAPI, ref apiclient.ProjectRef) (Project, error) {
	p := Project{Ref: ref, ID: ref.ID, Path: ref.Path}
	rec, _, err := api.GetProject(ctx, ref)
	if err != nil {
		return p, err
	}
	if rec.ID > 0 {
		p.ID = rec.ID
	}
	if rec.PathWithNamespace != "" {
		p.Path = rec.PathWithNamespace
	}
	return p, nil
}

// ProjectKeys resolves the project and lists its keys at once: one round
// trip. The keys decide: when only the project record failed (a server
// error), the reference names the project.
func ProjectKeys(ctx context.Context, api keystore.KeysAPI, ref apiclient.ProjectRef) (Project, []apiclient.ClientKey, error) {
	var p Project
	var keys []apiclient.ClientKey
	perr, kerr := fanout.Both(func() (err error) {
		p, err = ResolveProject(ctx, api, ref)
		return err
	}, func() (err error) {
		keys, _, err = api.ListClientKeys(ctx, ref)
		return err
	})
	if errors.Is(perr, apiclient.ErrProjectNotFound) || errors.Is(perr, apiclient.ErrUnauthorized) {
		return p, nil, perr
	}
	return p, keys, kerr
}

// SettingsPage is the project's error tracking settings page in GitLab's web
// UI (Settings > Monitor > Error Tracking), where a Sentry is configured: the
// place the API cannot configure. host is the instance's URL.
func SettingsPage(host string, p Project) string {
	path := p.Path
	if ref, err := apiclient.ParseProjectRef(path); err != nil || ref.Path != path {
		path = "" // server text that is not a project path: by ID instead
	}
	if path == "" {
		return strings.TrimSuffix(host, "/") + "/projects/" + strconv.FormatInt(p.ID, 10)
	}
	return strings.TrimSuffix(host, "/") + "/" + path + "/-/settings/operations#js-error-tracking-settings"
}
