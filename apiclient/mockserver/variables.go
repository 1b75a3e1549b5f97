package mockserver

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Variable is a project CI/CD variable (gitlab-api.md §13).
type Variable struct {
	Key              string `json:"key"`
	Value            string `json:"value"`
	VariableType     string `json:"variable_type"`
	Protected        bool   `json:"protected"`
	Masked           bool   `json:"masked"`
	Hidden           bool   `json:"hidden"`
	Raw              bool   `json:"raw"`
	EnvironmentScope string `json:"environment_scope"`
	Description      string `json:"description"`
}

var (
	variableKey = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	maskedPlain = regexp.MustCompile(`^[a-zA-Z0-9_+=/@:.~-]{8,}$`)
	maskedRaw   = regexp.MustCompile(`^\S{8,}$`)
)

// dsnPlaceholder, as a seeded variable's value, stands for the DSN of a key
// of the project as served: the seed cannot know the address the server
// will be reached on. It is stored as it is, and resolved on the way out.
const dsnPlaceholder = "{{dsn:"

func placeholderFor(keyID int64) string {
	return dsnPlaceholder + strconv.FormatInt(keyID, 10) + "}}"
}

// keyDeleted keeps k, just deleted from p, among p's retired keys when a
// variable's placeholder stands for it: the variable keeps the old DSN, as
// a real one would.
func keyDeleted(p *Project, k ClientKey) {
	for _, v := range p.Variables {
		if strings.Contains(v.Value, placeholderFor(k.ID)) {
			p.Retired = append(p.Retired, k)
			return
		}
	}
}

// variableBody is Entities::Ci::Variable (lib/api/entities/ci/variable.rb),
// in its order: hidden only from 17.4 (the model's column), where a hidden
// variable's value is null (Ci::VariableValue#evaluate); description only
// from 16.2.
func (s *Server) variableBody(r *http.Request, p *Project, v Variable) object {
	var value any = s.resolve(r, p, v.Value)
	if v.Hidden && s.release.atLeast(sinceHiddenVariables) { // no hiding before it
		value = nil
	}
	o := object{}
	o.add("variable_type", v.VariableType)
	o.add("key", v.Key)
	o.add("value", value)
	if s.release.atLeast(sinceHiddenVariables) {
		o.add("hidden", v.Hidden)
	}
	o.add("protected", v.Protected)
	o.add("masked", v.Masked)
	o.add("raw", v.Raw)
	o.add("environment_scope", v.EnvironmentScope)
	if s.release.atLeast(sinceVariableDescription) {
		o.add("description", nullString(v.Description))
	}
	return o
}

// resolve turns each seeded DSN placeholder in value (the whole value, or
// a line of a file variable) into the key's DSN.
func (s *Server) resolve(r *http.Request, p *Project, value string) string {
	if !strings.Contains(value, dsnPlaceholder) {
		return value
	}
	var b strings.Builder
	for {
		i := strings.Index(value, dsnPlaceholder)
		if i < 0 {
			break
		}
		b.WriteString(value[:i])
		rest := value[i+len(dsnPlaceholder):]
		idText, after, ok := strings.Cut(rest, "}}")
		id, err := strconv.ParseInt(idText, 10, 64)
		dsn := ""
		for _, k := range append(p.Keys[:len(p.Keys):len(p.Keys)], p.Retired...) {
			if ok && err == nil && k.ID == id {
				dsn = s.dsn(r, p, k)
			}
		}
		if dsn == "" { // no such key: the text stays as it is
			b.WriteString(value[i : i+len(dsnPlaceholder)])
			value = rest
			continue
		}
		b.WriteString(dsn)
		value = after
	}
	b.WriteString(value)
	return b.String()
}

// maskable checks a masked variable's value as served, as GitLab does.
func (v Variable) maskable(value string) bool {
	if !v.Masked {
		return true
	}
	if v.Raw {
		return maskedRaw.MatchString(value)
	}
	return maskedPlain.MatchString(value)
}

// taken reports another variable of p (not the one at index self) with
// v's key and environment scope.
func taken(vars []Variable, v Variable, self int) bool {
	for i, o := range vars {
		if i != self && o.Key == v.Key && o.EnvironmentScope == v.EnvironmentScope {
			return true
		}
	}
	return false
}

