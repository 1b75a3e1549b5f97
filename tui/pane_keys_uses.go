package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/seen"
	"github.com/errtrack/errtrack/internal/workflow"
)

// Where each key's DSN is used (the CI/CD variables of the project and its
// groups) and when errtrack first saw it, loaded after the list.

func (p *keysPane) usesLoaded(msg usesLoadedMsg) {
	if msg.err != nil {
		p.uses.fail(msg.err)
		return
	}
	p.uses.set(msg.audit)
	p.usedIn = make(map[string][]workflow.Use, len(msg.audit.Keys))
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
func (p *keysPane) usedText(k apiclient.ClientKey) string { return p.usedWords(k, workflow.Use.Label) }

// usedShort is usedText for the USED IN column.
func (p *keysPane) usedShort(k apiclient.ClientKey) string { return p.usedWords(k, workflow.Use.Short) }

func (p *keysPane) usedWords(k apiclient.ClientKey, label func(workflow.Use) string) string {
	used, ok := p.usedIn[keystore.KeyRef(k)]
	switch {
	case ok && len(used) == 0:
		return "nowhere"
	case ok:
		labels := make([]string, len(used))
		for i, u := range used {
			labels[i] = label(u)
		}
		return strings.Join(labels, ", ")
	case p.uses.loading():
		return "…"
	case p.uses.err != nil:
		return "?"
	}
	return "…"
}
