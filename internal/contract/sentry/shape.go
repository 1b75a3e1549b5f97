package sentry

import "github.com/errtrack/errtrack/internal/contract"

// Shape lists how got differs from Sentry's answer want in shape: a field
// one has and the other lacks, a JSON type that differs (null goes with any
// type: a nullable field), a list of another length. Values are not
// compared: the mock's keys and dates are its own.
func Shape(want, got any) []string { return contract.Shapes{Server: "Sentry"}.Compare(want, got) }
