package mockserver

import (
	"net/http"
	"sort"
	"strings"
)

// groupEntity presents g as Entities::Group (lib/api/entities/group.rb and
// basic_group_details.rb, newest CE source), and with detail as
// GroupDetail (group_detail.rb): its shares, and with projects its own and
// its shared projects (with_projects defaults to true on GET /groups/:id).
func (s *Server) groupEntity(r *http.Request, g *Group, user int64, detail, projects bool) object {
	base := baseURL(r)
	created := apiTime(s.groupCreated(g))
	o := object{}
	o.add("id", g.ID)
	o.add("web_url", base+"/groups/"+g.Path)
	o.add("name", g.Name)
	o.add("path", g.Path[strings.LastIndex(g.Path, "/")+1:])
	o.add("description", "")
	o.add("visibility", "private")
	o.add("share_with_group_lock", false)
	o.add("require_two_factor_authentication", false)
	o.add("two_factor_grace_period", 48)
	o.add("project_creation_level", "developer")
	o.add("auto_devops_enabled", nil)
	o.add("subgroup_creation_level", "maintainer")
	o.add("emails_disabled", false)
	o.add("emails_enabled", true)
	o.add("show_diff_preview_in_email", true)
	o.add("mentions_disabled", nil)
	o.add("lfs_enabled", true)
	o.add("archived", false)
	o.add("math_rendering_limits_enabled", true)
	o.add("lock_math_rendering_limits_enabled", false)
	o.add("default_branch", nil)
	o.add("default_branch_protection", 2)
	protection := object{}
	protection.add("allowed_to_push", []object{accessLevel(maintainer)})
	protection.add("allow_force_push", false)
	protection.add("allowed_to_merge", []object{accessLevel(maintainer)})
	o.add("default_branch_protection_defaults", protection)
	o.add("avatar_url", nil)
	o.add("request_access_enabled", true)
	o.add("full_name", s.st.fullName(g))
	o.add("full_path", g.Path)
	o.add("created_at", created)
	o.add("parent_id", nullID(g.ParentID))
	o.add("organization_id", 1)
	o.add("shared_runners_setting", "enabled")
	o.add("max_artifacts_size", nil)
	o.add("marked_for_deletion_on", nil)
	if !detail {
		return o
	}
	o.add("shared_with_groups", []object{}) // no group is shared with a group here
	if s.st.groupAccess(user, g) >= owner { // admin_group
		o.add("runners_token", "not-a-runners-token")
	}
	if g.ParentID == 0 {
		o.add("prevent_sharing_groups_outside_hierarchy", false)
	}
	if !projects {
		return o
	}
	var own, shared []*Project
	for _, p := range s.st.Projects {
		if s.st.access(user, p) == 0 {
			continue
		}
		if strings.EqualFold(p.Path[:max(strings.LastIndex(p.Path, "/"), 0)], g.Path) {
			own = append(own, p)
		} else if sharedWith(p, g) {
			shared = append(shared, p)
		}
	}
	o.add("projects", s.projectList(r, own, user))
	o.add("shared_projects", s.projectList(r, shared, user))
	return o
}

// projectList presents the first 100 projects, newest id first, as
// GroupDetail's GroupProjectsFinder lists them.
func (s *Server) projectList(r *http.Request, ps []*Project, user int64) []object {
	sort.Slice(ps, func(i, j int) bool { return ps[i].ID > ps[j].ID })
	out := []object{}
	for i, p := range ps {
		if i == 100 { // GroupProjectsFinder::DEFAULT_PROJECTS_LIMIT
			break
		}
		out = append(out, s.projectEntity(r, p, user, fullProject, false))
	}
	return out
}

func sharedWith(p *Project, g *Group) bool {
	for _, l := range p.SharedWith {
		if l.GroupID == g.ID {
			return true
		}
	}
	return false
}

func accessLevel(lvl int) object {
	o := object{}
	o.add("access_level", lvl)
	return o
}
