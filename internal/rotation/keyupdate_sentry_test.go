package rotation

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A rename, a disable and an enable keep the key's JavaScript loader
// settings: Sentry's PUT would reset browserSdkVersion to the project's
// default were it not sent back.
func TestKeyUpdateKeepsTheLoaderVersion(t *testing.T) {
	w := flowtest.NewSentryBacked(t, mocksentry.Options{})
	ctx := context.Background()
	prod := w.Key(t, "Production")
	loader := func() mocksentry.Key {
		for _, k := range w.Sentry.Keys("demo", "legacy-api") {
			if k.Public == prod.PublicKey {
				return k
			}
		}
		t.Fatal("the key is gone")
		return mocksentry.Key{}
	}
	if k := loader(); k.BrowserSDK != "7.x" || k.Loader["hasReplay"] {
		t.Fatalf("the demo key's loader: %+v", k)
	}
	name := "Production (EU)"
	if _, err := w.Store.(keystore.Updater).UpdateKey(ctx, prod.PublicKey, sentry.UpdateKeyOptions{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if k := loader(); k.Label != name || k.BrowserSDK != "7.x" || k.Loader["hasReplay"] {
		t.Fatalf("after the rename: %+v", k)
	}
	for _, on := range []bool{false, true} {
		if _, err := w.Store.(keystore.Disabler).SetActive(ctx, prod, on); err != nil {
			t.Fatal(err)
		}
		if k := loader(); k.Active != on || k.BrowserSDK != "7.x" || k.Loader["hasReplay"] {
			t.Fatalf("after active=%v: %+v", on, k)
		}
	}
}
