package mockserver

import (
	"crypto/rand"
	"encoding/hex"
	"sort"
	"strings"
	"time"
)

// Access levels, as GitLab numbers them.
const (
	guest      = 10
	reporter   = 20
	developer  = 30
	maintainer = 40
	owner      = 50
)

// User is a GitLab user.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
}

// Token is a personal access token the server accepts.
type Token struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	UserID    int64     `json:"user_id"`
	Scopes    []string  `json:"scopes"`
	ExpiresAt string    `json:"expires_at,omitempty"` // YYYY-MM-DD, empty for never
	Revoked   bool      `json:"revoked"`
	CreatedAt time.Time `json:"created_at"`
	// RotatedTo is the token a rotation replaced this one with: using this
	// one to rotate again revokes the whole family.
	RotatedTo string `json:"rotated_to,omitempty"`
}

// Project is a GitLab project. Members maps user IDs to their direct
// membership's access level; a user's role also comes from the project's
// group and its ancestors, and from the groups it is shared with (access.go).
type Project struct {
	ID           int64         `json:"id"`
	Path         string        `json:"path_with_namespace"`
	Name         string        `json:"name"`
	Description  string        `json:"description"`
	Public       bool          `json:"public"`
	Members      map[int64]int `json:"members"`
	NoIntegrated bool          `json:"no_integrated,omitempty"` // feature flag integrated_error_tracking off
	Archived     bool          `json:"archived,omitempty"`
	// SharedWith are the groups the project is shared with
	// (project_group_links), each with the highest role it gives.
	SharedWith []GroupLink `json:"shared_with,omitempty"`
	Settings   *Settings   `json:"settings,omitempty"`
	Keys       []ClientKey `json:"keys"`
	Variables  []Variable  `json:"variables,omitempty"`
	// Retired are deleted keys a variable's DSN placeholder still stands for.
	Retired   []ClientKey `json:"retired_keys,omitempty"`
	CreatedAt time.Time   `json:"created_at"`
}

// GroupLink shares a project with a group: the group's members get their
// role in it, capped at Access.
type GroupLink struct {
	GroupID int64 `json:"group_id"`
	Access  int   `json:"group_access"`
}

// Settings is the stored error tracking setting row.
type Settings struct {
	Enabled     bool    `json:"enabled"`
	Integrated  bool    `json:"integrated"`
	APIURL      *string `json:"api_url,omitempty"`
	ProjectName *string `json:"project_name,omitempty"`
	HasToken    bool    `json:"has_token,omitempty"`
}

// ClientKey is a stored client key.
type ClientKey struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
}

// state is everything the server knows; guarded by Server.mu.
type state struct {
	Users     []User           `json:"users"`
	Tokens    map[string]Token `json:"tokens"`
	Projects  []*Project       `json:"projects"`
	NextKeyID int64            `json:"next_key_id"`
	Groups    []*Group         `json:"groups,omitempty"`
	// Version is the server's version this state file holds: a journal
	// record at or below it is in the file already.
	Version uint64 `json:"version,omitempty"`

	byID   map[int64]*Project
	byPath map[string]*Project
	users  map[int64]User
}

func (st *state) index() {
	st.byID = make(map[int64]*Project, len(st.Projects))
	st.byPath = make(map[string]*Project, len(st.Projects))
	st.users = make(map[int64]User, len(st.Users))
	sort.Slice(st.Projects, func(i, j int) bool { return st.Projects[i].ID < st.Projects[j].ID })
	for _, p := range st.Projects {
		st.byID[p.ID] = p
		st.byPath[strings.ToLower(p.Path)] = p
		if p.Members == nil {
			p.Members = map[int64]int{}
		}
	}
	for _, u := range st.Users {
		st.users[u.ID] = u
	}
}

func (st *state) addKey(p *Project) ClientKey {
	st.NextKeyID++
	k := ClientKey{ID: st.NextKeyID, Active: true, PublicKey: newPublicKey()}
	p.Keys = append(p.Keys, k) // ids only grow, so Keys stays in ascending id order
	return k
}

// nextTokenID is one more than the highest token id.
func (st *state) nextTokenID() int64 {
	var n int64
	for _, t := range st.Tokens {
		n = max(n, t.ID)
	}
	return n + 1
}

// newSecret is a new token's value: random, and plainly not a real GitLab token.
func newSecret() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return "mock-rotated-" + hex.EncodeToString(b[:])
}

func newPublicKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return "glet_" + hex.EncodeToString(b[:])
}

func (p *Project) hasActiveKey() bool {
	for _, k := range p.Keys {
		if k.Active {
			return true
		}
	}
	return false
}

// activeKey reports an active key of p with that public key.
func (p *Project) activeKey(public string) bool {
	for _, k := range p.Keys {
		if k.Active && k.PublicKey == public {
			return true
		}
	}
	return false
}
