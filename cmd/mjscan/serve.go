package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"mjscan/api"
	"mjscan/referee"
	"mjscan/vision"
)

// cmdServe runs the HTTP service: `mjscan serve --addr 127.0.0.1:8080`.
// Settings come from MJSCAN_ environment variables; the flags override the
// two addresses. Every setting is printed at start-up.
func cmdServe(args []string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A second signal during the drain ends the process at once.
	context.AfterFunc(ctx, stop)
	return serve(ctx, args, os.Getenv, stderr, nil)
}

// serve runs the service until ctx ends, then lets requests in flight
// finish. ready, when set, learns the API and metrics addresses once both
// listen (tests start it on port 0).
func serve(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready func(api, metrics string)) int {
	logger := log.New(stderr, "mjscan serve: ", log.LstdFlags)
	all, err := loadServeConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "mjscan serve: bad configuration:\n%v\n", err)
		return 2
	}
	cfg := &all.API
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address of the API and web page (env "+api.EnvPrefix+"ADDR)")
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", cfg.MetricsAddr, `listen address of the Prometheus metrics, "off" to disable (env `+api.EnvPrefix+"METRICS_ADDR)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mjscan serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "mjscan serve: bad configuration:\n%v\n", err)
		return 2
	}
	// Connections past the file limit would wait in the kernel's backlog,
	// unseen by the connection cap: keep the cap below it, with room for
	// the database, the cameras and the models.
	if n, ok := openFileLimit(); ok && cfg.MaxConns > n-fdReserve {
		cfg.MaxConns = max(4, n-fdReserve)
		logger.Printf("%sMAX_CONNS lowered to %d: the open-file limit is %d (ulimit -n)", api.EnvPrefix, cfg.MaxConns, n)
	}
	// The Go heap holds the bodies in flight; a soft limit keeps the
	// collector from letting it grow to twice what is live.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cfg.GoMemoryLimit())
	}

	// cutOff says requests were still in flight when the shutdown
	// deadline passed.
	cutOff := false
	deps := api.Deps{Version: version, Log: logger}
	start := time.Now()
	vcfg := vision.Config{Workers: cfg.Workers}
	if path := all.Bank; path != "" {
		// A bank named but unreadable is a configuration error: serving
		// without it would quietly misread the set it was made for.
		b, err := vision.ReadBankFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "mjscan serve: bad configuration:\n%s: %v\n", envBank, err)
			return 2
		}
		vcfg.Bank = b
		logger.Printf("template bank %s: %d templates", path, len(b.Templates))
	}
	if rec, err := vision.New(vcfg); err != nil {
		// Scoring still works without photos; /healthz and the
		// recognition routes say why photos do not.
		deps.RecognizerError = err.Error()
		logger.Printf("recognition unavailable: %v", err)
	} else {
		defer func() {
			// Requests cut off by the shutdown deadline may still be
			// running on the networks: the process is about to exit, so
			// they are left to it rather than freed under a worker.
			if !cutOff {
				rec.Close()
			}
		}()
		deps.Recognizer = visionRecognizer{rec}
		logger.Printf("recogniser loaded in %s", time.Since(start).Round(time.Millisecond))
	}

	srv, err := api.New(*cfg, deps)
	if err != nil {
		fmt.Fprintf(stderr, "mjscan serve: %v\n", err)
		return 2
	}
	if closeRecords, err := mountTournament(srv, all, logger); errors.Is(err, referee.ErrReadOnly) || errors.Is(err, referee.ErrUnavailable) {
		// The record is named right but cannot take decisions: say so
		// and stop, rather than answer healthy and fail every write.
		fmt.Fprintf(stderr, "mjscan serve: cannot start:\n%v\n", err)
		return 1
	} else if err != nil {
		fmt.Fprintf(stderr, "mjscan serve: bad configuration:\n%v\n", err)
		return 2
	} else if closeRecords != nil {
		defer closeRecords()
	}
	logger.Printf("mjscan %s, settings:", version)
	for _, line := range all.Describe() {
		logger.Printf("  %s", line)
	}
	logger.Printf("resident memory bound from these settings: %d MB (api/LOAD.md)", cfg.MemoryBound()>>20)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		logger.Printf("cannot listen on %s: %v", cfg.Addr, err)
		return 1
	}
	httpSrv := srv.HTTPServer(logger)
	var metricsSrv *http.Server
	metricsAddr := ""
	if cfg.MetricsAddr != "" && cfg.MetricsAddr != "off" {
		metricsSrv = &http.Server{Handler: srv.MetricsHandler(), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
		// Metrics are not worth failing the service over: a taken port
		// is logged and the API keeps serving.
		if mln, err := net.Listen("tcp", cfg.MetricsAddr); err != nil {
			logger.Printf("metrics not served: %v", err)
		} else {
			metricsAddr = mln.Addr().String()
			go metricsSrv.Serve(mln)
			logger.Printf("metrics on http://%s/metrics", metricsAddr)
		}
	}
	logger.Printf("serving on http://%s/ (API description at /openapi.json)", ln.Addr())
	if ready != nil {
		ready(ln.Addr().String(), metricsAddr)
	}

	errc := make(chan error, 1)
	go func() { errc <- httpSrv.Serve(ln) }()
	select {
	case err := <-errc:
		logger.Printf("stopped: %v", err)
		return 1
	case <-ctx.Done():
	}
	// New connections are refused from here on; the requests in flight
	// have ShutdownTimeout to finish. The referee record is closed after
	// them (the deferred closeRecords), and the process exits.
	logger.Printf("stopping: finishing requests in flight (at most %s, %sSHUTDOWN_TIMEOUT)", cfg.ShutdownTimeout, api.EnvPrefix)
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	rc := 0
	if err := httpSrv.Shutdown(sctx); err != nil {
		httpSrv.Close()
		cutOff = true
		logger.Printf("shutdown deadline (%s) passed: the requests still in flight were cut off", cfg.ShutdownTimeout)
		rc = 1
	} else {
		logger.Printf("stopped: every request answered")
	}
	if metricsSrv != nil {
		metricsSrv.Close()
	}
	return rc
}

