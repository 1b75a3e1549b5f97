package rotation

// Errors of a rotation's CI/CD variables.

import (
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/safetext"
)

// VariablesUnreadError: the project's CI/CD variables could not be read.
type VariablesUnreadError struct{ Err error }

// AmbiguousVariableError: several variables have the key, in different
// environment scopes, and none was chosen.
type AmbiguousVariableError struct {
	Key    string
	Scopes []string
}

// VariableError: pointing a variable at the new DSN failed.
type VariableError struct {
	Target VariableTarget
	Err    error
}

// VariableMovedError: a variable changed between the plan and its write;
// it is left as it is and the old key stays.
type VariableMovedError struct{ Target VariableTarget }

func (e *VariablesUnreadError) Error() string {
	return "the CI/CD variables could not be read: " + e.Err.Error()
}

func (e *VariablesUnreadError) Unwrap() error { return e.Err }

func (e *AmbiguousVariableError) Error() string {
	return fmt.Sprintf("the project has %d CI/CD variables named %s, in the environment scopes %s",
		len(e.Scopes), safetext.Excerpt(e.Key, 80), safetext.Excerpt(strings.Join(e.Scopes, ", "), 200))
}

func (e *VariableError) Error() string {
	return fmt.Sprintf("%s failed: %v", e.Step(), e.Err)
}

// Step names what failed: "updating the CI/CD variable SENTRY_DSN (all
// environments)".
func (e *VariableError) Step() string {
	verb := "updating"
	if !e.Target.Exists {
		verb = "creating"
	}
	return verb + " the CI/CD variable " + e.Target.Label()
}

func (e *VariableError) Unwrap() error { return e.Err }

func (e *VariableMovedError) Error() string {
	return "the CI/CD variable " + e.Target.Label() + " changed since the plan (someone else changed it meanwhile), so it is left as it is"
}
