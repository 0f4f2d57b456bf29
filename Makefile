# mjscan build. `make build` leaves bin/mjscan; `make test` runs every test.
GO ?= go
export CGO_ENABLED := 1

.PHONY: build test bench fuzz corpus clean

build:
	$(GO) build -o bin/mjscan ./cmd/mjscan

test: build
	$(GO) test -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./scoring/...

clean:
	rm -rf bin