func keyTaken(key string) (int, any) {
	return http.StatusBadRequest, map[string]any{"message": map[string][]string{"key": {"(" + key + ") has already been taken"}}}
}

// variables serves GET (paginated) and POST /projects/:id/variables.
func (s *Server) variables(c *call) {
	if c.method == http.MethodGet {
		s.mu.RLock()
		defer s.mu.RUnlock()
		h := s.holder(c)
		if h == nil {
			return
		}
		servePage(c, *h.vars, func(v Variable) any { return s.variableBody(c.r, h.owner(v), v) })
		return
	}
	s.mu.Lock()
	h := s.holder(c)
	if h == nil {
		s.mu.Unlock()
		return
	}
	key, hasKey := c.params["key"]
	value := c.params["value"]
	var problems []string
	if !hasKey {
		problems = append(problems, "key is missing")
	}
	if _, ok := c.params["value"]; !ok {
		problems = append(problems, "value is missing")
	}
	if len(problems) > 0 {
		s.mu.Unlock()
		writeError(c.w, http.StatusBadRequest, "error", strings.Join(problems, ", "))
		return
	}
	v := Variable{Key: key.str, Value: value.str, VariableType: "env_var", EnvironmentScope: "*"}
	status, body := s.applyVariable(c, h, &v)
	if status == 0 && taken(*h.vars, v, -1) {
		status, body = keyTaken(v.Key)
	}
	if status != 0 {
		s.mu.Unlock()
		writeJSON(c.w, status, body)
		return
	}
	*h.vars = append(*h.vars, v)
	s.version++
	rec := h.change()
	s.mu.Unlock()
	if !s.saved(c.w, rec) {
		return
	}
	writeJSON(c.w, http.StatusCreated, s.variableBody(c.r, h.owner(v), v))
}

// varHolder is what holds a request's variables: a project's, or a
// group's (whose DSN placeholders name a project's key).
type varHolder struct {
	vars  *[]Variable
	owner func(Variable) *Project
	// change is the journal record of a write to them (under s.mu).
	change func() journalRecord
	// notFound is the 404 of a variable not there: not_found!('Variable')
	// for a project's, not_found!('GroupVariable') for a group's.
	notFound string
	// group: a group's variables, where a PUT without filter updates one
	// of several of a key (lib/api/group_variables.rb keeps it, MR 136475).
	group bool
}

// holder finds the variables of c's project, or of its group for a
// /groups/:id/variables path: authorize! :admin_cicd_variables on the
// group, which GroupPolicy gives its Owners (a membership of the group or
// an ancestor; lib/api/group_variables.rb, app/policies/group_policy.rb).
// It writes the refusal and returns nil when there are none to act on.
func (s *Server) holder(c *call) *varHolder {
	if c.segs[0] == "groups" {
		g := s.group(c)
		if g == nil {
			return nil
		}
		if s.st.groupAccess(c.user.ID, g) < owner {
			writeError(c.w, http.StatusForbidden, "message", "403 Forbidden")
			return nil
		}
		return &varHolder{vars: &g.Variables, owner: func(v Variable) *Project { return s.placeholderOwner(v.Value) },
			change: func() journalRecord { return s.groupChange(g) }, notFound: "404 GroupVariable Not Found", group: true}
	}
	p := s.project(c, true)
	if p == nil {
		return nil
	}
	return &varHolder{vars: &p.Variables, owner: func(Variable) *Project { return p },
		change: func() journalRecord { return s.projectChange(p, nil) }, notFound: "404 Variable Not Found"}
}

