package change

import (
	"context"
	"slices"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// SettingsChangeAPI is what ChangeSettings reads beside the write.
type SettingsChangeAPI interface {
	keystore.ProjectAPI
	ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error)
}

// SettingsWritten is a settings write and what came of it.
type SettingsWritten struct {
	Project  projectscope.Project
	Settings *apiclient.Settings
	// CreatedKey is the client key GitLab created with the change (it does
	// when integrated error tracking ends up enabled in a project with no
	// active key); nil when it created none, or when that cannot be told.
	CreatedKey *apiclient.ClientKey
	// Keys are the project's keys as last read with the write, when they
	// were read (nil when not, or when the last read failed).
	Keys []apiclient.ClientKey
}

// NewKeyRead says when ChangeSettings reads the keys a write may add to.
type NewKeyRead int

const (
	// KeysNotRead: the write cannot create a key (it disables, or turns
	// integrated off).
	KeysNotRead NewKeyRead = iota
	// KeysAlongside: read at the same time as the write, so the write
	// stays one round trip; a read the server answers after its key is
	// made shows that key already, and then none is named (never a wrong
	// one). A PATCH, which writes longer than a list reads, is this.
	KeysAlongside
	// KeysBefore: read before the write, one round trip more, so the key
	// made is always named: settings create, the first setup, whose
	// point is often that key.
	KeysBefore
	// KeysKnown: the caller read them before (the console's keys tab), so
	// none is read before the write; read after to name the key made.
	KeysKnown
)

// ChangeSettings runs write, the settings write, with the project's path
// (given an ID, to name it) read at the same time, and the keys read as
// keys says. When they show no active key and the answer is enabled and
// integrated (GitLab's condition to create a key, gitlab-api.md §3), the
// keys are read again to name the one created.
func ChangeSettings(ctx context.Context, api SettingsChangeAPI, ref apiclient.ProjectRef, keys NewKeyRead,
	write func(context.Context) (*apiclient.Settings, error)) (SettingsWritten, error) {
	return changeSettings(ctx, api, ref, keys, nil, write)
}

// changeSettings is ChangeSettings with the keys known before (KeysKnown).
func changeSettings(ctx context.Context, api SettingsChangeAPI, ref apiclient.ProjectRef, keys NewKeyRead, known []apiclient.ClientKey,
	write func(context.Context) (*apiclient.Settings, error)) (SettingsWritten, error) {
	ch := SettingsWritten{Project: projectscope.Project{Ref: ref, ID: ref.ID, Path: ref.Path}}
	var before []apiclient.ClientKey
	var beforeErr error
	if keys == KeysKnown {
		before = known
	}
	readKeys := func() { before, _, beforeErr = api.ListClientKeys(ctx, ref) }
	var reads []func()
	if ref.Path == "" {
		reads = append(reads, func() {
			if p, err := projectscope.ResolveProject(ctx, api, ref); err == nil {
				ch.Project = p
			}
		})
	}
	switch keys {
	case KeysAlongside:
		reads = append(reads, readKeys)
	case KeysBefore:
		readKeys()
	}
	err := fanout.Together(func() (err error) {
		ch.Settings, err = write(ctx)
		return err
	}, reads...)
	if err != nil {
		return ch, err
	}
	s := ch.Settings
	if keys != KeysNotRead && beforeErr == nil {
		ch.Keys = before
	}
	if keys == KeysNotRead || !s.Active || !s.Integrated || beforeErr != nil || slices.ContainsFunc(before, func(k apiclient.ClientKey) bool { return k.Active }) {
		return ch, nil
	}
	after, _, err := api.ListClientKeys(ctx, ref)
	if err != nil {
		ch.Keys = nil
		return ch, nil // the change is made; only the key's name is missing
	}
	ch.Keys = after
	for _, k := range after {
		if _, had := rotation.FindKey(before, k.ID); !had {
			ch.CreatedKey = &k
			break
		}
	}
	return ch, nil
}

// SettingsRequest is one settings write: create them (PUT, for a project
// with none) or change them (PATCH).
type SettingsRequest struct {
	Create bool
	Active bool
	// Integrated: nil leaves it as it is (a PATCH only; a create without
	// it is not integrated).
	Integrated *bool
	// Known, with KeysKnown, are the project's keys as the caller read
	// them: a change (not a create) then reads none before it, and still
	// names the key made, where a read alongside may not.
	Known     []apiclient.ClientKey
	KeysKnown bool
}

// SettingsWriteAPI is what WriteSettings needs.
type SettingsWriteAPI interface {
	SettingsChangeAPI
	CreateSettings(ctx context.Context, p apiclient.ProjectRef, active, integrated bool) (*apiclient.Settings, *apiclient.Response, error)
	UpdateSettings(ctx context.Context, p apiclient.ProjectRef, active bool, integrated *bool) (*apiclient.Settings, *apiclient.Response, error)
}

// KeyRead is when the write's keys are read: only where it may make
// GitLab create the first key (integrated ends up enabled); before a
// create, whose point is often that key; alongside a change.
func (r SettingsRequest) KeyRead() NewKeyRead {
	integrated := r.Integrated == nil || *r.Integrated
	switch {
	case !r.Active || !integrated:
		return KeysNotRead
	case r.Create:
		return KeysBefore
	case r.KeysKnown:
		return KeysKnown
	}
	return KeysAlongside
}

// Send sends the write alone.
func (r SettingsRequest) Send(ctx context.Context, api SettingsWriteAPI, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
	if r.Create {
		s, _, err := api.CreateSettings(ctx, ref, r.Active, r.Integrated != nil && *r.Integrated)
		return s, err
	}
	s, _, err := api.UpdateSettings(ctx, ref, r.Active, r.Integrated)
	return s, err
}

// WriteSettings is the one settings write both front ends run: the
// request, with the keys read as KeyRead says to name a key GitLab
// creates with it.
func WriteSettings(ctx context.Context, api SettingsWriteAPI, ref apiclient.ProjectRef, r SettingsRequest) (SettingsWritten, error) {
	return changeSettings(ctx, api, ref, r.KeyRead(), r.Known, func(ctx context.Context) (*apiclient.Settings, error) {
		return r.Send(ctx, api, ref)
	})
}
