// Sends one error event with Sentry's Node SDK to the DSN given as the
// first argument, as an application would, and waits for it to be sent.
import * as Sentry from "@sentry/node";

const dsn = process.argv[2];
Sentry.init({ dsn, defaultIntegrations: false, tracesSampleRate: 0, sendClientReports: false });
Sentry.captureException(new Error("errtrack peer test (@sentry/node)"));
const drained = await Sentry.close(10000);
process.exit(drained ? 0 : 1);
