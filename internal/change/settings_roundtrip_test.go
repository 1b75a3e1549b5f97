package change

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/flowtest"
)

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
