package tui

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

func TestCreateKey(t *testing.T) {
	h, g := console(t, "1")
	h.key("n")
	h.mustSee("Client keys (3)", "Created client key 4 in demo/web-shop.")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("no key on the server")
	}
}

func TestDeleteDefaultsToNoAndNamesTheKey(t *testing.T) {
	h, g := console(t, "1")
	first := g.srv.Keys(1)[0]
	h.key("d")
	h.mustSee("Delete client key 1 of demo/web-shop?", first.PublicKey)
	h.key("enter") // the highlighted choice is No
	h.key("d", "esc")
	h.key("d", "n")
	if g.srv.KeyCount(1) != 2 {
		t.Fatal("a key was deleted without a yes")
	}
	h.key("d", "right", "enter")
	if ids := g.keyIDs(1); len(ids) != 1 || ids[0] != 2 {
		t.Fatalf("keys after delete: %v", ids)
	}
	h.mustSee("Deleted client key 1", "Client keys (1)")
}

// The delete acts on the key the user confirmed, even if the list changed
// under the dialog.
func TestDeleteActsOnConfirmedKey(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "d") // asks about key 2
	h.mustSee("Delete client key 2 of demo/web-shop?")
	p := h.m.top().(*projectScreen)
	p.keys.setKeys(append([]apiclient.ClientKey{{ID: 1}, {ID: 9}}, p.keys.keys()...))
	h.key("y")
	if ids := g.keyIDs(1); len(ids) != 1 || ids[0] != 1 {
		t.Fatalf("keys after delete: %v; want key 2 gone", ids)
	}
}

func TestKeyAlreadyGone(t *testing.T) {
	h, g := console(t, "1")
	g.api.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 1) // deleted elsewhere
	h.key("d", "y")
	h.mustSee("Client key 1 of demo/web-shop is already gone: it was deleted elsewhere.", "Client keys (1)")
}
