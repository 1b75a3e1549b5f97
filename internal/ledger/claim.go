package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/errtrack/errtrack/internal/hosturl"
)

// ErrBusy: another errtrack process (or another part of this one) holds
// the claim: it is rotating that project, or running that group rotation,
// now.
var ErrBusy = errors.New("held by another errtrack run")

// Claims are lock files in the state directory's locks folder, each held
// with an exclusive lock while a process acts, and removed when it lets go:
// a crashed process's claim is free again at once (the system drops its
// lock), and no file stays behind after a clean end.

// ProjectClaim names the claim on a project's keys on host: held from a
// rotation's create to its end, so two runs never rotate one project at
// once.
func ProjectClaim(host string, projectID int64) string {
	return fmt.Sprintf("project-%s-%d", hostTag(hosturl.Identity(host)), projectID)
}

// CampaignClaim names the claim on a group rotation's runs: one run of it
// at a time.
func CampaignClaim(host, variable, scope string) string {
	return "campaign-" + hostTag(hosturl.Identity(host)+"\x00"+variable+"\x00"+scope)
}

// hostTag is a short stable file-name-safe tag of s.
func hostTag(s string) string {
	h := sha256.Sum256([]byte(strings.ToLower(s)))
	return hex.EncodeToString(h[:8])
}

// Claim takes the claim name without waiting; ErrBusy when it is held.
func (l *Ledger) Claim(name string) (release func(), err error) {
	l.claimMu.Lock()
	defer l.claimMu.Unlock()
	held, err := claim(l.claimPath(name))
	switch {
	case errors.Is(err, ErrBusy):
		return nil, err
	case err != nil:
		return nil, unwritable(l.dir, err)
	}
	if l.mine == nil {
		l.mine = map[string]int{}
	}
	l.mine[name]++
	return func() {
		l.claimMu.Lock()
		defer l.claimMu.Unlock()
		if l.mine[name]--; l.mine[name] <= 0 {
			delete(l.mine, name)
		}
		held()
	}, nil
}

// Held reports a claim held now, by this process or another: a run is at
// what it names. The probe takes the claim's lock for a moment; this
// process's own claims and probes wait for it, never refused by it.
func (l *Ledger) Held(name string) (bool, error) {
	l.claimMu.Lock()
	defer l.claimMu.Unlock()
	if l.mine[name] > 0 {
		return true, nil
	}
	release, err := claim(l.claimPath(name))
	switch {
	case errors.Is(err, ErrBusy):
		return true, nil
	case err != nil:
		return false, unwritable(l.dir, err)
	}
	release()
	return false, nil
}

func (l *Ledger) claimPath(name string) string {
	return filepath.Join(l.dir, "locks", name+".lock")
}