// fdReserve is the open files kept apart from client connections.
const fdReserve = 128

// visionRecognizer adapts the vision package's recogniser to the API's;
// ModelVersion comes with the embedded recogniser.
type visionRecognizer struct{ *vision.Recognizer }

func (v visionRecognizer) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	return v.RecognizeContext(ctx, photo)
}

// TeachSet and WithSet let the service learn players' tile sets.
func (v visionRecognizer) TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error) {
	return vision.Teach(v.Recognizer, base, photos)
}

func (v visionRecognizer) WithSet(b *vision.Bank) api.Recognizer {
	return visionRecognizer{v.Recognizer.WithBank(b)}
}

// mountTournament opens the referee record when the tournament routes are
// on (the staff tokens are set) or the record is named
// (MJSCAN_REFEREE_DB, MJSCAN_REFEREE_DSN), and keeps players' tile sets
// in it. The tournament routes turn on with the tokens; with neither
// token nor record set, both stay off and the rest of the service runs.
func mountTournament(srv *api.Server, cfg serveConfig, logger *log.Logger) (func(), error) {
	tournament := cfg.Tournament != nil
	if !tournament && !cfg.RecordsNamed {
		logger.Printf("tournament routes off: set %s and %s to turn them on", api.EnvRefereeToken, api.EnvOrganizerToken)
		logger.Printf("tile sets off: set %s (a SQLite file) or %s to keep players' tile sets", referee.EnvSQLitePath, referee.EnvPostgresDSN)
		return nil, nil
	}
	rcfg := cfg.Records
	if rcfg.PostgresDSN == "" {
		if dir := filepath.Dir(rcfg.SQLitePath); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("referee record: %w", err)
			}
		}
	}
	// Open checks that the record can be written; its errors name it.
	store, err := referee.Open(context.Background(), rcfg)
	if err != nil {
		return nil, err
	}
	where := "SQLite " + rcfg.SQLitePath
	if rcfg.PostgresDSN != "" {
		where = "PostgreSQL (" + referee.EnvPostgresDSN + ")"
	}
	organiser := ""
	if tournament {
		organiser = cfg.Tournament.OrganizerToken
		if err := srv.MountTournament(*cfg.Tournament, store); err != nil {
			store.Close()
			return nil, err
		}
		logger.Printf("tournament routes on; referee record in %s", where)
	} else {
		logger.Printf("tournament routes off: set %s and %s to turn them on", api.EnvRefereeToken, api.EnvOrganizerToken)
	}
	if err := srv.UseTileSets(store, organiser); err != nil {
		store.Close()
		return nil, err
	}
	logger.Printf("tile sets kept in %s", where)
	return func() {
		if err := store.Close(); err != nil {
			logger.Printf("referee record: %v", err)
			return
		}
		logger.Printf("referee record closed")
	}, nil
}
