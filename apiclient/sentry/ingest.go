package sentry

import (
	"context"

	"github.com/errtrack/errtrack/apiclient"
)

// SendTestEvent sends one error event to the ingestion endpoint of a key's
// public DSN (POST /api/PROJECT_ID/envelope/ with X-Sentry-Auth), as an SDK
// would. The token is not sent: the DSN's public key is the credential,
// and the DSN's host may be another than the API's (oNNN.ingest.sentry.io).
// Any answer is a DSNCheck, whose Outcome says what it proves (Relay,
// docs/sentry-api.md "Ingestion"): 200 accepted by ingestion, which a key
// whose config Relay has not fetched yet gets too; 403 refused (a
// disabled, deleted or unknown key, once Relay knows it); 429 dropped by a
// quota, spike protection or the key's own rate limit, with the wait
// (RetryAfter) and the limits' scopes and reasons (Limits). Only a request
// that got no answer is an error. It records an event in the project:
// send it only when the user asked.
func (c *Client) SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error) {
	return c.api.SendTestEvent(ctx, dsn, message)
}
