"""What python-gitlab reads of a GitLab's group routes: printed as JSON.

Usage: read_groups.py URL TOKEN. Run by contract_test.go against the mock
and against GitLab's answers (internal/contract), whose outputs must match.
"""
import json
import sys

import gitlab

url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token, retry_transient_errors=False)


def attrs(objs):
    return [o.attributes for o in objs]


group = gl.groups.get("ops")
out = {
    "group": group.attributes,
    "maintained": attrs(group.projects.list(min_access_level=40, all=True)),
    "all": attrs(group.projects.list(min_access_level=10, all=True)),
    "project_13": gl.projects.get(13).attributes,
    "project_12": gl.projects.get(12).attributes,
    "project_10": gl.projects.get(10).attributes,
    "project_10_variables": attrs(gl.projects.get(10, lazy=True).variables.list(all=True)),
    "project_12_variables": attrs(gl.projects.get(12, lazy=True).variables.list(all=True)),
    "group_variables": attrs(gl.groups.get("ops", lazy=True).variables.list(all=True)),
}
json.dump(out, sys.stdout, sort_keys=True)
