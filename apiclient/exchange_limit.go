package apiclient

import (
	"context"
	"errors"
)

// errExchangeLimit is the cause of an exchange's context when the client's
// own bound (c.timeout) ended it, not the caller's context.
var errExchangeLimit = errors.New("the client's exchange limit ran out")

// exchangeCut is the error of an exchange that c.timeout ended.
type exchangeCut struct{ error }

func (e exchangeCut) Unwrap() error { return e.error }

// exchangeContext bounds one exchange, its body read whole, by c.timeout
// (no further than ctx does when c.timeout is 0).
func (c *Client) exchangeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, c.timeout, errExchangeLimit)
}

// cutByLimit marks err as the exchange limit's doing when that is what
// ended actx, so the error names the bound that fired.
func cutByLimit(actx context.Context, err error) error {
	if err != nil && errors.Is(context.Cause(actx), errExchangeLimit) {
		return exchangeCut{err}
	}
	return err
}
