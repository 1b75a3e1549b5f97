package workflow

import (
	"context"
	"errors"

	"github.com/errtrack/errtrack/apiclient"
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

// ResolveProject reads the project's ID and path. A server that cannot show
// the project record (a token without read access to it, an old GitLab)
// still leaves the reference usable: the error is returned only when the
// project does not exist for this user.
func ResolveProject(ctx context.Context, api ProjectAPI, ref apiclient.ProjectRef) (Project, error) {
	p := Project{Ref: ref, ID: ref.ID, Path: ref.Path}
	rec, _, err := api.GetProject(ctx, ref)
	switch {
	case errors.Is(err, apiclient.ErrProjectNotFound), errors.Is(err, apiclient.ErrUnauthorized):
		return p, err
	case err != nil:
		return p, nil
	}
	if rec.ID > 0 {
		p.ID = rec.ID
	}
	if rec.PathWithNamespace != "" {
		p.Path = rec.PathWithNamespace
	}
	return p, nil
}

// ProjectKeys resolves the project and lists its keys at once: one round trip.
func ProjectKeys(ctx context.Context, api KeysAPI, ref apiclient.ProjectRef) (Project, []apiclient.ClientKey, error) {
	var p Project
	var keys []apiclient.ClientKey
	perr, kerr := both(func() (err error) {
		p, err = ResolveProject(ctx, api, ref)
		return err
	}, func() (err error) {
		keys, _, err = api.ListClientKeys(ctx, ref)
		return err
	})
	if perr != nil {
		return p, nil, perr
	}
	return p, keys, kerr
}
