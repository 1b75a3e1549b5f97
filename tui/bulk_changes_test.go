package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
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
		it   change.Item
		want changes
	}{
		"refused Sentry test event": {change.Item{Action: "send", Result: change.ResultFailed,
			Detail: change.VerifyResult{Key: sentryKey}}, changes{}},
		"settings failed": {change.Item{Action: "enable", Result: change.ResultFailed,
			Detail: change.SettingsResult{}}, changes{settingsStale: true, stale: true}},
		"settings created": {change.Item{Action: "create", Result: change.ResultChanged,
			Detail: change.SettingsResult{Creates: true, Settings: s}}, changes{settings: s, stale: true}},
		"rotation not reached": {change.Item{Action: "rotate", Result: change.ResultNotReached,
			Detail: change.RotationResult{Rotation: &rotation.Rotation{}}}, changes{}},
		"rotation changed": {change.Item{Action: "rotate", Result: change.ResultChanged,
			Detail: change.RotationResult{Rotation: &rotation.Rotation{}}}, changes{stale: true}},
		"migration changed": {change.Item{Action: "migrate", Result: change.ResultChanged,
			Detail: migrate.MigrationResult{Key: sentryKey}}, changes{settingsStale: true, stale: true}},
	} {
		got := bulkChanges(c.it)
		if got.stale != c.want.stale || got.settingsStale != c.want.settingsStale || got.settings != c.want.settings {
			t.Errorf("%s: got %+v, want %+v", name, got, c.want)
		}
	}
}
