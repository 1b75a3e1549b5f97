package main

// A key as the audit and the export report it.

import (
	"strings"
	"time"

	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

// keyReport is a key in the audit's and the inventory's JSON (and YAML):
// never a variable's value; the DSN only when asked.
type keyReport struct {
	ID int64 `json:"id,omitempty" yaml:"id,omitempty"`
	// PublicKey, with the project's ID, rebuilds the key's DSN: the
	// export leaves it out unless asked (PublicKeyStart names the key).
	PublicKey      string     `json:"public_key,omitempty" yaml:"public_key,omitempty"`
	PublicKeyStart string     `json:"public_key_start,omitempty" yaml:"public_key_start,omitempty"`
	Name           string     `json:"name,omitempty" yaml:"name,omitempty"`
	Active         bool       `json:"active" yaml:"active"`
	FirstSeen      *time.Time `json:"first_seen,omitempty" yaml:"first_seen,omitempty"`
	// FirstSeenSource says where FirstSeen comes from: "sentry" (the
	// key's dateCreated) or "errtrack" (when errtrack first saw the key).
	FirstSeenSource string         `json:"first_seen_source,omitempty" yaml:"first_seen_source,omitempty"`
	Created         bool           `json:"created_by_errtrack,omitempty" yaml:"created_by_errtrack,omitempty"`
	DSN             string         `json:"dsn,omitempty" yaml:"dsn,omitempty"`
	UsedIn          []rotation.Use `json:"used_in" yaml:"used_in"`
	// UseUnknown: no variable errtrack can read holds the key's DSN and
	// these cannot be read (hidden variables, groups): its use is unknown.
	UseUnknown []string `json:"use_unknown,omitempty" yaml:"use_unknown,omitempty"`
}

// keyReports are an audit's keys as reported: each key's public key with
// withPublic, else the start of it; its DSN with withDSN.
func keyReports(au audit.Audit, withDSN, withPublic bool) []keyReport {
	out := []keyReport{}
	for _, k := range au.Keys {
		used := k.Known()
		if used == nil {
			used = []rotation.Use{}
		}
		r := keyReport{ID: k.Key.ID, Name: k.Key.Name, Active: k.Key.Active, UsedIn: used, Created: k.Seen.Created}
		if withPublic || withDSN {
			r.PublicKey = k.Key.PublicKey
		} else {
			r.PublicKeyStart = publicKeyStart(k.Key.PublicKey)
		}
		if withDSN {
			r.DSN = k.Key.DSN
		}
		if k.UseUnknown() {
			for _, u := range k.Used {
				r.UseUnknown = append(r.UseUnknown, u.Unknown)
			}
		}
		if !k.Seen.First.IsZero() {
			first := k.Seen.First
			r.FirstSeen, r.FirstSeenSource = &first, "errtrack"
			if au.Backend == keystore.BackendSentry {
				r.FirstSeenSource = "sentry"
			}
		}
		out = append(out, r)
	}
	return out
}

// publicKeyStart is the start of a public key, enough for a person to tell
// keys apart, not to rebuild a DSN: "glet_" and 8 hex digits of 32.
func publicKeyStart(k string) string {
	prefix, rest := "", k
	if strings.HasPrefix(k, "glet_") {
		prefix, rest = "glet_", k[len("glet_"):]
	}
	if len(rest) > 8 {
		rest = rest[:8]
	}
	return prefix + rest
}
