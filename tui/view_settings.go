package tui

import "strings"

func check(b bool) string {
	if b {
		return "[x]"
	}
	return "[ ]"
}

func orDash(s *string) string {
	if s == nil || *s == "" {
		return "—"
	}
	return clean(*s)
}

// settingsView draws every field of the record the server returned.
func (s *projectScreen) settingsView(width int) string {
	st := s.sh.styles
	var b strings.Builder
	switch {
	case s.settingsID != 0 && s.settings == nil && !s.settingsMissing:
		b.WriteString(st.Subtle.Render(" Loading settings…"))
	case s.settingsErr != nil && s.settings == nil:
		b.WriteString(st.Error.Width(width-1).Render(" Could not load the settings. "+s.sh.explain(s.settingsErr)) + "\n")
	case s.settingsMissing:
		b.WriteString(" Error tracking is not configured for this project yet.\n\n")
		b.WriteString(" Create settings with:\n")
		b.WriteString("   " + check(s.newActive) + " active       (a to change)\n")
		b.WriteString("   " + check(s.newIntegrated) + " integrated   (i to change; GitLab's own error tracking backend)\n\n")
		b.WriteString(st.Subtle.Render(" Press enter to create them."))
	case s.settings != nil:
		set := s.settings
		row := func(label, value string) {
			b.WriteString(" " + pad(label, 14) + truncate(value, max(width-16, 10)) + "\n")
		}
		row("Active", yesNo(set.Active))
		row("Integrated", yesNo(set.Integrated))
		row("Project name", orDash(set.ProjectName))
		row("External URL", orDash(set.ExternalURL))
		row("API URL", orDash(set.APIURL))
		b.WriteString("\n")
		act := "a: disable"
		if !set.Active {
			act = "a: enable"
		}
		integ := "i: use GitLab's integrated backend"
		if set.Integrated {
			integ = "i: use the external tracker instead"
		}
		b.WriteString(st.Subtle.Render(" " + act + "   " + integ))
	}
	return b.String()
}
