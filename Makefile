# errtrack — see README.md. `make demo` and `make test` are all a new machine needs.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
BIN      := bin/errtrack
FUZZTIME ?= 30s
STATICCHECK_VERSION := v0.8.2

SHELL := /bin/bash

.PHONY: build test demo bench lint fuzz fuzz-short clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/errtrack

# Every test, under the race detector, with a real Secret Service for the
# keyring tests (.ci/with-keyring) and a real terminal (tmux) for the end-to-end test.
test:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt would change:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(MAKE) --no-print-directory fuzz-short
	$(GO) build -o bin/testsum ./internal/tools/testsum
	set -o pipefail; ./.ci/with-keyring $(GO) test -race -count=1 -json ./... | ./bin/testsum

# Opens the console against the built-in mock server with demo data; no token needed.
demo: build
	./$(BIN) --demo

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

FUZZ_TARGETS := \
	./apiclient:FuzzDecodeResponse \
	./apiclient:FuzzParseProjectRef \
	./internal/hosturl:FuzzNormalize \
	./internal/safetext:FuzzClean \
	./tui:FuzzKeySequences

# A short bounded run of every fuzz target (part of make test).
fuzz-short:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn (5s)"; \
		out=$$($(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime 5s $$pkg 2>&1) || { echo "$$out"; exit 1; }; \
	done

# Longer fuzzing by hand: make fuzz FUZZTIME=10m
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

clean:
	rm -rf bin
