package contract

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
)

// An entity file holds every field an entity exposes, with the value GitLab
// gives a fresh private project or group, and the conditions of the
// fields not every user sees (the entity's `if:`).
type entityFile struct {
	Fields map[string]any `json:"fields"`
	// project.rb: BasicProjectDetails' fields (simple=true), and fields by
	// ability: read_code (Reporter+), admin_issue (Reporter+), admin_project
	// (Maintainer+), and import_error only with user_can_admin_project (a
	// project's own record).
	Basic              []string `json:"basic"`
	ReadCodeOnly       []string `json:"read_code_only"`
	AdminIssueOnly     []string `json:"admin_issue_only"`
	AdminProjectOnly   []string `json:"admin_project_only"`
	OwnRecordAdminOnly []string `json:"own_record_admin_only"`
	// group.rb: GroupDetail's fields, runners_token for an Owner
	// (admin_group), prevent_sharing_groups_outside_hierarchy on a root.
	Detail    []string `json:"detail"`
	OwnerOnly []string `json:"owner_only"`
	RootOnly  []string `json:"root_only"`
}

type entities struct{ project, group entityFile }

func loadEntities() (entities, error) {
	var e entities
	for name, into := range map[string]*entityFile{"project": &e.project, "group": &e.group} {
		b, err := files.ReadFile(path.Join("testdata", "entities", name+".json"))
		if err != nil {
			return e, err
		}
		if err := json.Unmarshal(b, into); err != nil {
			return e, fmt.Errorf("entity %s: %w", name, err)
		}
	}
	return e, nil
}

// Access levels the entities' conditions use.
const (
	reporter   = 20
	maintainer = 40
	owner      = 50
)

// expand replaces every {"$project": {...}} and {"$group": {...}} in v by
// the entity it describes.
func (e entities) expand(v any) (any, error) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, el := range x {
			var err error
			if out[i], err = e.expand(el); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		if p, ok := x["$project"].(map[string]any); ok {
			return e.projectEntity(p)
		}
		if g, ok := x["$group"].(map[string]any); ok {
			return e.groupEntity(g)
		}
		out := make(map[string]any, len(x))
		for k, el := range x {
			var err error
			if out[k], err = e.expand(el); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

func role(spec map[string]any) (int, error) {
	r, ok := spec["$role"].(float64)
	if !ok {
		return 0, fmt.Errorf("an entity without $role: %v", spec)
	}
	return int(r), nil
}

// projectEntity: $view is basic (BasicProjectDetails), project
// (Entities::Project) or with_access (ProjectWithAccess, whose
// permissions the spec gives); $role the user's role; $own_record a GET
// /projects/:id.
func (e entities) projectEntity(spec map[string]any) (any, error) {
	lvl, err := role(spec)
	if err != nil {
		return nil, err
	}
	view, _ := spec["$view"].(string)
	own, _ := spec["$own_record"].(bool)
	out := clone(e.project.Fields)
	drop := func(keys []string, unless bool) {
		if !unless {
			for _, k := range keys {
				delete(out, k)
			}
		}
	}
	drop(e.project.ReadCodeOnly, lvl >= reporter)
	drop(e.project.AdminIssueOnly, lvl >= reporter)
	drop(e.project.AdminProjectOnly, lvl >= maintainer)
	drop(e.project.OwnRecordAdminOnly, lvl >= maintainer && own)
	switch view {
	case "basic":
		for k := range out {
			if !slices.Contains(e.project.Basic, k) {
				delete(out, k)
			}
		}
	case "project", "with_access":
	default:
		return nil, fmt.Errorf("project view %q: basic, project or with_access", view)
	}
	if view == "with_access" {
		if _, ok := spec["permissions"]; !ok {
			return nil, fmt.Errorf("a ProjectWithAccess without its permissions: %v", spec["id"])
		}
	}
	if err := override(out, spec, view == "with_access"); err != nil {
		return nil, err
	}
	return out, nil
}

// groupEntity: $detail for GroupDetail; $role the user's role in it.
func (e entities) groupEntity(spec map[string]any) (any, error) {
	lvl, err := role(spec)
	if err != nil {
		return nil, err
	}
	detail, _ := spec["$detail"].(bool)
	out := clone(e.group.Fields)
	if !detail {
		for _, k := range e.group.Detail {
			delete(out, k)
		}
	}
	if lvl < owner {
		for _, k := range e.group.OwnerOnly {
			delete(out, k)
		}
	}
	if spec["parent_id"] != nil {
		for _, k := range e.group.RootOnly {
			delete(out, k)
		}
	}
	if err := override(out, spec, false); err != nil {
		return nil, err
	}
	for _, k := range []string{"projects", "shared_projects"} {
		if v, ok := out[k]; ok {
			if out[k], err = e.expand(v); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// override sets the spec's fields on out: each must be a field of the
// entity (a typo is an error, not a new field), except permissions where
// the view has them. Template strings then get the entity's own values:
// {{id}}, {{path_with_namespace}}, {{full_path}}.
func override(out, spec map[string]any, permissions bool) error {
	for k, v := range spec {
		if strings.HasPrefix(k, "$") {
			continue
		}
		if _, ok := out[k]; !ok && !(permissions && k == "permissions") {
			if k == "projects" || k == "shared_projects" || k == "runners_token" || k == "prevent_sharing_groups_outside_hierarchy" {
				continue // a field the view or role does not have
			}
			return fmt.Errorf("%q is no field of the entity", k)
		}
		out[k] = v
	}
	vars := map[string]string{}
	for _, k := range []string{"id", "path_with_namespace", "full_path"} {
		if v, ok := out[k]; ok {
			vars["{{"+k+"}}"] = fmt.Sprint(v)
		}
	}
	for k, v := range out {
		out[k] = substitute(v, vars)
	}
	return nil
}

func substitute(v any, vars map[string]string) any {
	switch x := v.(type) {
	case string:
		for from, to := range vars {
			x = strings.ReplaceAll(x, from, to)
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = substitute(e, vars)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = substitute(e, vars)
		}
		return out
	}
	return v
}

// clone copies a JSON value deeply.
func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}
