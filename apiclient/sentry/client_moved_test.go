package sentry

import (
	"context"
	"errors"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// A renamed project (Sentry's ProjectMoved, a 302 to the new slug): reads
// follow it; a write is not sent again and is ErrProjectMoved naming the
// new slug, the key unchanged.
func TestRenamedProjectWrites(t *testing.T) {
	srv, c := mock(t, mocksentry.Options{}, mocksentry.TokenAdmin)
	ctx := context.Background()
	old := Project{Org: "demo", Slug: "legacy-api"}
	keys, err := c.ListKeys(ctx, old, AllKeys)
	if err != nil || len(keys) == 0 {
		t.Fatal(err)
	}
	if !srv.RenameProject("demo", "legacy-api", "legacy-api-v2") {
		t.Fatal("rename")
	}
	if again, err := c.ListKeys(ctx, old, AllKeys); err != nil || len(again) != len(keys) {
		t.Fatalf("a read does not follow the rename: %v", err)
	}
	name := "Renamed"
	_, err = c.UpdateKey(ctx, old, keys[0].ID, UpdateKeyOptions{Name: &name})
	var se *Error
	if !errors.Is(err, ErrProjectMoved) || !errors.As(err, &se) || se.Moved == nil || se.Moved.NewSlug != "legacy-api-v2" || se.Moved.Slug != "legacy-api" {
		t.Fatalf("%v", err)
	}
	if _, err := c.DeleteKey(ctx, old, keys[0].ID); !errors.Is(err, ErrProjectMoved) {
		t.Fatalf("delete: %v", err)
	}
	if _, err := c.CreateKey(ctx, old, CreateKeyOptions{Name: "x"}); !errors.Is(err, ErrProjectMoved) {
		t.Fatalf("create: %v", err)
	}
	if now := srv.Keys("demo", "legacy-api-v2"); len(now) != len(keys) || now[len(now)-1].Label == name {
		t.Fatalf("a redirected write changed the keys: %+v", now)
	}
}
