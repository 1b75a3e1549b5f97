# errtrack — see README.md. `make demo` and `make test` are all a new machine needs.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# The commit and its date, for errtrack version (the go command records them
# too, unless GOFLAGS has -buildvcs=false).
COMMIT   ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
DATE     ?= $(shell git log -1 --format=%cs 2>/dev/null)
LDFLAGS  := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
BIN      := bin/errtrack
FUZZTIME ?= 30s
STATICCHECK_VERSION := v0.8.2

SHELL := /bin/bash

# Release builds: no local paths in the binary, no symbol table or DWARF.
RELEASE_FLAGS := -trimpath -ldflags "-s -w $(LDFLAGS)"
PLATFORMS     := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
# What CI cross-builds: another OS on another CPU, and the one without Unix syscalls.
CROSS_CHECK   := darwin/arm64 windows/amd64
# Dates in man pages and archives come from the last commit, for reproducible releases.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
# $GOBIN when set, as go install uses it; else ~/.local/bin (usually on PATH), not ~/go/bin.
INSTALL_DIR ?= $(or $(shell $(GO) env GOBIN),$(HOME)/.local/bin)

.PHONY: screenshots screenshot-tool build test test-isolation demo bench mutants lint deadcode fuzz fuzz-short clean man completions dist cross-check install

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/errtrack

# One page per command, generated from the commands (errtrack man).
man: build
	rm -rf bin/man
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) ./$(BIN) man bin/man/man1

completions: build
	rm -rf bin/completions && mkdir -p bin/completions
	./$(BIN) completion bash >bin/completions/errtrack.bash
	./$(BIN) completion zsh >bin/completions/_errtrack
	./$(BIN) completion fish >bin/completions/errtrack.fish
	./$(BIN) completion powershell >bin/completions/errtrack.ps1

# Release archives for every platform in dist/, with SHA256SUMS. The same
# release as .goreleaser.yaml, without goreleaser; needs GNU tar and zip.
dist: man completions
	rm -rf dist && mkdir -p dist
	@set -e; v=$(patsubst v%,%,$(VERSION)); \
	for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; exe=; [ $$os = windows ] && exe=.exe; \
		name=errtrack_$${v}_$${os}_$${arch}; stage=dist/$$name; \
		echo "dist $$name"; \
		mkdir -p $$stage/man; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build $(RELEASE_FLAGS) -o $$stage/errtrack$$exe ./cmd/errtrack; \
		cp README.md LICENSE $$stage/; cp -R bin/completions $$stage/; cp -R bin/man/man1 $$stage/man/; \
		find $$stage -exec touch -d @$(SOURCE_DATE_EPOCH) {} +; \
		if [ $$os = windows ]; then \
			(cd dist && find $$name | LC_ALL=C sort | TZ=UTC zip -q -X -@ $$name.zip); \
		else \
			tar -C dist --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) -cf - $$name | gzip -n >dist/$$name.tar.gz; \
		fi; \
		rm -rf $$stage; \
	done
	cd dist && { command -v sha256sum >/dev/null && sha256sum *.tar.gz *.zip || shasum -a 256 *.tar.gz *.zip; } >SHA256SUMS
	@ls -l dist

# Compiles every package, tests included, for the platforms in CROSS_CHECK
# and links the binary, so a file that only builds on Linux is caught.
cross-check:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for p in $(CROSS_CHECK); do \
		echo "cross-check $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet ./...; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build -o "$$tmp/" ./cmd/errtrack; \
	done

install:
	mkdir -p "$(INSTALL_DIR)"
	$(GO) build $(RELEASE_FLAGS) -o "$(INSTALL_DIR)/errtrack" ./cmd/errtrack
	@case ":$$PATH:" in *":$(INSTALL_DIR):"*) ;; *) echo "note: $(INSTALL_DIR) is not on your PATH";; esac

