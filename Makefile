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

# package:target:executions for the short run in make test. Counts, not
# durations: a -fuzztime duration can fail spuriously with "context deadline
# exceeded" on Go 1.26 (golang/go#75804). Each count is a few seconds here.
FUZZ_TARGETS := \
	./apiclient:FuzzDecodeResponse:30000 \
	./apiclient:FuzzParseProjectRef:50000 \
	./internal/hosturl:FuzzNormalize:50000 \
	./internal/safetext:FuzzClean:50000 \
	./internal/dsn:FuzzParse:50000 \
	./tui:FuzzKeySequences:2000

# A short bounded run of every fuzz target (part of make test).
fuzz-short:
	@for t in $(FUZZ_TARGETS); do \
		IFS=: read -r pkg fn n <<< "$$t"; \
		echo "fuzz $$pkg $$fn ($$n executions)"; \
		out=$$(timeout 300 $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $${n}x $$pkg 2>&1) || { echo "$$out"; exit 1; }; \
	done

# Longer fuzzing by hand: make fuzz FUZZTIME=10m (a spurious "context deadline
# exceeded" at the very end, with no crasher written, is golang/go#75804).
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		IFS=: read -r pkg fn n <<< "$$t"; \
		echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

clean:
	rm -rf bin
