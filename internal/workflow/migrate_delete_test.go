package workflow

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// unreadableGroups answers a group's variables 500 once fail is set, as a
// GitLab in trouble would.
type unreadableGroups struct {
	*apiclient.Client
	fail *atomic.Bool
}

func (u unreadableGroups) ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error) {
	if u.fail.Load() {
		return nil, nil, &apiclient.APIError{Method: http.MethodGet, Path: "/groups/" + g.Path + "/variables", StatusCode: 500, Kind: apiclient.ErrServer, Message: "500 Internal Server Error"}
	}
	return u.Client.ListGroupVariables(ctx, g)
}

// --delete-old-keys reads every variable again right before each delete:
// a variable that took an old key's DSN since the plan, or a group whose
// variables cannot be read now, keeps the key.
func TestDeleteOldKeysReadsEveryVariableAgainBeforeEachDelete(t *testing.T) {
	w := newMigrationWorld(t)
	w.gl.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	runPlan(t, ctx, plan(t, w.c, demoGroup(t), true, w.kind(t, w.sc, false)), w.c, nil)
	var fail atomic.Bool
	api := unreadableGroups{w.c, &fail}

	// A group unreadable between the plan and the delete.
	p := plan(t, api, demoGroup(t), true, w.kind(t, w.sc, true))
	if it := byPath(p)["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
	}
	keys := w.gl.KeyCount(1)
	fail.Store(true)
	it := byPath(runPlan(t, ctx, p, api, nil))["demo/web-shop"]
	if it.Result != ResultFailed || !strings.Contains(it.Words, "was not deleted") || w.gl.KeyCount(1) != keys {
		t.Fatalf("a key was deleted while group demo's variables could not be read: %d of %d keys, %+v", w.gl.KeyCount(1), keys, it)
	}

	// A variable that took an old key's DSN after the plan.
	fail.Store(false)
	p = plan(t, api, demoGroup(t), true, w.kind(t, w.sc, true))
	if it := byPath(p)["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
	}
	old, _, err := w.c.ListClientKeys(ctx, apiclient.ProjectID(1))
	if err != nil || len(old) == 0 {
		t.Fatal(err)
	}
	if _, _, err := w.c.CreateVariable(ctx, apiclient.ProjectID(1), apiclient.NewVariable{Key: "LEGACY_DSN", Value: old[len(old)-1].DSN, Raw: true}); err != nil {
		t.Fatal(err)
	}
	it = byPath(runPlan(t, ctx, p, api, nil))["demo/web-shop"]
	if it.Result != ResultFailed || !strings.Contains(it.Words, "LEGACY_DSN") {
		t.Fatalf("%+v", it)
	}
	for _, k := range w.gl.Keys(1) {
		if strings.Contains(old[len(old)-1].DSN, k.PublicKey) {
			return
		}
	}
	t.Fatal("the key LEGACY_DSN holds was deleted")
}
