package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/workflow"
)

// What a bulk change's project tells the screens showing it follows its
// kind of change: a failed test event with a Sentry key (no ID) changed
// nothing, where it was once taken for a settings change whose answer was
// lost; a settings change failed may have changed them; a migration moved
// keys and settings.
func TestBulkChangesByKind(t *testing.T) {
	sentryKey := apiclient.ClientKey{PublicKey: "0a1b2c3d4e5f60718293a4b5c6d7e8f9", Name: "Production"}
	s := &apiclient.Settings{Active: true}
	for name, c := range map[string]struct {
		it   workflow.Item
		want changes
	}{
		"refused Sentry test event": {workflow.Item{Action: "send", Result: workflow.ResultFailed,
			Detail: workflow.VerifyResult{Key: sentryKey}}, changes{}},
		"settings failed": {workflow.Item{Action: "enable", Result: workflow.ResultFailed,
			Detail: workflow.SettingsResult{}}, changes{settingsStale: true, stale: true}},
		"settings created": {workflow.Item{Action: "create", Result: workflow.ResultChanged,
			Detail: workflow.SettingsResult{Creates: true, Settings: s}}, changes{settings: s, stale: true}},
		"rotation not reached": {workflow.Item{Action: "rotate", Result: workflow.ResultNotReached,
			Detail: workflow.RotationResult{Rotation: &workflow.Rotation{}}}, changes{}},
		"rotation changed": {workflow.Item{Action: "rotate", Result: workflow.ResultChanged,
			Detail: workflow.RotationResult{Rotation: &workflow.Rotation{}}}, changes{stale: true}},
		"migration changed": {workflow.Item{Action: "migrate", Result: workflow.ResultChanged,
			Detail: workflow.MigrationResult{Key: sentryKey}}, changes{settingsStale: true, stale: true}},
	} {
		got := bulkChanges(c.it)
		if got.stale != c.want.stale || got.settingsStale != c.want.settingsStale || got.settings != c.want.settings {
			t.Errorf("%s: got %+v, want %+v", name, got, c.want)
		}
	}
}
