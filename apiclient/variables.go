package apiclient

import (
	"context"
	"net/http"
	"net/url"
)

// Variable is a project CI/CD variable. Value is nil for a hidden variable,
// whose value cannot be read back.
type Variable struct {
	Key              string  `json:"key"`
	Value            *string `json:"value"`
	VariableType     string  `json:"variable_type"`
	Protected        bool    `json:"protected"`
	Masked           bool    `json:"masked"`
	Hidden           bool    `json:"hidden"`
	Raw              bool    `json:"raw"`
	EnvironmentScope string  `json:"environment_scope"`
	Description      string  `json:"description,omitempty"`
}

// NewVariable is what CreateVariable sends.
type NewVariable struct {
	Key              string `json:"key"`
	Value            string `json:"value"`
	Protected        bool   `json:"protected"`
	Masked           bool   `json:"masked"`
	Raw              bool   `json:"raw"`
	EnvironmentScope string `json:"environment_scope,omitempty"`
	Description      string `json:"description,omitempty"`
}

func variablesPath(p ProjectRef) string { return "projects/" + p.escaped() + "/variables" }

// scopeFilter chooses one environment scope of a key; "" leaves the choice
// to the server, which answers ErrVariableAmbiguous when there are several.
func scopeFilter(scope string) url.Values {
	if scope == "" {
		return nil
	}
	return url.Values{"filter[environment_scope]": {scope}}
}

// ListVariables returns every CI/CD variable of the project.
func (c *Client) ListVariables(ctx context.Context, p ProjectRef) ([]Variable, *Response, error) {
	return listAll[Variable](ctx, c, variablesPath(p), nil)
}

// GetVariable reads variable key in the given environment scope ("" for
// the only one).
func (c *Client) GetVariable(ctx context.Context, p ProjectRef, key, scope string) (*Variable, *Response, error) {
	return doOne[Variable](ctx, c, request{method: http.MethodGet, path: variablesPath(p) + "/" + url.PathEscape(key), query: scopeFilter(scope)})
}

// CreateVariable creates a variable. It is never retried: a lost answer
// may hide a variable that exists, and a second create would fail.
func (c *Client) CreateVariable(ctx context.Context, p ProjectRef, v NewVariable) (*Variable, *Response, error) {
	scope := v.EnvironmentScope
	if scope == "" {
		scope = "*"
	}
	return c.writeVariable(ctx, request{method: http.MethodPost, path: variablesPath(p), body: v}, v.Key, scope, v.Value)
}

// UpdateVariableValue sets the value of variable key in scope ("" for the
// only one); its other attributes stay as they are.
func (c *Client) UpdateVariableValue(ctx context.Context, p ProjectRef, key, scope, value string) (*Variable, *Response, error) {
	body := map[string]string{"value": value}
	return c.writeVariable(ctx, request{method: http.MethodPut, path: variablesPath(p) + "/" + url.PathEscape(key), query: scopeFilter(scope), body: body}, key, scope, value)
}

// writeVariable sends a variable write and checks its answer is the
// variable written.
func (c *Client) writeVariable(ctx context.Context, r request, key, scope, value string) (*Variable, *Response, error) {
	v, resp, err := doOne[Variable](ctx, c, r)
	if err == nil {
		err = checkVariable(r, resp, v, key, scope, value)
	}
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}
