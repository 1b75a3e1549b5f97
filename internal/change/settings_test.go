package change

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// When a settings write reads the keys: only where GitLab may make the
// first key (integrated ends up enabled); before a create; from the
// caller's list, given one, for a change; alongside otherwise.
func TestSettingsRequestKeyRead(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		r    SettingsRequest
		want NewKeyRead
	}{
		{SettingsRequest{Create: true, Active: true, Integrated: &yes}, KeysBefore},
		{SettingsRequest{Create: true, Active: true, Integrated: &yes, KeysKnown: true}, KeysBefore},
		{SettingsRequest{Create: true, Active: false, Integrated: &yes}, KeysNotRead},
		{SettingsRequest{Active: true}, KeysAlongside},
		{SettingsRequest{Active: true, KeysKnown: true}, KeysKnown},
		{SettingsRequest{Active: true, Integrated: &no}, KeysNotRead},
		{SettingsRequest{Active: false}, KeysNotRead},
	} {
		if got := c.r.KeyRead(); got != c.want {
			t.Errorf("%+v: %v, want %v", c.r, got, c.want)
		}
	}
}

// A change given the keys the caller knows (none) reads none before the
// write and names the first key GitLab made with it.
func TestWriteSettingsWithKnownKeysNamesTheKeyMade(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	yes := true
	ch, err := WriteSettings(context.Background(), c, apiclient.ProjectID(3), SettingsRequest{Active: true, Integrated: &yes, KeysKnown: true})
	if err != nil {
		t.Fatal(err)
	}
	if ch.CreatedKey == nil || srv.KeyCount(3) != 1 || ch.CreatedKey.ID != srv.Keys(3)[0].ID || len(ch.Keys) != 1 {
		t.Fatalf("created %+v, keys %+v; the server has %v", ch.CreatedKey, ch.Keys, srv.Keys(3))
	}
}

// settings update by ID: the write and the project's path in one round
// trip; enabling reads the keys in it too.
func TestChangeSettingsOneRoundTrip(t *testing.T) {
	ctx := context.Background()
	w, c, _ := flowtest.WaveClient(t, 2)
	ch, err := ChangeSettings(ctx, c, apiclient.ProjectID(1), KeysNotRead, func(ctx context.Context) (*apiclient.Settings, error) {
		s, _, err := c.UpdateSettings(ctx, apiclient.ProjectID(1), false, nil)
		return s, err
	})
	if err != nil || ch.Project.Path != "demo/web-shop" || ch.Settings.Active {
		t.Fatalf("%+v %v", ch, err)
	}
	w.Check(t)

	// Enabling: the keys are read too, at once, and show an active key:
	// GitLab creates none, nothing more is read.
	w, c, _ = flowtest.WaveClient(t, 3)
	ch, err = ChangeSettings(ctx, c, apiclient.ProjectID(1), KeysAlongside, func(ctx context.Context) (*apiclient.Settings, error) {
		s, _, err := c.UpdateSettings(ctx, apiclient.ProjectID(1), true, nil)
		return s, err
	})
	if err != nil || !ch.Settings.Active || ch.CreatedKey != nil {
		t.Fatalf("%+v %v", ch, err)
	}
	w.Check(t)
}
