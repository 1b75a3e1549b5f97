package sentry

import (
	"context"

	"github.com/errtrack/errtrack/apiclient"
)

// SendTestEvent sends one error event to the ingestion endpoint of a key's
// public DSN (POST /api/PROJECT_ID/envelope/ with X-Sentry-Auth), as an SDK
// would. The token is not sent: the DSN's public key is the credential,
// and the DSN's host may be another than the API's (oNNN.ingest.sentry.io).
// Sentry accepts an active key's event with 200 and refuses a disabled or
// deleted key's with 403; any answer is a DSNCheck, only a request that
// got none is an error. It records an event in the project: send it only
// when the user asked.
func (c *Client) SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error) {
	return c.api.SendTestEvent(ctx, dsn, message)
}
