# Developer entry points. CI runs .ci/run, which calls `make ci`.
GO        ?= go
PKGS      ?= ./...
FUZZTIME  ?= 60s
BENCHTIME ?= 1x
SOAK      ?= 10000
STATICCHECK_VERSION ?= v0.8.2

.PHONY: test race lint staticcheck bench fuzz soak record ci

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

## bench: benchmarks in benchstat-readable form (bench/latest.txt)
bench:
	@mkdir -p bench
	$(GO) test -run '^$$' -bench . -benchmem -count 6 $(PKGS) | tee bench/latest.txt

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$target"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) || exit 1; \
	  done; \
	done

## soak: the generated-session property test over SOAK sessions
soak:
	DSHTEST_SOAK=$(SOAK) $(GO) test ./... -run 'Property' -count=1 -timeout 60m

## record: re-record fixtures after an intended change
record:
	GOLDIE_UPDATE=1 $(GO) test ./harness -count=1

## ci: what .ci/run runs
ci: test lint