# Every test, under the race detector, with a real Secret Service for the
# keyring tests (.ci/with-keyring) and a real terminal (tmux) for the
# end-to-end tests. gotestsum prints each package's result and time as it
# ends, then the skipped tests and the failed tests' output, then the
# counts; the slowest tests and each phase's time close it (every test's
# time is in bin/test.json). Tests run four at a time within a package:
# most of cmd/errtrack's wait on a terminal, a mock's latency or a child
# process, not on a core. Then other programs' clients (GitLab's, Sentry's)
# against the mocks and GitLab's answers, in internal/peers (a module of its
# own: the main module does not depend on them; .ci/run installs
# python3-gitlab, ruby-gitlab, python3-sentry-sdk, and sentry-cli and
# @sentry/node with npm ci in internal/peers/node; under CI a missing one
# fails). make test-isolation runs between the two.
# Fuzzing's short run is .ci/run's, beside make test (make fuzz-short).
GOTESTSUM_VERSION := v1.13.0
TEST_PARALLEL ?= 4
test:
	@set -e; t0=$$SECONDS; \
	$(GO) vet ./...; \
	(cd internal/peers && $(GO) vet ./...); \
	test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt would change:"; gofmt -l $$(git ls-files '*.go'); exit 1; }; \
	GOBIN="$(CURDIR)/bin" $(GO) install gotest.tools/gotestsum@$(GOTESTSUM_VERSION); \
	t1=$$SECONDS; rc=0; \
	./bin/gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg --jsonfile bin/test.json --raw-command -- \
		./.ci/with-keyring $(GO) test -race -count=1 -parallel $(TEST_PARALLEL) -json ./... || rc=$$?; \
	t2=$$SECONDS; \
	$(MAKE) --no-print-directory test-isolation || rc=$$?; \
	t3=$$SECONDS; \
	(cd internal/peers && ../../bin/gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg --jsonfile ../../bin/test-peers.json -- -race -count=1 ./...) || rc=$$?; \
	t4=$$SECONDS; \
	echo "Slowest tests:"; \
	./bin/gotestsum tool slowest --jsonfile bin/test.json --threshold 2s --num 10; \
	echo "make test took $$((t4-t0)) s: vet, gofmt and gotestsum $$((t1-t0)) s, tests $$((t2-t1)) s, test-isolation $$((t3-t2)) s, internal/peers $$((t4-t3)) s"; \
	exit $$rc

# The tests never touch the user's files: the end-to-end and keyring tests and
# the packages that write config and state run with ERRTRACK_CONFIG_DIR,
# ERRTRACK_STATE_DIR, GITLAB_HOST, SENTRY_URL, HOME and XDG_* pointing at a
# sentinel, which must stay as it was (each package's TestMain, internal/testenv).
test-isolation:
	GO=$(GO) ./.ci/with-keyring ./.ci/test-isolation

# Opens the console against the built-in mock server with demo data; no token needed.
demo: build
	./$(BIN) --demo

# The README's pictures, from the built binary in a real xterm. They need a
# screenshot tool, which is not part of this repository: SCREENSHOT=path/to/it
# (it runs a command in an xterm of a size, types keys and writes a PNG).
SCREENSHOT ?=
SHOTS      := docs/screenshots
screenshots: screenshot-tool build
	mkdir -p $(SHOTS)
	$(SCREENSHOT) -s 120x32 -k "sleep:1" $(SHOTS)/projects.png -- ./$(BIN) --demo
	$(SCREENSHOT) -s 120x32 -k "Enter sleep:1" $(SHOTS)/keys.png -- ./$(BIN) --demo
	$(SCREENSHOT) -s 160x36 -k "Enter sleep:1" $(SHOTS)/keys-wide.png -- ./$(BIN) --demo
	$(SCREENSHOT) -s 120x32 -k "Enter sleep:1 R sleep:1.5" $(SHOTS)/rotate.png -- ./$(BIN) --demo
	$(SCREENSHOT) -s 120x32 -k "/ i o s sleep:0.7 Enter sleep:1.2 F sleep:0.8" $(SHOTS)/findings.png -- ./$(BIN) --demo
	$(SCREENSHOT) -s 80x24 -k "Enter sleep:1 d sleep:1" $(SHOTS)/delete-80x24.png -- ./$(BIN) --demo
	$(SCREENSHOT) -s 120x32 -k "sleep:1 C-a C-o e sleep:1.5" $(SHOTS)/group-bulk.png -- ./$(BIN) --demo --group demo --include-subgroups
	$(SCREENSHOT) -s 120x32 -k "sleep:1 Down R sleep:0.5 Enter sleep:1.5 y sleep:1.5 y sleep:2" $(SHOTS)/sentry-keys.png -- ./$(BIN) --demo -p demo/legacy-api
	$(SCREENSHOT) -s 120x32 -k "sleep:1 C-a C-o m sleep:0.5 Enter sleep:0.5 Enter sleep:2" $(SHOTS)/migrate-plan.png -- ./$(BIN) --demo --group demo --include-subgroups

