package workflow

// Test events: one error event sent with a key's DSN, as an SDK would.

import (
	"context"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
)

// CheckAPI sends a test event to a DSN.
type CheckAPI interface {
	SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error)
}

// RefusedError: the ingestion endpoint refused the test event.
type RefusedError struct{ Check *apiclient.DSNCheck }

// RefusedAdvice follows a refused test event.
const RefusedAdvice = "The key may be inactive or deleted, or error tracking is off for the instance."

// VerifyKey sends one test event with key's DSN (keys verify, the
// console's v); a refusal is a *RefusedError.
func VerifyKey(ctx context.Context, api CheckAPI, p Project, k apiclient.ClientKey) (*apiclient.DSNCheck, error) {
	check, err := api.SendTestEvent(ctx, k.DSN, fmt.Sprintf("errtrack: test event for client key %s of %s", KeyName(k), p.Name()))
	if err != nil {
		return nil, err
	}
	if !check.Accepted {
		return check, &RefusedError{check}
	}
	return check, nil
}

// VerifyWarning is what a user is told before a test event is sent.
const VerifyWarning = "This sends one test error event with the key's DSN, as an SDK would; it is recorded in the project's error tracking."
