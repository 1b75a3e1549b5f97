package tui

import (
	"context"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
)

// faultAPI passes every call to the mock server unless a failure was queued
// for it, and can hold a call until the test releases it.
type faultAPI struct {
	API
	mu    sync.Mutex
	errs  map[string][]error
	holds map[string]chan struct{}
	calls map[string]int
	// eventStatus, when set, is the answer to every test event.
	eventStatus int
}

func faulty(api API) *faultAPI {
	return &faultAPI{API: api, errs: map[string][]error{}, holds: map[string]chan struct{}{}, calls: map[string]int{}}
}

// fail makes the next call of method fail with err, before it reaches the server.
func (f *faultAPI) fail(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = append(f.errs[method], err)
}

func (f *faultAPI) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

func (f *faultAPI) enter(method string) error {
	f.mu.Lock()
	f.calls[method]++
	hold := f.holds[method]
	var err error
	if q := f.errs[method]; len(q) > 0 {
		f.errs[method], err = q[1:], q[0]
	}
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	return err
}

func (f *faultAPI) CurrentUser(ctx context.Context) (*apiclient.User, *apiclient.Response, error) {
	if err := f.enter("CurrentUser"); err != nil {
		return nil, nil, err
	}
	return f.API.CurrentUser(ctx)
}

func (f *faultAPI) ListProjects(ctx context.Context, o apiclient.ListProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	if err := f.enter("ListProjects"); err != nil {
		return nil, nil, err
	}
	return f.API.ListProjects(ctx, o)
}

func (f *faultAPI) GetProject(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error) {
	if err := f.enter("GetProject"); err != nil {
		return nil, nil, err
	}
	return f.API.GetProject(ctx, p)
}

func (f *faultAPI) GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("GetSettings"); err != nil {
		return nil, nil, err
	}
	return f.API.GetSettings(ctx, p)
}

func (f *faultAPI) CountClientKeys(ctx context.Context, p apiclient.ProjectRef) (int, bool, error) {
	if err := f.enter("CountClientKeys"); err != nil {
		return 0, false, err
	}
	return f.API.CountClientKeys(ctx, p)
}

func (f *faultAPI) UpdateSettings(ctx context.Context, p apiclient.ProjectRef, active bool, integrated *bool) (*apiclient.Settings, *apiclient.Response, error) {
	if err := f.enter("UpdateSettings"); err != nil {
		return nil, nil, err
	}
	return f.API.UpdateSettings(ctx, p, active, integrated)
}

func (f *faultAPI) ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("ListClientKeys"); err != nil {
		return nil, nil, err
	}
	return f.API.ListClientKeys(ctx, p)
}

func (f *faultAPI) CreateClientKey(ctx context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("CreateClientKey"); err != nil {
		return nil, nil, err
	}
	return f.API.CreateClientKey(ctx, p)
}

func (f *faultAPI) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	if err := f.enter("DeleteClientKey"); err != nil {
		return nil, nil, err
	}
	return f.API.DeleteClientKey(ctx, p, id)
}

func (f *faultAPI) UpdateVariableValue(ctx context.Context, p apiclient.ProjectRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error) {
	if err := f.enter("UpdateVariableValue"); err != nil {
		return nil, nil, err
	}
	return f.API.UpdateVariableValue(ctx, p, key, scope, value)
}

// refuseEvents makes the ingestion endpoint's answer to test events status,
// as a backend that does not know the key would.
func (f *faultAPI) ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error) {
	if err := f.enter("ListVariables"); err != nil {
		return nil, nil, err
	}
	return f.API.ListVariables(ctx, p)
}

func (f *faultAPI) refuseEvents(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.eventStatus = status
}

func (f *faultAPI) SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error) {
	if err := f.enter("SendTestEvent"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	status := f.eventStatus
	f.mu.Unlock()
	if status != 0 {
		return &apiclient.DSNCheck{StatusCode: status, Message: "injected"}, nil
	}
	return f.API.SendTestEvent(ctx, dsn, message)
}
