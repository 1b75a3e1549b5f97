package mockserver

import "strings"

// A user's role, as GitLab computes it (project_authorizations): the
// highest of a direct membership of the project, a membership of its group
// or of any ancestor group (inherited down the tree), and, for each group
// the project is shared with, the user's role in that group capped at the
// share's role. A project's direct membership is never lower than the
// inherited one (GitLab refuses it); the seed keeps to that.

// groupByPath finds a group by full path, case aside.
func (st *state) groupByPath(path string) *Group {
	for _, g := range st.Groups {
		if strings.EqualFold(g.Path, path) {
			return g
		}
	}
	return nil
}

func (st *state) groupByID(id int64) *Group {
	for _, g := range st.Groups {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// groupAccess is user's role in g: its membership of g or of an ancestor
// (GroupPolicy's max_member_access_for_user).
func (st *state) groupAccess(user int64, g *Group) int {
	lvl := 0
	for seen := 0; g != nil && seen < 64; seen++ { // a loop in a state file ends
		lvl = max(lvl, g.Members[user])
		if g.ParentID == 0 {
			break
		}
		g = st.groupByID(g.ParentID)
	}
	return lvl
}

// namespace is the group a project lives in; nil for a path outside any.
func (st *state) namespace(p *Project) *Group {
	i := strings.LastIndex(p.Path, "/")
	if i < 0 {
		return nil
	}
	return st.groupByPath(p.Path[:i])
}

// access is user's role in p, however it comes.
func (st *state) access(user int64, p *Project) int {
	lvl := p.Members[user]
	if g := st.namespace(p); g != nil {
		lvl = max(lvl, st.groupAccess(user, g))
	}
	for _, l := range p.SharedWith {
		if g := st.groupByID(l.GroupID); g != nil {
			lvl = max(lvl, min(l.Access, st.groupAccess(user, g)))
		}
	}
	return lvl
}

// directGroupAccess is what ProjectWithAccess reports as group_access: the
// user's membership of the project's group or an ancestor
// (highest_group_member); nil where there is none, as for a role that
// comes only through a share.
func (st *state) directGroupAccess(user int64, p *Project) int {
	if g := st.namespace(p); g != nil {
		return st.groupAccess(user, g)
	}
	return 0
}

// seesGroup: a member of the group (or an ancestor), or someone with a role
// in a project under it (GroupPolicy's has_projects).
func (st *state) seesGroup(user int64, g *Group) bool {
	if st.groupAccess(user, g) > 0 {
		return true
	}
	prefix := strings.ToLower(g.Path) + "/"
	for _, p := range st.Projects {
		if strings.HasPrefix(strings.ToLower(p.Path), prefix) && st.access(user, p) > 0 {
			return true
		}
	}
	return false
}
