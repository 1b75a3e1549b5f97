package keystore

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
)

// What only a Sentry's keys can do, GitLab's store does not offer: its
// integrated keys are listed, made and deleted, never turned off, made
// with a rate limit or changed, and its token is checked elsewhere. A
// caller asking for one of these of GitLab's store finds it missing (and
// its front end says so), rather than an error from the server or a store.
func TestWhatEachStoreCanDo(t *testing.T) {
	gitlab := GitLabKeys(nil, apiclient.ProjectID(1))
	sentryStore := SentryKeys(nil, sentry.Project{Base: "https://sentry.example", Org: "acme", Slug: "web"})
	for _, c := range []struct {
		capability string
		has        func(KeyStore) bool
	}{
		{"Disabler", func(s KeyStore) bool { _, ok := s.(Disabler); return ok }},
		{"LimitedCreator", func(s KeyStore) bool { _, ok := s.(LimitedCreator); return ok }},
		{"Updater", func(s KeyStore) bool { _, ok := s.(Updater); return ok }},
		{"TokenReader", func(s KeyStore) bool { _, ok := s.(TokenReader); return ok }},
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
