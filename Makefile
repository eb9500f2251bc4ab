# capplan: capacity-and-cost reports for one GPU serving box.
# Run `make help` for the targets.

GO       ?= go
FUZZTIME ?= 5000x
ADDR     ?= 127.0.0.1:8080
# The generator commands live under testdata/, which ./... skips: name them.
GEN      := ./testdata/gen ./testdata/usagelog

.PHONY: help run build generate test fuzz lint bench

help: ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-9s %s\n", $$1, $$2}'

# The first build compiles everything, the pure-Go SQLite above all, and
# takes a few minutes; say so before it starts, and list the packages as
# they compile (-v) so that progress is visible. Later builds take seconds.
run: ## build bin/capplan and start it on ./data/capplan.db with a demo report (http://127.0.0.1:8080)
	@if [ -x bin/capplan ]; then \
		echo "==> rebuilding bin/capplan (a few seconds when little changed)"; \
		$(GO) build -o bin/capplan ./cmd/capplan; \
	else \
		echo "==> first build of bin/capplan: downloads the modules, then compiles about 350 packages (the standard"; \
		echo "    library included), the pure-Go SQLite (modernc.org/sqlite) taking the longest: roughly 3 minutes on 2 cores."; \
		echo "    Each package is named as it compiles; later builds take seconds."; \
		$(GO) build -v -o bin/capplan ./cmd/capplan; \
	fi
	@echo "==> starting capplan on http://$(ADDR) with ./data/capplan.db (Ctrl-C stops it)"
	./bin/capplan serve --addr $(ADDR)

build: ## build bin/capplan
	$(GO) build -o bin/capplan ./cmd/capplan

generate: ## regenerate the templ components (the generated files are committed)
	$(GO) tool templ generate

test: ## run every test: unit, handler, importer, browser and a short fuzz of each parser
	$(GO) test -count=1 -timeout 15m ./... $(GEN)
	$(MAKE) --no-print-directory fuzz

# A smoke run: a fixed number of executions per target, not a time (a run
# cut off by its clock mid-step fails with "context deadline exceeded"),
# and interesting inputs kept unminimized (shrinking a real-sized seed
# takes longer than the run). A crash is still reported with its input.
# For a longer search: make fuzz FUZZTIME=60s.
fuzz: ## run each importer fuzz target for FUZZTIME executions
	@for f in $$($(GO) test -list '^Fuzz' ./importers | grep '^Fuzz'); do \
		echo "fuzz $$f ($(FUZZTIME))"; \
		$(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=0 ./importers || exit 1; \
	done

lint: ## vet, staticcheck, gofmt and a check that generated templ files are current
	$(GO) vet ./... $(GEN)
	$(GO) tool staticcheck ./... $(GEN)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo 'gofmt: files above need formatting'; exit 1)
	$(GO) tool templ generate
	@git diff --exit-code -- '*_templ.go' || (echo 'templ: generated files are stale; commit them'; exit 1)

bench: ## run the Go benchmarks (import speed; fresh report page, API, 50 clients with edits vs a static asset; report load in Chromium) and the load tests at full size
	$(GO) test -run='^$$' -bench=. -benchmem ./importers ./web
	$(GO) test -count=1 -timeout 20m -v -run='^(TestParallelSavesTold|TestEarlyRefusalsCutSlowClients|TestReferenceHugeRowBoundedMemory)$$' ./web -args -load
