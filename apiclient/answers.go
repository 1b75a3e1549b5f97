package apiclient

import "strings"

// A write's answer must be the object the write returns: a server (or a
// proxy, or a mis-set host) answering 2xx with another object must not be
// reported as a change made. Each check below names what the answer lacks;
// the error is ErrBadResponse, so OutcomeUnknown says the change may or may
// not have been made.

func notThe(what string, r request, resp *Response, missing []string) error {
	if len(missing) == 0 {
		return nil
	}
	e := &APIError{Method: r.method, Path: r.displayPath(), Kind: ErrBadResponse,
		Message: "the answer is not " + what + ": " + strings.Join(missing, ", ")}
	if resp != nil && resp.Response != nil {
		e.StatusCode = resp.StatusCode
	}
	return e
}

// checkKey: a client key has its ID (want, when not 0), a public key and
// a DSN.
func checkKey(r request, resp *Response, k *ClientKey, want int64) error {
	var missing []string
	switch {
	case k.ID <= 0:
		missing = append(missing, "it has no id")
	case want != 0 && k.ID != want:
		missing = append(missing, "it is another key")
	}
	if k.PublicKey == "" {
		missing = append(missing, "it has no public_key")
	}
	if k.DSN == "" {
		missing = append(missing, "it has no DSN")
	}
	return notThe("a client key", r, resp, missing)
}

// checkVariable: a variable has the key written, in the scope asked for,
// and (unless hidden) the value written.
func checkVariable(r request, resp *Response, v *Variable, key, scope, value string) error {
	var missing []string
	switch {
	case v.Key == "":
		missing = append(missing, "it has no key")
	case v.Key != key:
		missing = append(missing, "it is another variable")
	}
	if scope != "" && v.EnvironmentScope != "" && v.EnvironmentScope != scope {
		missing = append(missing, "it is in another environment scope")
	}
	if v.Value != nil && *v.Value != value {
		missing = append(missing, "it holds another value")
	}
	return notThe("the variable written", r, resp, missing)
}

// checkSettings: the settings written hold the active state asked for.
// (The active field itself is required by Settings.UnmarshalJSON.)
func checkSettings(r request, resp *Response, s *Settings, active bool) error {
	if s.Active != active {
		return notThe("the settings written", r, resp, []string{"active is not what was sent"})
	}
	return nil
}
