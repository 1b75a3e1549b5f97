module github.com/errtrack/errtrack/internal/peers

go 1.26.0

require (
	github.com/errtrack/errtrack v0.0.0
	github.com/getsentry/sentry-go v0.46.2
)

require (
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/errtrack/errtrack => ../..
