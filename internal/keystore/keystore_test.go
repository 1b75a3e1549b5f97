package keystore_test

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// What only a Sentry's keys can do, GitLab's store does not offer: its
// integrated keys are listed, made and deleted, never turned off, made
// with a rate limit or changed, and its token is checked elsewhere. A
// caller asking for one of these of GitLab's store finds it missing (and
// its front end says so), rather than an error from the server or a store.
func TestWhatEachStoreCanDo(t *testing.T) {
	gitlab := keystore.GitLabKeys(nil, apiclient.ProjectID(1))
	sentryStore := keystore.SentryKeys(nil, sentry.Project{Base: "https://sentry.example", Org: "acme", Slug: "web"})
	for _, c := range []struct {
		capability string
		has        func(keystore.KeyStore) bool
	}{
		{"Disabler", func(s keystore.KeyStore) bool { _, ok := s.(keystore.Disabler); return ok }},
		{"LimitedCreator", func(s keystore.KeyStore) bool { _, ok := s.(keystore.LimitedCreator); return ok }},
		{"Updater", func(s keystore.KeyStore) bool { _, ok := s.(keystore.Updater); return ok }},
		{"TokenReader", func(s keystore.KeyStore) bool { _, ok := s.(keystore.TokenReader); return ok }},
	} {
		t.Run(c.capability, func(t *testing.T) {
			if c.has(gitlab) {
				t.Errorf("GitLab's integrated keys' store is a %s", c.capability)
			}
			if !c.has(sentryStore) {
				t.Errorf("a Sentry's keys' store is no %s", c.capability)
			}
		})
	}
}

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
