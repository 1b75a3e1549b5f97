"""A naive group rotation with python-gitlab, errtrack's yardstick: in each
project of a group, the key SENTRY_DSN holds is replaced (create, point the
variable at it, delete the old one), with no plan, no checks and no ledger.
Five requests a project. Usage: rotate_group.py URL GROUP (token in
GITLAB_TOKEN)."""
import os
import sys

import gitlab

url, group = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=os.environ["GITLAB_TOKEN"])  # obeys a 429 by default
projects = gl.groups.get(group, lazy=True).projects.list(iterator=True, min_access_level=40)
rotated = 0
for p in projects:
    base = "/projects/%d" % p.id
    var = gl.http_get(base + "/variables/SENTRY_DSN")
    keys = gl.http_list(base + "/error_tracking/client_keys", get_all=True)
    old = [k for k in keys if k.get("errtracker_dsn", k.get("sentry_dsn")) == var["value"]]
    if not old:
        continue
    new = gl.http_post(base + "/error_tracking/client_keys")
    gl.http_put(base + "/variables/SENTRY_DSN", post_data={"value": new.get("errtracker_dsn", new.get("sentry_dsn"))})
    gl.http_delete(base + "/error_tracking/client_keys/%d" % old[0]["id"])
    rotated += 1
print("rotated", rotated, file=sys.stderr)
