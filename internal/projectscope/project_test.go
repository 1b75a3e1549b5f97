package projectscope_test

import (
	"context"
	"errors"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/projectscope"
)

func TestResolveProject(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	p, err := projectscope.ResolveProject(context.Background(), c, apiclient.ProjectID(3))
	if err != nil || p.Path != "demo/legacy-api" || p.ID != 3 || p.Name() != "demo/legacy-api" {
		t.Fatal(p, err)
	}
	ref, _ := apiclient.ParseProjectRef("demo/paused")
	if p, _ := projectscope.ResolveProject(context.Background(), c, ref); p.ID != 5 {
		t.Fatal(p)
	}
	if _, err := projectscope.ResolveProject(context.Background(), c, apiclient.ProjectID(6)); !errors.Is(err, apiclient.ErrProjectNotFound) {
		t.Fatalf("err = %v", err)
	}
}

// A project record without an ID (a proxy that trims fields) keeps the ID
// the user gave.
func TestResolveProjectKeepsGivenID(t *testing.T) {
	p, err := projectscope.ResolveProject(context.Background(), bareProject{}, apiclient.ProjectID(5))
	if err != nil || p.ID != 5 || p.Path != "" {
		t.Fatalf("%+v %v", p, err)
	}
}

type bareProject struct{}

func (bareProject) GetProject(context.Context, apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error) {
	return &apiclient.Project{}, nil, nil
}
