package tokens_test

import (
	"context"
	"errors"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/tokens"
)

type brokenStore struct{}

func (brokenStore) Set(context.Context, string, string) error { return errors.New("locked") }

func TestLogin(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	store := flowtest.MemStore{}
	st, err := tokens.Login(context.Background(), c, store, "https://h", mockserver.TokenMaintainer)
	if err != nil || st.User == nil || store["https://h"] != mockserver.TokenMaintainer {
		t.Fatal(st, err, store)
	}
	_, bad := flowtest.Mock(t, mockserver.Options{}, "wrong")
	store = flowtest.MemStore{}
	if _, err := tokens.Login(context.Background(), bad, store, "https://h", "wrong"); !errors.Is(err, apiclient.ErrUnauthorized) || len(store) != 0 {
		t.Fatalf("refused token: %v, stored %v", err, store)
	}
	var ns *tokens.NotStoredError
	if _, err := tokens.Login(context.Background(), c, brokenStore{}, "https://h", "x"); !errors.As(err, &ns) {
		t.Fatalf("err = %v", err)
	}
}
