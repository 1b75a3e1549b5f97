// Package workflow holds the flows a maintainer runs from either front end,
// the console and the commands, once: checking a token, logging in,
// resolving a project, rotating a client key. Each flow makes the fewest
// round trips its safety checks allow (requests that do not depend on each
// other go out together), and says in one place what happened, so both
// front ends tell the same story.
package workflow

import (
	"context"

	"github.com/errtrack/errtrack/apiclient"
)

// TokenAPI is what checking a token needs.
type TokenAPI interface {
	CurrentUser(ctx context.Context) (*apiclient.User, *apiclient.Response, error)
	TokenInfo(ctx context.Context) (*apiclient.TokenInfo, *apiclient.Response, error)
	ServerVersion(ctx context.Context) (*apiclient.ServerVersion, error)
}

// ProjectAPI is what resolving a project needs.
type ProjectAPI interface {
	GetProject(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error)
}

// KeysAPI is what the key workflows need.
type KeysAPI interface {
	ProjectAPI
	ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
	CreateClientKey(ctx context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error)
	DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error)
	// What a rotation and a delete read of a big list: up to the key in
	// question, the first page, or the pages from one on.
	FindClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, []apiclient.ClientKey, *apiclient.Response, error)
	FirstClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
	ListClientKeysFrom(ctx context.Context, p apiclient.ProjectRef, page int) ([]apiclient.ClientKey, *apiclient.Response, error)
	LastClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, error)
}

// both runs a and b at once and returns their errors, a's first.
func both(a, b func() error) (error, error) {
	ch := make(chan error, 1)
	go func() { ch <- b() }()
	ea := a()
	return ea, <-ch
}

// together runs fns at once and returns the first one's error.
func together(first func() error, rest ...func()) error {
	done := make(chan struct{}, len(rest))
	for _, f := range rest {
		go func() { f(); done <- struct{}{} }()
	}
	err := first()
	for range rest {
		<-done
	}
	return err
}
