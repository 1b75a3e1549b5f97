package apiclient

import (
	"encoding/json"
	"testing"
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
