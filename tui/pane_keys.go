package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/seen"
)

// keysPane lists a project's client keys and acts on the selected one.
// Only the rows that fit are drawn, so 10,000 keys draw as fast as ten.
type keysPane struct {
	sh   *shared
	data loadable[[]apiclient.ClientKey]
	// createdDuringLoad holds keys created while a list was in flight: that
	// list may have been read before they existed.
	createdDuringLoad []apiclient.ClientKey

	filter    textinput.Model
	filtering bool
	query     string
	rows      []int // indices into data.val of the keys shown
	list      listView

	// uses: where each key's DSN is used (CI/CD variables of the project
	// and its groups, by keystore.KeyRef) and the project's findings,
	// loaded after the list; ages (GitLab's keys only) by ID.
	uses   loadable[audit.Audit]
	usedIn map[string][]rotation.Use
	// unread are the groups whose variables could not be read: any key's
	// DSN may be there too.
	unread []string
	ages   map[int64]seen.Entry
	// policy: the key policy's findings, loaded with the uses.
	policy *check.Result

	// store holds the keys listed when they are a Sentry project's (nil:
	// GitLab's integrated keys). reports is the Sentry api_url the
	// settings name ("" when they name none): keys listed from GitLab
	// then are not the project's (misplaced).
	store   keystore.KeyStore
	reports string
	// open are the project's unfinished rotations in the ledger.
	open loadable[[]ledger.Record]

	// tracking warns that keys collect nothing while error tracking is off.
	tracking      string
	width, height int
}

func newKeysPane(sh *shared) *keysPane {
	p := &keysPane{sh: sh, filter: newTextInput("/ ", "filter by id, public key or DSN")}
	p.filter.CharLimit = 200
	return p
}

func (p *keysPane) keys() []apiclient.ClientKey { return p.data.val }

// gitlabKeys are GitLab's keys of the project as listed, when they are
// (not a Sentry project's, nor unread).
func (p *keysPane) gitlabKeys() ([]apiclient.ClientKey, bool) {
	return p.data.val, p.data.has && p.data.err == nil && p.store == nil
}

// sentry: the keys listed are a Sentry project's.
func (p *keysPane) sentry() bool { return p.store != nil }

// misplaced: the settings name a Sentry, but the keys listed are GitLab's
// (no Sentry resolver, or the settings could not be read with the keys):
// they are not the project's, and are not shown or acted on. A list that
// failed (the Sentry's token) lists nothing: its error says why.
func (p *keysPane) misplaced() bool { return p.reports != "" && !p.sentry() && p.data.has }

// usable: a list of the project's own keys is on screen.
func (p *keysPane) usable() bool { return p.data.has && !p.misplaced() }

// written applies a write's changes to the list.
func (p *keysPane) written(c changes) {
	switch {
	case c.keys != nil:
		p.store = nil // read back from GitLab: integrated tracking is on
		p.setKeys(c.keys)
	default:
		for _, k := range c.added {
			p.added(k)
		}
		for _, k := range c.updated {
			p.updated(k)
		}
		for _, k := range c.removed {
			p.removed(k)
		}
	}
}

func (p *keysPane) added(k apiclient.ClientKey) {
	p.setKeys(mergeCreated(p.data.val, []apiclient.ClientKey{k}))
	p.selectKey(k)
	if p.data.loading() {
		p.createdDuringLoad = append(p.createdDuringLoad, k)
	}
}

// updated replaces a key changed (renamed, turned off or on, limited).
func (p *keysPane) updated(k apiclient.ClientKey) {
	keys := slices.Clone(p.data.val)
	if i := slices.IndexFunc(keys, func(x apiclient.ClientKey) bool { return keystore.SameKey(x, k) }); i >= 0 {
		keys[i] = k
		p.setKeys(keys)
	}
}

func (p *keysPane) removed(k apiclient.ClientKey) {
	gone := func(x apiclient.ClientKey) bool { return keystore.SameKey(x, k) }
	p.createdDuringLoad = slices.DeleteFunc(p.createdDuringLoad, gone)
	p.setKeys(slices.DeleteFunc(slices.Clone(p.data.val), gone))
}

// mergeCreated adds the keys created while the list was loading that the
// list does not have, keeping GitLab's ascending id order; a Sentry lists
// its keys (all without an ID here) newest first, so a new one goes first.
func mergeCreated(list, created []apiclient.ClientKey) []apiclient.ClientKey {
	for _, c := range created {
		switch {
		case slices.ContainsFunc(list, func(k apiclient.ClientKey) bool { return keystore.SameKey(k, c) }):
		case c.ID == 0:
			list = append([]apiclient.ClientKey{c}, list...)
		default:
			list = append(list, c)
		}
	}
	slices.SortStableFunc(list, func(a, b apiclient.ClientKey) int { return cmp.Compare(a.ID, b.ID) })
	return list
}

// setKeys replaces the list, keeping the cursor on the same key when it is
// still there.
func (p *keysPane) setKeys(keys []apiclient.ClientKey) {
	cur, had := p.selected()
	p.data.set(keys)
	p.refilter()
	if had {
		p.selectKey(cur)
	}
}

func (p *keysPane) selectKey(k apiclient.ClientKey) {
	for i, idx := range p.rows {
		if keystore.SameKey(p.data.val[idx], k) {
			p.list.selectIndex(i)
			return
		}
	}
}

func (p *keysPane) refilter() {
	p.rows = p.rows[:0]
	q := strings.ToLower(p.query)
	for i, k := range p.data.val {
		if q == "" || strings.Contains(strconv.FormatInt(k.ID, 10), q) || strings.Contains(strings.ToLower(k.PublicKey), q) ||
			strings.Contains(strings.ToLower(k.DSN), q) || strings.Contains(strings.ToLower(k.Name), q) {
			p.rows = append(p.rows, i)
		}
	}
	p.list.setTotal(len(p.rows))
}

func (p *keysPane) selected() (apiclient.ClientKey, bool) {
	if len(p.rows) == 0 || p.list.cursor >= len(p.rows) || p.misplaced() {
		return apiclient.ClientKey{}, false
	}
	return p.data.val[p.rows[p.list.cursor]], true
}

func (p *keysPane) badge() string {
	if !p.usable() {
		return ""
	}
	return fmt.Sprintf(" (%d)", len(p.data.val))
}
