module github.com/errtrack/errtrack/internal/peers

go 1.26.0

require (
	github.com/errtrack/errtrack v0.0.0
	github.com/getsentry/sentry-go v0.46.2
	gitlab.com/gitlab-org/api/client-go v1.46.0
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	golang.org/x/oauth2 v0.34.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.32.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace github.com/errtrack/errtrack => ../..
