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
