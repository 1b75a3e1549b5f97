package rotation

import "github.com/errtrack/errtrack/internal/safetext"

// Use is a place a DSN is used: a variable of the project or of a group.
// A Use with Unknown set is a place that may use it, and cannot be read.
type Use struct {
	Group    string `json:"group,omitempty" yaml:"group,omitempty"` // "" for the project's own
	Variable string `json:"variable,omitempty" yaml:"variable,omitempty"`
	Scope    string `json:"environment_scope,omitempty" yaml:"environment_scope,omitempty"`
	// Line is the name of the line that holds the DSN in a file variable
	// (a dotenv file's SENTRY_DSN=…).
	Line string `json:"line,omitempty" yaml:"line,omitempty"`
	// Unknown says why it is not known whether this place holds the DSN:
	// "hidden variable SENTRY_DSN (all environments)".
	Unknown string `json:"unknown,omitempty" yaml:"unknown,omitempty"`
}

// Label reads "SENTRY_DSN (production)", "group web/SENTRY_DSN (all
// environments)", "APP_ENV (all environments), its SENTRY_DSN line", or
// "unknown: hidden variable SENTRY_DSN (all environments)".
func (u Use) Label() string {
	if u.Unknown != "" {
		return "unknown: " + u.Unknown
	}
	s := VariableTarget{Key: u.Variable, Scope: u.Scope}.Label()
	if u.Group != "" {
		s = "group " + safetext.Excerpt(u.Group, 80) + "/" + s
	}
	if u.Line != "" {
		s += ", its " + safetext.Excerpt(u.Line, 60) + " line"
	}
	return s
}

// Short is Label for a narrow column: "SENTRY_DSN" (all environments),
// "SENTRY_DSN (production)", "web/SENTRY_DSN", "APP_ENV:SENTRY_DSN",
// "unknown (hidden SENTRY_DSN)".
func (u Use) Short() string {
	switch {
	case u.Unknown != "" && u.Variable != "":
		return "unknown (hidden " + Use{Group: u.Group, Variable: u.Variable, Scope: u.Scope}.Short() + ")"
	case u.Unknown != "":
		return "unknown (group " + safetext.Excerpt(u.Group, 40) + " unread)"
	}
	s := u.Variable
	if u.Line != "" {
		s += ":" + safetext.Excerpt(u.Line, 30)
	}
	if u.Scope != "" && u.Scope != "*" {
		s += " (" + u.Scope + ")"
	}
	if u.Group != "" {
		s = safetext.Excerpt(u.Group, 40) + "/" + s
	}
	return s
}
