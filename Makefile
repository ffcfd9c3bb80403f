# The two commands a user needs are `make install` (or `make build`) and
# `make test`. Everything here runs offline once the modules are cached.

GO       ?= go
BIN      := bin/agent
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
SHARED   ?= ../shared
CORPUS   := $(SHARED)/corpus/parse
FUZZTIME ?= 5m

# The linters, pinned: staticcheck's release for this Go, and deadcode at
# the golang.org/x/tools version go.mod has. Each is taken from PATH when
# there (.ci/run installs them with go install), else run at its version
# by go run.
STATICCHECK_VERSION := v0.8.2
DEADCODE_VERSION    := v0.52.0
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo "$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)")
DEADCODE    ?= $(shell command -v deadcode 2>/dev/null || echo "$(GO) run golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)")

.PHONY: build install test unit race corpus bench bench-process bench-startup fuzz lint screenshot clean

# The binary is static (CGO_ENABLED=0): nothing in it needs cgo, and a
# dynamically linked one maps the C library and the dynamic loader into
# every run, about 1.5 MB more resident memory for `agent run`.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/agent

install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags "$(LDFLAGS)" ./cmd/agent
	@bin="$$($(GO) env GOBIN)"; [ -n "$$bin" ] || bin="$$($(GO) env GOPATH)/bin"; \
	echo "installed $$bin/agent"; \
	case ":$$PATH:" in *":$$bin:"*) ;; *) echo "note: $$bin is not on your PATH; add it, or run $$bin/agent";; esac

# test runs every test: lint, the Go tests (once plainly, once under the
# race detector with the long crash test shortened), and the shared parser
# corpus against the built binary.
test: lint unit race corpus

unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -race -short -count=1 ./...

corpus: build
	@if [ -f "$(CORPUS)/check.py" ]; then \
		python3 "$(CORPUS)/check.py" "$(CORPUS)/public.jsonl" -- $(BIN) parse; \
	else \
		echo "SKIPPED: parser corpus not found at $(CORPUS) (set SHARED=path to run it)"; \
	fi

# bench runs every Go benchmark: the scanner (MB/s, whole and in 16-byte
# chunks), the file tree on 100,000 files, the providers' streams, the
# file tools on a large file, one whole `agent run` process, and the notes
# stores on 100,000 notes (bulk import, REST batch, search p50/p99 next to
# the sqlite3 shell, PostgreSQL, hybrid search; NOTES_BENCH_N for fewer),
# and the chat in tmux (launch, memory, a streamed reply, and a typed key
# to the screen at 10 and 2,000 earlier messages beside cat's echo).
bench:
	$(GO) test -timeout 60m -run '^$$' -bench . -benchmem ./...

# bench-process compares whole processes with their yardsticks: a partial
# write of a 200 MB file against cp, `agent prompt` against find on a
# 40,000-file tree made with npm install, and the memory and time, cold
# and warm, of `agent version`, `agent run`, `agent serve --stdio` and the
# idle chat against their budgets (BASE=commit compares with that commit's
# build and checks the start-up rule: within 10% or 1 ms, and 10% memory).
bench-process: build
	tools/fsedit/bench/bench.sh 200
	prompt/bench/bench-prompt.sh
	cmd/agent/bench/bench-run.sh

# bench-startup is the last part of bench-process alone: what every
# command pays at start (BASE=commit for the start-up rule).
bench-startup:
	cmd/agent/bench/bench-run.sh

fuzz:
	$(GO) test ./agent/xmlcall -run '^$$' -fuzz FuzzScanner -fuzztime $(FUZZTIME)

# lint is gofmt, go vet, staticcheck (every check of its default set)
# and deadcode, which names every function no program or test reaches:
# each must report nothing.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@out=$$($(DEADCODE) -test ./...) || exit 1; \
	if [ -n "$$out" ]; then echo "deadcode: unreachable functions:"; echo "$$out"; exit 1; fi

# screenshot draws docs/chat.svg, the README's picture of the chat: the
# real chat in tmux, answered by a scripted model on 127.0.0.1 (no key, no
# network), its screen captured with colours and turned into an SVG by
# cmd/agent/screenshot_test.go.
screenshot: build
	$(GO) test ./cmd/agent -run '^TestChatScreenshot$$' -count=1 -args \
		-screenshot=$(CURDIR)/docs/chat.svg -screenshot-agent=$(CURDIR)/$(BIN)

clean:
	rm -rf bin

# print-VAR prints a variable of this file (.ci/run reads the linters'
# versions so).
print-%:
	@echo $($*)
