package mockserver

import (
	"bytes"
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// object is a JSON object whose keys keep the order they were added in,
// as Grape's entities expose them.
type object []field

type field struct {
	k string
	v any
}

func (o *object) add(k string, v any) { *o = append(*o, field{k, v}) }

// MarshalJSON writes the fields in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// apiTime is a time as GitLab's API writes it: UTC, milliseconds.
func apiTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// baseURL is the scheme and host the request came to.
func baseURL(r *http.Request) string { return schemeOf(r) + "://" + r.Host }

// fullName is a group's name with its ancestors', "Demo / Mobile".
func (st *state) fullName(g *Group) string {
	names := []string{g.Name}
	for p, n := st.groupByID(g.ParentID), 0; p != nil && n < 64; p, n = st.groupByID(p.ParentID), n+1 {
		names = append([]string{p.Name}, names...)
	}
	return strings.Join(names, " / ")
}

// namespaceEntity is NamespaceBasic (lib/api/entities/namespace_basic.rb).
func (s *Server) namespaceEntity(r *http.Request, p *Project) object {
	full := p.Path[:max(strings.LastIndex(p.Path, "/"), 0)]
	g := s.st.groupByPath(full)
	o := object{}
	if g == nil { // a path outside every seeded group: a group all the same
		o.add("id", 0)
		o.add("name", full)
		o.add("path", full[strings.LastIndex(full, "/")+1:])
		o.add("kind", "group")
		o.add("full_path", full)
		o.add("parent_id", nil)
	} else {
		o.add("id", g.ID)
		o.add("name", g.Name)
		o.add("path", g.Path[strings.LastIndex(g.Path, "/")+1:])
		o.add("kind", "group")
		o.add("full_path", g.Path)
		o.add("parent_id", nullID(g.ParentID))
	}
	o.add("avatar_url", nil)
	o.add("web_url", baseURL(r)+"/groups/"+full)
	return o
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// projectView says which of a project's entities an answer presents.
type projectView int

const (
	basicDetails projectView = iota // BasicProjectDetails (simple=true)
	fullProject                     // Entities::Project (group listings)
	withAccess                      // ProjectWithAccess (GET /projects, /projects/:id)
)

// projectEntity presents p to user as GitLab's entities do (CE, newest
// source: lib/api/entities/project_identity.rb, basic_project_details.rb,
// project_details.rb, project.rb, project_with_access.rb), for a private
// project on an instance without a container registry, with no repository
// pushed. ownRecord is GET /projects/:id, which adds import_error for an
// admin of the project.
func (s *Server) projectEntity(r *http.Request, p *Project, user int64, view projectView, ownRecord bool) object {
	lvl := s.st.access(user, p)
	readCode := lvl >= reporter // download_code on a private project
	admin := lvl >= maintainer  // admin_project
	base := baseURL(r)
	created := apiTime(p.CreatedAt)
	ns := s.st.namespace(p)
	nsName := p.Path[:max(strings.LastIndex(p.Path, "/"), 0)]
	if ns != nil {
		nsName = s.st.fullName(ns)
	}
	short := p.Path[strings.LastIndex(p.Path, "/")+1:]
	o := object{}
	// ProjectIdentity
	o.add("id", p.ID)
	o.add("description", nullString(p.Description))
	o.add("name", p.Name)
	o.add("name_with_namespace", nsName+" / "+p.Name)
	o.add("path", short)
	o.add("path_with_namespace", p.Path)
	o.add("created_at", created)
	// BasicProjectDetails
	if readCode {
		o.add("default_branch", "main")
	}
	o.add("tag_list", []string{})
	o.add("topics", []string{})
	host := r.Host
	if h, _, ok := strings.Cut(host, ":"); ok && !strings.HasPrefix(host, "[") {
		host = h
	}
	o.add("ssh_url_to_repo", "git@"+host+":"+p.Path+".git")
	o.add("http_url_to_repo", base+"/"+p.Path+".git")
	o.add("web_url", base+"/"+p.Path)
	if readCode {
		o.add("readme_url", nil)
		o.add("forks_count", 0)
	}
	o.add("avatar_url", nil)
	o.add("star_count", 0)
	o.add("last_activity_at", created)
	o.add("namespace", s.namespaceEntity(r, p))
	if view == basicDetails {
		return o
	}
	// Entities::Project
	api := base + "/api/v4/projects/" + strconv.FormatInt(p.ID, 10)
	links := object{}
	links.add("self", api)
	links.add("issues", api+"/issues")
	links.add("merge_requests", api+"/merge_requests")
	links.add("repo_branches", api+"/repository/branches")
	links.add("labels", api+"/labels")
	links.add("events", api+"/events")
	links.add("members", api+"/members")
	links.add("cluster_agents", api+"/cluster_agents")
	o.add("_links", links)
	o.add("packages_enabled", true)
	o.add("empty_repo", true)
	o.add("archived", p.Archived)
	o.add("visibility", "private")
	o.add("resolve_outdated_diff_discussions", false)
	policy := object{}
	policy.add("cadence", "1d")
	policy.add("enabled", false)
	policy.add("keep_n", 10)
	policy.add("older_than", "90d")
	policy.add("name_regex", ".*")
	policy.add("name_regex_keep", nil)
	policy.add("next_run_at", apiTime(p.CreatedAt.Add(24*time.Hour)))
	o.add("container_expiration_policy", policy)
	o.add("repository_object_format", "sha1")
	for _, f := range []string{"issues", "merge_requests", "wiki", "jobs", "snippets"} {
		o.add(f+"_enabled", true)
	}
	o.add("container_registry_enabled", false)
	o.add("service_desk_enabled", false)
	if lvl >= reporter { // admin_issue
		o.add("service_desk_address", nil)
	}
	o.add("can_create_merge_request_in", readCode && !p.Archived)
	for _, f := range []struct{ name, level string }{
		{"issues", "enabled"}, {"repository", "enabled"}, {"merge_requests", "enabled"}, {"forking", "enabled"},
		{"wiki", "enabled"}, {"builds", "enabled"}, {"snippets", "enabled"}, {"pages", "private"},
		{"analytics", "enabled"}, {"container_registry", "disabled"}, {"security_and_compliance", "private"},
		{"releases", "enabled"}, {"environments", "enabled"}, {"feature_flags", "enabled"},
		{"infrastructure", "enabled"}, {"monitor", "enabled"}, {"model_experiments", "enabled"}, {"model_registry", "enabled"},
	} {
		o.add(f.name+"_access_level", f.level)
	}
	o.add("emails_disabled", false)
	o.add("emails_enabled", true)
	o.add("shared_runners_enabled", true)
	o.add("lfs_enabled", true)
	o.add("creator_id", 1)
	if admin {
		o.add("import_url", nil)
		o.add("import_type", nil)
	}
	o.add("import_status", "none")
	if admin && ownRecord {
		o.add("import_error", nil)
	}
	o.add("open_issues_count", 0)
	o.add("description_html", descriptionHTML(p.Description))
	o.add("updated_at", created)
	if admin {
		o.add("ci_default_git_depth", 20)
		o.add("ci_delete_pipelines_in_seconds", nil)
		o.add("ci_forward_deployment_enabled", true)
		o.add("ci_forward_deployment_rollback_allowed", true)
		o.add("ci_job_token_scope_enabled", false)
		o.add("ci_separated_caches", true)
		o.add("ci_allow_fork_pipelines_to_run_in_parent_project", true)
		o.add("ci_id_token_sub_claim_components", []string{"project_path", "ref_type", "ref"})
		o.add("build_git_strategy", "fetch")
		o.add("keep_latest_artifact", true)
		o.add("restrict_user_defined_variables", false)
		o.add("ci_pipeline_variables_minimum_override_role", "developer")
		o.add("runners_token", "not-a-runners-token")
		o.add("runner_token_expiration_interval", nil)
		o.add("group_runners_enabled", true)
		o.add("auto_cancel_pending_pipelines", "enabled")
		o.add("build_timeout", 3600)
		o.add("auto_devops_enabled", false)
		o.add("auto_devops_deploy_strategy", "continuous")
		o.add("ci_push_repository_for_job_token_allowed", false)
	}
	if readCode {
		o.add("ci_config_path", nil)
	}
	o.add("public_jobs", true)
	o.add("shared_with_groups", s.sharedWithGroups(p, user))
	o.add("only_allow_merge_if_pipeline_succeeds", false)
	o.add("allow_merge_on_skipped_pipeline", nil)
	o.add("request_access_enabled", true)
	o.add("only_allow_merge_if_all_discussions_are_resolved", false)
	o.add("remove_source_branch_after_merge", true)
	o.add("printing_merge_request_link_enabled", true)
	o.add("merge_method", "merge")
	o.add("squash_option", "default_off")
	o.add("enforce_auth_checks_on_uploads", true)
	o.add("suggestion_commit_message", nil)
	o.add("merge_commit_template", nil)
	o.add("squash_commit_template", nil)
	o.add("issue_branch_template", nil)
	o.add("warn_about_potentially_unwanted_characters", true)
	o.add("autoclose_referenced_issues", true)
	if view != withAccess {
		return o
	}
	perms := object{}
	perms.add("project_access", memberAccess(p.Members[user]))
	perms.add("group_access", memberAccess(s.st.directGroupAccess(user, p)))
	o.add("permissions", perms)
	return o
}

// memberAccess is Entities::ProjectAccess / GroupAccess: the level and the
// notification level (3, global); nil without a membership.
func memberAccess(lvl int) any {
	if lvl <= 0 {
		return nil
	}
	o := object{}
	o.add("access_level", lvl)
	o.add("notification_level", 3)
	return o
}

// sharedWithGroups is SharedGroupWithProject for each group p is shared
// with that the user can see (visible_group_links).
func (s *Server) sharedWithGroups(p *Project, user int64) []object {
	out := []object{}
	for _, l := range p.SharedWith {
		g := s.st.groupByID(l.GroupID)
		if g == nil || !s.st.seesGroup(user, g) {
			continue
		}
		o := object{}
		o.add("group_id", g.ID)
		o.add("group_name", g.Name)
		o.add("group_full_path", g.Path)
		o.add("group_access_level", l.Access)
		o.add("expires_at", nil)
		out = append(out, o)
	}
	return out
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// descriptionHTML is the description as GitLab's Markdown renders one line.
func descriptionHTML(d string) string {
	if d == "" {
		return ""
	}
	return `<p data-sourcepos="1:1-1:` + strconv.Itoa(len(d)) + `" dir="auto">` + html.EscapeString(d) + `</p>`
}
