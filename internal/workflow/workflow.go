// Package workflow holds the flows a maintainer runs from either front end,
// the console and the commands, once: resolving a project, rotating a
// client key, changing a group's projects, moving them to Sentry. Each flow makes the fewest
// round trips its safety checks allow (requests that do not depend on each
// other go out together), and says in one place what happened, so both
// front ends tell the same story.
package workflow
