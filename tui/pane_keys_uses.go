package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/seen"
)

// Where each key's DSN is used (the CI/CD variables of the project and its
// groups) and when errtrack first saw it, loaded after the list.

func (p *keysPane) usesLoaded(msg usesLoadedMsg) {
	if msg.err != nil {
		p.uses.fail(msg.err)
		return
	}
	p.uses.set(msg.audit)
	p.policy = msg.policy
	p.unread = p.unread[:0]
	for g := range msg.audit.Unread {
		p.unread = append(p.unread, clean(g))
	}
	slices.Sort(p.unread)
	p.usedIn = make(map[string][]rotation.Use, len(msg.audit.Keys))
	p.ages = make(map[int64]seen.Entry, len(msg.audit.Keys))
	for _, k := range msg.audit.Keys {
		p.usedIn[keystore.KeyRef(k.Key)] = k.Used
		if !k.Seen.First.IsZero() && k.Key.ID != 0 {
			p.ages[k.Key.ID] = k.Seen
		}
	}
}

// ageText says when errtrack first saw GitLab key id: "3 days ago (created by
// errtrack)", "" when unknown.
func (p *keysPane) ageText(id int64) string {
	e, ok := p.ages[id]
	if !ok {
		return ""
	}
	s := ago(p.sh.clock.Now().Sub(e.First)) + ", " + e.First.Local().Format(time.DateOnly)
	if e.Created {
		s += " (created by errtrack)"
	}
	return s
}

// ago words a duration as people read an age.
func ago(d time.Duration) string {
	switch days := int(d.Hours() / 24); {
	case d < time.Hour:
		return "less than an hour ago"
	case d < 2*time.Hour:
		return "an hour ago"
	case days < 1:
		return fmt.Sprintf("%d hours ago", int(d.Hours()))
	case days == 1:
		return "a day ago"
	default:
		return fmt.Sprintf("%d days ago", days)
	}
}

// usedText says where key k's DSN is used: "SENTRY_DSN (all
// environments), group web/SENTRY_DSN (production)", "nowhere", "…" while
// it is being found, "?" when the variables could not be read.
// A key read in some variables while a group's are unread says so: its
// DSN may be there too.
func (p *keysPane) usedText(k apiclient.ClientKey) string {
	return p.usedWords(k, rotation.Use.Label, "; the variables of %s could not be read: they may hold it too")
}

// usedShort is usedText for the USED IN column: an unread group as
// "? (group demo unread)", whole at 120 columns.
func (p *keysPane) usedShort(k apiclient.ClientKey) string {
	return p.usedWords(k, func(u rotation.Use) string {
		if u.Unknown != "" && u.Variable == "" {
			return "? (group " + u.Group + " unread)"
		}
		return u.Short()
	}, " (+? %s unread)")
}

// groupsNamed is "group demo", or "groups demo, demo/mobile".
func groupsNamed(groups []string) string {
	if len(groups) == 1 {
		return "group " + groups[0]
	}
	return "groups " + strings.Join(groups, ", ")
}

func (p *keysPane) usedWords(k apiclient.ClientKey, label func(rotation.Use) string, caveat string) string {
	used, ok := p.usedIn[keystore.KeyRef(k)]
	switch {
	case ok && len(used) == 0 && len(p.unread) > 0:
		return "? (" + groupsNamed(p.unread) + " unread)"
	case ok && len(used) == 0:
		return "nowhere"
	case ok:
		labels := make([]string, len(used))
		unknown := false
		for i, u := range used {
			labels[i] = label(u)
			unknown = unknown || u.Unknown != ""
		}
		s := strings.Join(labels, ", ")
		if !unknown && len(p.unread) > 0 {
			s += fmt.Sprintf(caveat, groupsNamed(p.unread))
		}
		return s
	case p.uses.loading():
		return "…"
	case p.uses.err != nil:
		return "?"
	}
	return "…"
}
