package keystore

import (
	"context"
	"errors"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
)

// SentryResolver turns a project's Sentry api_url (from GitLab's settings)
// into the store of its keys there: the front end's token lookup, which
// sends a token only to that host. Nil: Sentry keys are not managed.
type SentryResolver func(ctx context.Context, apiURL string) (KeyStore, error)

// SettingsReader reads a project's error tracking settings.
type SettingsReader interface {
	GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error)
}

// SentryBacked reports settings that send a project's errors to a Sentry
// (api_url set, integrated off): its keys are that Sentry project's.
func SentryBacked(s *apiclient.Settings) bool {
	return s != nil && !s.Integrated && s.APIURL != nil && *s.APIURL != ""
}

// StoreFor is the store of a project's keys given its settings: the
// Sentry's when they name one (and a resolver is given), else GitLab's.
func StoreFor(ctx context.Context, api KeysAPI, ref apiclient.ProjectRef, s *apiclient.Settings, resolve SentryResolver) (KeyStore, error) {
	if SentryBacked(s) && resolve != nil {
		return resolve(ctx, *s.APIURL)
	}
	return GitLabKeys(api, ref), nil
}

// ProjectKeysAPI is what listing a project's keys wherever they are needs.
type ProjectKeysAPI interface {
	KeysAPI
	SettingsReader
}

// KeysOf lists a project's keys where they are. GitLab's are read at once
// with the settings, so an integrated project's listing is one round trip;
// a Sentry-backed project's keys are then read from its Sentry.
func KeysOf(ctx context.Context, api ProjectKeysAPI, ref apiclient.ProjectRef, resolve SentryResolver) (KeyStore, []apiclient.ClientKey, error) {
	var s *apiclient.Settings
	var keys []apiclient.ClientKey
	var serr error
	kerr := fanout.Together(func() (err error) {
		keys, _, err = api.ListClientKeys(ctx, ref)
		return err
	}, func() {
		if resolve != nil {
			s, _, serr = api.GetSettings(ctx, ref)
		}
	})
	// Settings that cannot be read leave where the keys live unknown: a
	// Sentry-backed project's GitLab keys are not its keys (as StoreOf).
	if serr != nil && !errors.Is(serr, apiclient.ErrSettingsNotFound) {
		return nil, nil, serr
	}
	if !SentryBacked(s) || resolve == nil {
		return GitLabKeys(api, ref), keys, kerr
	}
	store, err := resolve(ctx, *s.APIURL)
	if err != nil {
		return nil, nil, err
	}
	keys, err = store.All(ctx)
	return store, keys, err
}

// StoreOf reads a project's settings and returns the store of its keys.
func StoreOf(ctx context.Context, api ProjectKeysAPI, ref apiclient.ProjectRef, resolve SentryResolver) (KeyStore, error) {
	if resolve == nil {
		return GitLabKeys(api, ref), nil
	}
	s, _, err := api.GetSettings(ctx, ref)
	if err != nil && !errors.Is(err, apiclient.ErrSettingsNotFound) {
		return nil, err
	}
	return StoreFor(ctx, api, ref, s, resolve)
}
