# mjscan. `make build` leaves bin/mjscan; `make test` runs every test;
# `make run` serves on 127.0.0.1:8080; `make deploy-check` checks deploy/.
# scripts/setup.sh installs what they need.
GO_PATHS := /usr/local/go/bin:$(HOME)/.cache/mjscan-go/go/bin:$(HOME)/go/bin
export PATH := $(GO_PATHS):$(PATH)
export CGO_ENABLED := 1
GO ?= go
ADDR ?= 127.0.0.1:8080

.PHONY: build test run bench fuzz train train-check deploy-check hall clean

build:
	$(GO) build -o bin/mjscan ./cmd/mjscan

# The referee record's tests run on SQLite and on PostgreSQL: a throwaway
# cluster is started on loopback unless MJSCAN_TEST_POSTGRES_DSN names one.
# The OpenCV packages run again counting Mats (any left open fails; the
# long evaluations, which read photos as the shorter tests do, are left
# out of that run), the
# HTTP service again under the race detector (its tests take seconds; the
# race build of its dependencies, once, a few minutes), and the phone page
# is tested end to end in headless Chromium. The deployment files are
# checked first (deploy-check: seconds; on a new machine a minute or two
# more, to fetch and build kubeconform). Last, the hall test with 20 s of
# load (make hall: about a minute and a half in all, most of it the
# rolling restart).
test: build deploy-check
	$(GO) vet ./...
	@own=; dsn="$${MJSCAN_TEST_POSTGRES_DSN:-}"; \
	if [ -z "$$dsn" ]; then dsn=$$(bash scripts/postgres-test.sh) || exit 1; own=1; fi; \
	MJSCAN_TEST_POSTGRES_DSN="$$dsn" $(GO) test -count=1 -timeout 25m ./... && \
	$(GO) test -count=1 -race ./api/ && \
	$(GO) test -count=1 -timeout 20m -tags matprofile -skip '^(TestDevPhotos|TestHeldOut.*|TestBankReadsKingsAndJokers)$$' ./vision/ ./calibration/ && \
	$(GO) test -count=1 -tags browser -run Browser ./api/; rc=$$?; \
	if [ -n "$$own" ]; then bash scripts/postgres-test.sh stop; fi; exit $$rc
	$(MAKE) --no-print-directory hall HALL_DURATION=20s HALL_SCALE=0 HALL_REPORT=

# The deployment files, offline: deploy/nginx.conf through `nginx -t`,
# deploy/k8s/ through kubeconform against Kubernetes' own schemas, both
# from packages (scripts/deploy-check.sh says how).
deploy-check:
	bash scripts/deploy-check.sh

# The hall test of issue 19 (cmd/hallcheck): three replicas on a
# throwaway PostgreSQL behind nginx (deploy/nginx.conf), HALL_CLIENTS
# tables for HALL_DURATION, one replica killed and all restarted in turn,
# then every acknowledged hand and record looked for on every replica; with
# HALL_SCALE set, recognitions measured with 1 and 3 replicas, and the
# report written to HALL_REPORT. Ports HALL_PORT to HALL_PORT+13 and
# HALL_PG_PORT on loopback.
HALL_DURATION ?= 60s
HALL_CLIENTS ?= 20
HALL_SCALE ?= 0
HALL_PORT ?= 18120
HALL_PG_PORT ?= 25412
HALL_PG_DIR ?= /tmp/pg-hall
HALL_REPORT ?=
# How long a table retries one request before the check fails.
HALL_RETRY_FOR ?= 30s
hall: build
	$(GO) run ./cmd/hallcheck -duration $(HALL_DURATION) -clients $(HALL_CLIENTS) -scale $(HALL_SCALE) -retry-for $(HALL_RETRY_FOR) \
		-port $(HALL_PORT) -pg-port $(HALL_PG_PORT) -pg-dir $(HALL_PG_DIR) $(if $(HALL_REPORT),-report $(HALL_REPORT))

run: build
	bin/mjscan serve --addr $(ADDR)

# Benchmarks: hands per second on the corpora (single goroutine).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./scoring/...

# A few minutes of fuzzing on every parser of outside input, and every
# route that takes a body (api/fuzz_test.go, api/fuzz_routes_test.go).
FUZZTIME ?= 120s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseTiles$$' -fuzztime $(FUZZTIME) ./scoring/
	$(GO) test -run '^$$' -fuzz '^FuzzParseMPSZ$$' -fuzztime $(FUZZTIME) ./scoring/
	$(GO) test -run '^$$' -fuzz '^FuzzScoreJSON$$' -fuzztime $(FUZZTIME) ./scoring/rulebook/
	$(GO) test -run '^$$' -fuzz '^FuzzParseMCR$$' -fuzztime $(FUZZTIME) ./scoring/mcr/
	$(GO) test -run '^$$' -fuzz '^FuzzParseCard$$' -fuzztime $(FUZZTIME) ./scoring/american/
	$(GO) test -run '^$$' -fuzz '^FuzzParseToken$$' -fuzztime $(FUZZTIME) ./scoring/american/
	$(GO) test -run '^$$' -fuzz '^FuzzScore$$' -fuzztime $(FUZZTIME) ./scoring/vietnamese/
	$(GO) test -run '^$$' -fuzz '^FuzzScore$$' -fuzztime $(FUZZTIME) ./scoring/mcr/
	$(GO) test -run '^$$' -fuzz '^FuzzScore$$' -fuzztime $(FUZZTIME) ./scoring/hk/
	$(GO) test -run '^$$' -fuzz '^FuzzScore$$' -fuzztime $(FUZZTIME) ./scoring/zungjung/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodePhoto$$' -fuzztime $(FUZZTIME) ./vision/
	$(GO) test -run '^$$' -fuzz '^FuzzRecognize$$' -fuzztime $(FUZZTIME) ./vision/
	$(GO) test -run '^$$' -fuzz '^FuzzPhotoShape$$' -fuzztime $(FUZZTIME) ./vision/
	$(GO) test -run '^$$' -fuzz '^FuzzLoadBank$$' -fuzztime $(FUZZTIME) ./vision/
	$(GO) test -run '^$$' -fuzz '^FuzzCalibrate$$' -fuzztime $(FUZZTIME) ./vision/
	$(GO) test -run '^$$' -fuzz '^FuzzBoxRules$$' -fuzztime $(FUZZTIME) ./vision/
	$(GO) test -run '^$$' -fuzz '^FuzzScoresHandler$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzUploadHandler$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzVerifyHandler$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzMultipartBody$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzNotationHandler$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzGameJSON$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzRecordJSON$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzTournamentJSON$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzTableJSON$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzHandJSON$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzTileSetLabels$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeSheet$$' -fuzztime $(FUZZTIME) ./tournament/
	$(GO) test -run '^$$' -fuzz '^FuzzCalibrate$$' -fuzztime $(FUZZTIME) ./calibration/

# Retrain the shipped models from scratch (CPU, about 2½ hours; the
# Debian packages come from scripts/setup.sh --train). CI never retrains.
# train-check: each training script twice on a small slice, same bytes.
train:
	bash scripts/setup.sh --train
	sh models/train/train.sh

train-check:
	bash scripts/setup.sh --train
	sh models/train/check_repro.sh

clean:
	rm -rf bin
