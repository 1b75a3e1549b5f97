package sentry

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// SentryProject is a Sentry project as its serializers describe it (the
// fields errtrack uses).
type SentryProject struct {
	ID       int64
	Slug     string
	Name     string
	Platform string
	Created  time.Time
	// Org is the organisation's slug, where the answer names it (a
	// project's details do; a listing does not).
	Org string
	// Teams are the slugs of the teams the project belongs to.
	Teams []string
}

type projectJSON struct {
	ID           flexID   `json:"id"`
	Slug         string   `json:"slug"`
	Name         string   `json:"name"`
	Platform     *string  `json:"platform"`
	DateCreated  flexTime `json:"dateCreated"`
	Organization *struct {
		Slug string `json:"slug"`
	} `json:"organization"`
	Teams []struct {
		Slug string `json:"slug"`
	} `json:"teams"`
}

func (p projectJSON) project() SentryProject {
	out := SentryProject{ID: int64(p.ID), Slug: p.Slug, Name: p.Name, Created: time.Time(p.DateCreated)}
	if p.Platform != nil {
		out.Platform = *p.Platform
	}
	if p.Organization != nil {
		out.Org = p.Organization.Slug
	}
	for _, t := range p.Teams {
		out.Teams = append(out.Teams, t.Slug)
	}
	return out
}

// GetProject reads a project's details; one that is not there, or that the
// token cannot see, is ErrProjectNotFound.
func (c *Client) GetProject(ctx context.Context, p Project) (*SentryProject, error) {
	var pj projectJSON
	if _, err := c.get(ctx, projectPath(p.Org, p.Slug), nil, ErrProjectNotFound, &pj); err != nil {
		return nil, err
	}
	out := pj.project()
	return &out, nil
}

// ListProjects returns an organisation's projects, following its pages.
func (c *Client) ListProjects(ctx context.Context, org string) ([]SentryProject, error) {
	var out []SentryProject
	err := pagesOf(ctx, c, "organizations/"+url.PathEscape(org)+"/projects/", nil, ErrOrganizationNotFound, func(page []projectJSON) error {
		for _, p := range page {
			out = append(out, p.project())
		}
		return nil
	})
	return out, err
}

// CreateProjectOptions describe a new project. Slug, when empty, Sentry
// makes from Name.
type CreateProjectOptions struct {
	Name     string
	Slug     string
	Platform string
}

// CreateProject makes a project in team's organisation, bound to team
// (POST /api/0/teams/ORG/TEAM/projects/). Sentry gives a new project one
// key, named "Default". It is sent once (a 429 aside): after a lost answer
// read the project before trying again. A slug in use is ErrConflict.
func (c *Client) CreateProject(ctx context.Context, org, team string, o CreateProjectOptions) (*SentryProject, error) {
	if o.Name == "" || len([]rune(o.Name)) > 50 {
		return nil, &Error{Kind: ErrValidation, Message: "a project's name is 1 to 50 characters"}
	}
	if o.Slug != "" && !validSlug(o.Slug) {
		return nil, &Error{Kind: ErrValidation, Message: "a project's slug is letters, digits, '_', '-' and '.'"}
	}
	body := map[string]any{"name": o.Name}
	if o.Slug != "" {
		body["slug"] = o.Slug
	}
	if o.Platform != "" {
		body["platform"] = o.Platform
	}
	var pj projectJSON
	path := "teams/" + url.PathEscape(org) + "/" + url.PathEscape(team) + "/projects/"
	if _, err := c.call(ctx, apiclient.Call{Method: http.MethodPost, Path: path, Body: body}, ErrTeamNotFound, &pj); err != nil {
		return nil, err
	}
	out := pj.project()
	return &out, nil
}

// Team is a Sentry team as TeamSerializer describes it.
type Team struct {
	Slug, Name string
	// IsMember: the token's user is in the team.
	IsMember bool
}

type teamJSON struct {
	Slug     string `json:"slug"`
	Name     string `json:"name"`
	IsMember bool   `json:"isMember"`
}

// GetTeam reads a team (GET /api/0/teams/ORG/TEAM/); one that is not
// there, or that the token cannot see, is ErrTeamNotFound.
func (c *Client) GetTeam(ctx context.Context, org, team string) (*Team, error) {
	var tj teamJSON
	if _, err := c.get(ctx, "teams/"+url.PathEscape(org)+"/"+url.PathEscape(team)+"/", nil, ErrTeamNotFound, &tj); err != nil {
		return nil, err
	}
	t := Team(tj)
	return &t, nil
}

// ListTeams returns an organisation's teams, following its pages; an
// organisation that is not there, or that the token cannot see, is
// ErrOrganizationNotFound.
func (c *Client) ListTeams(ctx context.Context, org string) ([]Team, error) {
	var out []Team
	err := pagesOf(ctx, c, "organizations/"+url.PathEscape(org)+"/teams/", nil, ErrOrganizationNotFound, func(page []teamJSON) error {
		for _, t := range page {
			out = append(out, Team(t))
		}
		return nil
	})
	return out, err
}
