package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A hidden variable (17.4) has a null value; a file variable says so.
func TestVariableDecodesHiddenAndFile(t *testing.T) {
	var vs []Variable
	body := `[{"variable_type":"env_var","key":"SENTRY_DSN","value":null,"hidden":true,"protected":false,"masked":true,"raw":true,"environment_scope":"*","description":null},
		{"variable_type":"file","key":"APP_ENV","value":"SENTRY_DSN=x\n","protected":false,"masked":false,"raw":true,"environment_scope":"*"}]`
	if err := json.Unmarshal([]byte(body), &vs); err != nil {
		t.Fatal(err)
	}
	if vs[0].Value != nil || !vs[0].Hidden || vs[0].VariableType != "env_var" {
		t.Errorf("hidden variable = %+v", vs[0])
	}
	if vs[1].Value == nil || vs[1].Hidden || vs[1].VariableType != "file" {
		t.Errorf("file variable (no hidden field: before 17.4) = %+v", vs[1])
	}
}

// The CI/CD variables a rotation touches, against the mock server's §13.
func TestVariables(t *testing.T) {
	ctx := context.Background()
	c, s := againstMock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	keys, _, err := c.ListClientKeys(ctx, ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	vars, _, err := c.ListVariables(ctx, ProjectID(1))
	if err != nil || len(vars) != 1 || vars[0].Key != "SENTRY_DSN" || vars[0].Value == nil || *vars[0].Value != keys[0].DSN {
		t.Fatalf("%+v %v", vars, err)
	}
	p, _ := ParseProjectRef("demo/web-shop")
	if _, _, err := c.CreateVariable(ctx, p, NewVariable{Key: "SENTRY_DSN", Value: keys[1].DSN, Masked: true, Raw: true, EnvironmentScope: "production"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.GetVariable(ctx, p, "SENTRY_DSN", ""); !errors.Is(err, ErrVariableAmbiguous) {
		t.Fatalf("two scopes without a filter: %v", err)
	}
	v, _, err := c.UpdateVariableValue(ctx, p, "SENTRY_DSN", "production", keys[0].DSN)
	if err != nil || !v.Masked || !v.Raw || v.Protected || v.EnvironmentScope != "production" || *v.Value != keys[0].DSN {
		t.Fatalf("%+v %v", v, err)
	}
	if _, _, err := c.GetVariable(ctx, p, "NOPE", ""); !errors.Is(err, ErrVariableNotFound) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing variable: %v", err)
	}
	if n := len(s.Variables(1)); n != 2 {
		t.Fatalf("%d variables", n)
	}
}