screenshot-tool:
	@if [ -z "$(SCREENSHOT)" ]; then \
		echo "make screenshots needs a screenshot tool: make screenshots SCREENSHOT=path/to/screenshot (called as: SCREENSHOT [-l] -s COLSxROWS -k KEYS OUT.png -- COMMAND...)" >&2; exit 2; \
	elif ! command -v "$(SCREENSHOT)" >/dev/null; then \
		echo "make screenshots: SCREENSHOT=$(SCREENSHOT) is not a program here: give the path of the screenshot tool" >&2; exit 2; \
	fi

# The peers module (go-gitlab, a bare glab-style client) is benchmarked
# from its own directory: its dependencies stay out of errtrack's go.sum.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...
	cd internal/peers && $(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

# Mutation testing: gremlins changes the workflow layer's and the API
# client's code one operator at a time and runs the tests; a mutant that
# lives is a check no test notices. Efficacy (killed / covered) is printed
# at the end. Takes several minutes per package.
GREMLINS_VERSION := v0.6.0
MUTANT_PKGS ?= ./internal/rotation ./internal/change ./internal/migrate ./apiclient
mutants:
	@set -e; gobin=$$(mktemp -d); trap 'rm -rf "$$gobin"' EXIT; \
	GOBIN=$$gobin $(GO) install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION); \
	for p in $(MUTANT_PKGS); do \
		echo "mutants $$p"; \
		$$gobin/gremlins unleash --workers 1 --timeout-coefficient 30 $$p; \
	done

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	@$(MAKE) --no-print-directory deadcode
	cd internal/peers && $(GO) vet ./... && $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# Every function of errtrack's packages is reached from its command: deadcode
# (from cmd/errtrack's main) lists what is not, and any line fails the target.
# Except test support: packages whose code many packages' tests share, so it
# cannot live in _test.go files, and which no errtrack code imports (fixture
# replay servers, the tests' private HOME, a test client's retries and
# clock, the shared mock worlds of the flows' tests). They are named here;
# nothing else may be, and the target fails if errtrack's command imports one.
DEADCODE_VERSION := v0.52.0
DEADCODE_TEST_SUPPORT := internal/contract/ internal/testenv/ internal/flowtest/ internal/change/changetest/ apiclient/apiclienttest/
deadcode:
	@set -e; out=$$($(GO) run golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION) ./...); \
	dead=$$(printf '%s\n' "$$out" | grep -v $(foreach p,$(DEADCODE_TEST_SUPPORT),-e '^$(p)') | grep . || true); \
	if [ -n "$$dead" ]; then \
		echo "deadcode: nothing in errtrack reaches these functions: use them or remove them (test support belongs in DEADCODE_TEST_SUPPORT only if no errtrack code imports it):"; \
		echo "$$dead"; exit 1; \
	fi; \
	built=$$($(GO) list -deps ./cmd/errtrack | grep $(foreach p,$(DEADCODE_TEST_SUPPORT),-e '/$(p:/=)$$') || true); \
	if [ -n "$$built" ]; then echo "deadcode: errtrack's command imports test support: $$built"; exit 1; fi

# package:target:executions for the short run in make test. Counts, not
# durations: a -fuzztime duration can fail spuriously with "context deadline
# exceeded" on Go 1.26 (golang/go#75804). Each count is a few seconds here.
FUZZ_TARGETS := \
	./apiclient:FuzzDecodeResponse:30000 \
	./apiclient:FuzzParseProjectRef:50000 \
	./apiclient/sentry:FuzzParseAPIURL:50000 \
	./internal/hosturl:FuzzNormalize:50000 \
	./internal/safetext:FuzzClean:50000 \
	./internal/dsn:FuzzParse:50000 \
	./internal/dsn:FuzzSame:50000 \
	./internal/keystore:FuzzParseRateLimit:50000 \
	./tui:FuzzKeySequences:2000 \
	./cmd/errtrack:FuzzKeysJSON:20000

# A short bounded run of every fuzz target (part of .ci/run, beside make test).
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
	rm -rf bin dist
