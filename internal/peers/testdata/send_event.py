"""Sends one error event with Debian's python3-sentry-sdk to the DSN given
as the first argument, as an application would (sentry-sdk 1.9 posts
events to /api/ID/store/), and waits for it to be sent."""
import sys

import sentry_sdk

sentry_sdk.init(dsn=sys.argv[1], default_integrations=False, send_client_reports=False)
sentry_sdk.capture_message("errtrack peer test (python3-sentry-sdk)", level="error")
sentry_sdk.flush(timeout=10)
