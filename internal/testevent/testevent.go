package testevent

// Test events: one error event sent with a key's DSN, as an SDK would.

import (
	"context"
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// API sends a test event to a DSN.
type API interface {
	SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error)
}

// RefusedError: the ingestion endpoint did not accept the test event:
// refused it, rate-limited it, or was no ingestion endpoint.
type RefusedError struct{ Check *apiclient.DSNCheck }

// RefusedAdvice follows a refused test event.
const RefusedAdvice = "The key may be inactive or deleted, or error tracking is off for the instance."

// RateLimitedAdvice follows a rate-limited test event: the key was not
// refused, so nothing about it is to be fixed.
const RateLimitedAdvice = "The key was not refused: a quota, spike protection or the key's own rate limit dropped the event. Send it again after the wait, or raise the limit in Sentry."

// AcceptedWords is what a 2xx proves: ingestion took the event. Sentry's
// Relay accepts while a new or just-changed key's config is pending, so
// it is no proof the key is active.
const AcceptedWords = "accepted by ingestion"

// NotTakenAdvice follows an answer that is neither an acceptance nor a
// refusal of the key (a redirect, a 404, a 400, a server failure).
const NotTakenAdvice = "The key was not refused: check that the DSN's host and path lead to the ingestion endpoint (no proxy or web page in between), or try again if the server failed."

// Error words the answer by what it proves.
func (e *RefusedError) Error() string {
	c := e.Check
	msg := ""
	if c.Message != "" {
		msg = ": " + c.Message
	}
	switch c.Outcome() {
	case apiclient.IngestRateLimited:
		s := "ingestion rate-limited the test event (HTTP 429"
		if len(c.Limits) > 0 {
			s += ", limit: " + strings.Join(c.Limits, ", ")
		}
		s += ")"
		if c.RetryAfter > 0 {
			s += "; try again in " + c.RetryAfter.String()
		}
		return s
	case apiclient.IngestNotTaken:
		return fmt.Sprintf("the DSN's ingestion endpoint did not take the test event (HTTP %d%s)", c.StatusCode, msg)
	}
	return fmt.Sprintf("the error tracking backend refused the test event (HTTP %d%s)", c.StatusCode, msg)
}

// Advice is what to do next, by what the answer proves.
func (e *RefusedError) Advice() string {
	switch e.Check.Outcome() {
	case apiclient.IngestRateLimited:
		return RateLimitedAdvice
	case apiclient.IngestNotTaken:
		return NotTakenAdvice
	}
	return RefusedAdvice
}

// Words words a recorded test event's answer (a ledger's, a
// report's): accepted by ingestion, rate-limited or refused.
func Words(accepted bool, status int) string {
	switch c := (&apiclient.DSNCheck{Accepted: accepted, StatusCode: status}); c.Outcome() {
	case apiclient.IngestAccepted:
		return AcceptedWords
	case apiclient.IngestRateLimited:
		return "rate-limited"
	case apiclient.IngestNotTaken:
		return "not taken"
	}
	return "refused"
}

// Send sends one test event with key's DSN (keys verify, the
// console's v); a refusal is a *RefusedError.
func Send(ctx context.Context, api API, p projectscope.Project, k apiclient.ClientKey) (*apiclient.DSNCheck, error) {
	check, err := api.SendTestEvent(ctx, k.DSN, fmt.Sprintf("errtrack: test event for client key %s of %s", keystore.KeyName(k), p.Name()))
	if err != nil {
		return nil, err
	}
	if !check.Accepted {
		return check, &RefusedError{check}
	}
	return check, nil
}

// Warning is what a user is told before a test event is sent.
const Warning = "This sends one test error event with the key's DSN, as an SDK would; it is recorded in the project's error tracking."