// applyVariable sets the attributes given on v, a variable of p, and
// validates it; a status other than 0 is the answer to a refusal: Grape's
// for a parameter, else every error of the model's, as GitLab lists them.
func (s *Server) applyVariable(c *call, h *varHolder, v *Variable) (int, any) {
	str := func(name string, into *string) {
		if p, ok := c.params[name]; ok && !p.isJSON {
			*into = p.str
		}
	}
	flag := func(name string, into *bool) {
		if p, ok := c.params[name]; ok {
			if b, blank, valid := coerceBool(p); valid && !blank {
				*into = b
			}
		}
	}
	str("value", &v.Value)
	str("variable_type", &v.VariableType)
	str("environment_scope", &v.EnvironmentScope)
	if s.release.atLeast(sinceVariableDescription) { // an undeclared parameter before
		str("description", &v.Description)
	}
	flag("protected", &v.Protected)
	flag("masked", &v.Masked)
	flag("raw", &v.Raw)
	// Hiding is chosen at creation only (17.4); an update cannot take it.
	if p, ok := c.params["masked_and_hidden"]; ok && c.method == http.MethodPost && s.release.atLeast(sinceHiddenVariables) {
		if b, _, valid := coerceBool(p); valid && b {
			v.Masked, v.Hidden = true, true
		}
	}
	if v.VariableType != "env_var" && v.VariableType != "file" {
		return http.StatusBadRequest, map[string]any{"error": "variable_type does not have a valid value"}
	}
	errs := map[string][]string{}
	if v.Key == "" {
		errs["key"] = append(errs["key"], "can't be blank")
	}
	if len(v.Key) > 255 {
		errs["key"] = append(errs["key"], "is too long (maximum is 255 characters)")
	}
	if !variableKey.MatchString(v.Key) {
		errs["key"] = append(errs["key"], "can contain only letters, digits and '_'.")
	}
	if !v.maskable(s.resolve(c.r, h.owner(*v), v.Value)) {
		errs["value"] = []string{"is invalid"}
	}
	if len(errs) > 0 {
		return http.StatusBadRequest, map[string]any{"message": errs}
	}
	return 0, nil
}

// variable serves GET, PUT and DELETE /projects/:id/variables/:key, with
// filter[environment_scope] to choose among variables of one key.
func (s *Server) variable(c *call) {
	if c.method == http.MethodGet {
		s.mu.RLock()
		defer s.mu.RUnlock()
	} else {
		s.mu.Lock()
	}
	unlock := func() {
		if c.method != http.MethodGet {
			s.mu.Unlock()
		}
	}
	h := s.holder(c)
	if h == nil {
		unlock()
		return
	}
	key, _ := url.PathUnescape(c.segs[3])
	scope, scoped := environmentScope(c.params)
	var found []int
	for i, v := range *h.vars {
		if v.Key == key && (!scoped || v.EnvironmentScope == scope) {
			found = append(found, i)
		}
	}
	if h.group && c.method == http.MethodPut && !scoped && len(found) > 1 {
		found = found[:1] // find_by!(key): one of them, no conflict
	}
	switch {
	case len(found) == 0:
		unlock()
		writeError(c.w, http.StatusNotFound, "message", h.notFound)
		return
	case len(found) > 1:
		unlock()
		writeError(c.w, http.StatusConflict, "message", "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'")
		return
	}
	i := found[0]
	switch c.method {
	case http.MethodGet:
		writeJSON(c.w, http.StatusOK, s.variableBody(c.r, h.owner((*h.vars)[i]), (*h.vars)[i]))
	case http.MethodPut:
		v := (*h.vars)[i]
		status, body := s.applyVariable(c, h, &v)
		if status == 0 && taken(*h.vars, v, i) {
			status, body = keyTaken(v.Key)
		}
		if status != 0 {
			unlock()
			writeJSON(c.w, status, body)
			return
		}
		(*h.vars)[i] = v
		s.version++
		rec := h.change()
		unlock()
		if !s.saved(c.w, rec) {
			return
		}
		writeJSON(c.w, http.StatusOK, s.variableBody(c.r, h.owner(v), v))
	case http.MethodDelete:
		*h.vars = append((*h.vars)[:i:i], (*h.vars)[i+1:]...)
		s.version++
		rec := h.change()
		unlock()
		if !s.saved(c.w, rec) {
			return
		}
		c.w.WriteHeader(http.StatusNoContent)
	}
}

// environmentScope reads filter[environment_scope], from a query or form
// (a name of its own) or a JSON body (a filter object).
func environmentScope(ps map[string]param) (string, bool) {
	if p, ok := ps["filter[environment_scope]"]; ok {
		return p.str, true
	}
	if p, ok := ps["filter"]; ok && p.isJSON {
		if m, ok := p.json.(map[string]any); ok {
			if v, ok := m["environment_scope"].(string); ok {
				return v, true
			}
		}
	}
	return "", false
}
