package migrate

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// --delete-old-keys reads every variable again right before each delete:
// a variable that took an old key's DSN since the plan, or a group whose
// variables cannot be read now, keeps the key.
func TestDeleteOldKeysReadsEveryVariableAgainBeforeEachDelete(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	var fail atomic.Bool
	api := flowtest.UnreadableGroups{Client: w.Client, Fail: &fail}

	// A group unreadable between the plan and the delete.
	p := changetest.Plan(t, api, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, true))
	if it := changetest.ByPath(p)["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
	}
	keys := w.GitLab.KeyCount(1)
	fail.Store(true)
	it := changetest.ByPath(changetest.RunPlan(t, ctx, p, api, nil))["demo/web-shop"]
	if it.Result != change.ResultFailed || !strings.Contains(it.Words, "was not deleted") || w.GitLab.KeyCount(1) != keys {
		t.Fatalf("a key was deleted while group demo's variables could not be read: %d of %d keys, %+v", w.GitLab.KeyCount(1), keys, it)
	}

	// A variable that took an old key's DSN after the plan.
	fail.Store(false)
	p = changetest.Plan(t, api, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, true))
	if it := changetest.ByPath(p)["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
	}
	old, _, err := w.Client.ListClientKeys(ctx, apiclient.ProjectID(1))
	if err != nil || len(old) == 0 {
		t.Fatal(err)
	}
	if _, _, err := w.Client.CreateVariable(ctx, apiclient.ProjectID(1), apiclient.NewVariable{Key: "LEGACY_DSN", Value: old[len(old)-1].DSN, Raw: true}); err != nil {
		t.Fatal(err)
	}
	it = changetest.ByPath(changetest.RunPlan(t, ctx, p, api, nil))["demo/web-shop"]
	if it.Result != change.ResultFailed || !strings.Contains(it.Words, "LEGACY_DSN") {
		t.Fatalf("%+v", it)
	}
	for _, k := range w.GitLab.Keys(1) {
		if strings.Contains(old[len(old)-1].DSN, k.PublicKey) {
			return
		}
	}
	t.Fatal("the key LEGACY_DSN holds was deleted")
}
