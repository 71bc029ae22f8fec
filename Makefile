# Developer entry points. CI runs .ci/run, which calls `make ci`.
GO        ?= go
PKGS      ?= ./...
FUZZTIME  ?= 60s
BENCHTIME ?= 1s
BENCHCOUNT ?= 6
REPRO_EVENTS ?= 100000
SOAK      ?= 10000
STATICCHECK_VERSION ?= v0.8.2
SHAPES    ?= current,small,tiny,real,dense
SIZES     ?= 10000,100000,1000000
FORMS     ?= raw,zstd
COMMANDS  ?= check,render,history,repro,repro-one,view
RUNS      ?= 0
KEEP      ?=

.PHONY: test race lint staticcheck bench bench-repro bench-shapes fuzz soak record record-corpus ci

## test: run every test (the README's test command)
test:
	$(GO) test $(PKGS)

## race: run every test under the race detector
race:
	$(GO) test -race $(PKGS)

## lint: gofmt, go vet and staticcheck
lint: staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) $(PKGS)

staticcheck:
	@true

## bench: benchmarks in benchstat-readable form (bench/latest.txt), one CPU,
## BENCHTIME each, then the table of cost ratios. The suite runs BENCHCOUNT
## times over rather than with -count, so that the sizes a ratio compares
## are measured across the same stretch of time (a shared machine's load
## drifts).
bench:
	@mkdir -p bench
	@for i in $$(seq $(BENCHCOUNT)); do \
	  $(GO) test -run '^$$' -bench . -benchmem -cpu 1 -count 1 -benchtime $(BENCHTIME) -timeout 90m $(PKGS) || exit 1; \
	done | tee bench/latest.txt
	@$(GO) run ./benchmarks/cmd/benchratio bench/latest.txt

## bench-repro: "dshtest repro" of a generated REPRO_EVENTS-event log as a
## process: the log's size, then wall time and peak RSS (/usr/bin/time -v)
bench-repro:
	@tmp=$${TMPDIR:-/tmp}; \
	$(GO) build -o $$tmp/dshtest-bench ./cmd/dshtest && \
	$(GO) run ./internal/testkit/sessiongen/cmd/gen -n $(REPRO_EVENTS) > $$tmp/dshtest-repro.jsonl && \
	ls -l $$tmp/dshtest-repro.jsonl && \
	{ /usr/bin/time -v $$tmp/dshtest-bench repro $$tmp/dshtest-repro.jsonl 2>&1 >/dev/null | \
	  grep -E 'Elapsed \(wall|Maximum resident|Exit status'; }; \
	rm -f $$tmp/dshtest-bench $$tmp/dshtest-repro.jsonl

## bench-shapes: dshtest's commands as processes on generated logs of
## every shape × size × form (SHAPES, SIZES, FORMS, COMMANDS select; RUNS
## runs of each, the median, 0 picking by the log's size; KEEP=DIR keeps
## the logs and reuses them): wall time, peak RSS, view's first screen
## and keys, against the targets of benchmarks/internal/targets, printed
## and written to bench/shapes.md; then the memory test (TestMemory), which
## fails while a command's peak RSS is over its budget
bench-shapes:
	$(GO) run ./benchmarks/cmd/benchshapes -shapes $(SHAPES) -sizes $(SIZES) -forms $(FORMS) \
	  -commands $(COMMANDS) -count $(RUNS) $(if $(KEEP),-keep $(KEEP)) -o bench/shapes.md
	DSHTEST_MEMORY=1 $(GO) test ./benchmarks/memory -run '^TestMemory$$' -count=1 -v

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$target"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) || exit 1; \
	  done; \
	done

## soak: the generated-session property test over SOAK sessions (-v prints
## how many sessions and events it checked)
soak:
	DSHTEST_SOAK=$(SOAK) $(GO) test ./properties -run '^TestProperties$$' -count=1 -timeout 60m -v

## record: re-record fixtures after an intended change
record:
	GOLDIE_UPDATE=1 $(GO) test ./harness -count=1

## record-corpus: re-record the corpus documents' golden files after an
## intended renderer change (docs/fixtures.md)
record-corpus:
	GOLDIE_UPDATE=1 $(GO) test ./cmd/dshtest/internal/corpusgolden -count=1

## ci: what .ci/run runs
ci: test lint
