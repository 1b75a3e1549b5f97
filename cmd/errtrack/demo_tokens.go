package main

// The demo's tokens, kept in memory: the demo writes nothing.

import (
	"context"
	"errors"
	"sync"

	"github.com/errtrack/errtrack/keyring"
)

// memoryStore keeps the demo's token in memory: the demo writes nothing.
type memoryStore struct {
	mu     sync.Mutex
	tokens map[string]string
}

func (s *memoryStore) Set(_ context.Context, host, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[host] = token
	return nil
}

func (s *memoryStore) get(host string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[host]
	return t, ok
}

// sentryMemory holds the demo's Sentry token in memory, by base URL: the
// demo writes nothing to the keyring.
type sentryMemory map[string]string

func (m sentryMemory) Get(_ context.Context, base string) (string, error) {
	if t, ok := m[base]; ok {
		return t, nil
	}
	return "", &keyring.Error{Op: "get", Host: base, Kind: keyring.ErrNotFound}
}

func (m sentryMemory) Set(context.Context, string, string) error {
	return errors.New("the demo keeps its Sentry token in memory")
}

func (m sentryMemory) Delete(context.Context, string) error {
	return errors.New("the demo keeps its Sentry token in memory")
}
