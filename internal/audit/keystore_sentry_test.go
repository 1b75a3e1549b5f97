package audit

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A Sentry key's delete is named by its public key, never as key 0.
func TestSentryKeyFixNamesItsRef(t *testing.T) {
	sentryKey := Action{Do: ActDeleteKey, Project: "web/api", Key: keystore.FromSentry(sentry.Key{ID: "2ff563fee0b1", Name: "Staging"})}
	gitlabKey := Action{Do: ActDeleteKey, Project: "web/shop", Key: apiclient.ClientKey{ID: 12}}
	if got := sentryKey.Command(); got != "errtrack keys delete -p web/api 2ff563fee0b1" {
		t.Error(got)
	}
	if got := gitlabKey.Command(); got != "errtrack keys delete -p web/shop 12" {
		t.Error(got)
	}
}
