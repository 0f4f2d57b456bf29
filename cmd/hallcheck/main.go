// Command hallcheck is the hall test of issue 19, on loopback: three
// replicas of `mjscan serve` on one throwaway PostgreSQL, behind Debian's
// nginx configured from deploy/nginx.conf, under tables that upload
// photos, score hands, record hands to their games and write referee
// records, with Idempotency-Keys and retries on 502/503. One replica is
// killed with SIGKILL in the middle and started again; then all three are
// restarted in turn with SIGTERM, still under load. Afterwards every
// replica is asked directly for what the clients were told was stored.
// Optionally it measures recognitions through nginx with 1 and with 3
// replicas.
//
//	make build && go run ./cmd/hallcheck -duration 60s -clients 20 -scale 20s -report deploy/HALL.md
//
// It exits 0 when every check passes, 1 when one fails (each failure says
// what was lost, duplicated or answered wrong), 2 when the hall could not
// be set up. Everything it starts, it stops.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "hallcheck: "+format+"\n", args...)
}

type options struct {
	duration time.Duration
	clients  int
	scale    time.Duration
	port     int
	pgPort   int
	pgDir    string
	dsn      string
	bin      string
	photos   string
	report   string
	keep     bool
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "how long the tables send (the kill and the rolling restart happen inside it; the load goes on until the restart is done)")
	flag.IntVar(&o.clients, "clients", 20, "tables sending at once, each from its own loopback address")
	flag.DurationVar(&o.scale, "scale", 0, "measure recognitions through nginx with 1 and with 3 replicas for this long each (0: not)")
	flag.IntVar(&o.port, "port", 18120, "nginx listens here; the replicas on the next 3 ports, their metrics 11 to 13 above")
	flag.IntVar(&o.pgPort, "pg-port", 25412, "port of the throwaway PostgreSQL")
	flag.StringVar(&o.pgDir, "pg-dir", "/tmp/pg-hall", "folder of the throwaway PostgreSQL")
	flag.StringVar(&o.dsn, "dsn", "", "use this PostgreSQL instead of starting one (its tables are shared with whatever else uses it)")
	flag.StringVar(&o.bin, "bin", "bin/mjscan", "the mjscan binary (make build)")
	flag.StringVar(&o.photos, "photos", "testdata/photos/dev", "folder of the photos the tables upload")
	flag.StringVar(&o.report, "report", "", "write the results as Markdown to this file")
	flag.DurationVar(&retryFor, "retry-for", retryFor, "how long a client retries one request before it gives up (and the check fails)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder (logs of nginx and the replicas)")
	flag.Parse()
	os.Exit(run(o, strings.Join(append([]string{"go run ./cmd/hallcheck"}, os.Args[1:]...), " ")))
}

func run(o options, command string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.clients < 1 || o.clients > 500 || o.duration < 5*time.Second {
		logf("-clients must be 1 to 500 and -duration at least 5s")
		return 2
	}
	photos, err := readPhotos(o.photos)
	if err != nil {
		logf("%v", err)
		return 2
	}
	shipped, err := os.ReadFile("deploy/nginx.conf")
	if err != nil {
		logf("run it from the repository's root: %v", err)
		return 2
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		logf("%v", err)
		return 2
	}
	if _, err := os.Stat(bin); err != nil {
		logf("no %s: run make build first", o.bin)
		return 2
	}
	tmp, err := os.MkdirTemp("", "hallcheck-")
	if err != nil {
		logf("%v", err)
		return 2
	}
	if o.keep {
		logf("logs in %s", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	dsn := o.dsn
	if dsn == "" {
		var stopPG func()
		dsn, stopPG, err = postgres(o.pgPort, o.pgDir)
		if err != nil {
			logf("%v", err)
			return 2
		}
		defer stopPG()
	}

	reps := make([]*replica, 3)
	for i := range reps {
		reps[i] = &replica{name: fmt.Sprintf("mjscan-%d", i+1), api: fmt.Sprintf("127.0.0.1:%d", o.port+1+i),
			metrics: fmt.Sprintf("127.0.0.1:%d", o.port+11+i), dsn: dsn, bin: bin,
			logPath: filepath.Join(tmp, fmt.Sprintf("mjscan-%d.log", i+1))}
	}
	for _, r := range reps {
		names[r.api] = r.name
	}
	defer func() {
		for _, r := range reps {
			r.stop()
		}
	}()
	// All three at once: their migrations race as a real roll-out's do.
	errs := make(chan error, len(reps))
	for _, r := range reps {
		go func(r *replica) { errs <- r.start(ctx) }(r)
	}
	for range reps {
		if err := <-errs; err != nil {
			logf("%v", err)
			tailLogs(reps)
			return 2
		}
	}
	listen := fmt.Sprintf("127.0.0.1:%d", o.port)
	conf, err := deriveNginx(string(shipped), listen, addrs(reps))
	if err != nil {
		logf("%v", err)
		return 2
	}
	ngx, err := startNginx(ctx, filepath.Join(tmp, "nginx"), conf, listen)
	if err != nil {
		logf("%v", err)
		return 2
	}
	defer func() {
		if ngx != nil {
			ngx.stop()
		}
	}()
	base := "http://" + listen
	runID := "h" + strconv.FormatInt(time.Now().Unix()%1e7, 36)
	logf("three replicas and nginx on %s; %d tables for %s (run %s)", base, o.clients, o.duration, runID)

	// The load, and what is done to the replicas during it.
	start := time.Now()
	tl := newTally(start)
	ak := &acks{}
	loadCtx, endLoad := context.WithCancel(ctx)
	hard, endHard := context.WithCancel(context.Background())
	defer endHard()
	context.AfterFunc(ctx, endHard) // an interrupt cuts the retries too
	loaded := make(chan struct{})
	go func() {
		runTables(loadCtx, hard, o.clients, base, runID, photos, tl, ak)
		close(loaded)
	}()
	windows, chaosFailures := chaos(ctx, start, o.duration, reps)
	if rest := o.duration - time.Since(start); rest > 0 {
		select {
		case <-time.After(rest):
		case <-ctx.Done():
		}
	}
	endLoad()
	// The rounds under way finish; their retries are bounded by
	// retryFor, and cut soon after whatever happens.
	select {
	case <-loaded:
	case <-time.After(retryFor + 30*time.Second):
		endHard()
		<-loaded
	}
	loadTime := time.Since(start)
	if ctx.Err() != nil {
		logf("interrupted")
		return 2
	}
	logf("load done after %.1fs: %d uploads, %d hands, %d records acknowledged", loadTime.Seconds(), ak.uploads, countHands(ak), len(ak.records))

	// What was acknowledged while replicas were down or restarting: the
	// presence checks below look for it like for the rest.
	if len(windows) > 1 {
		kill, roll := windows[0], window{from: windows[1].from, to: windows[len(windows)-1].to}
		k, r := acksWithin(ak, kill), acksWithin(ak, roll)
		chaosFailures.summary += fmt.Sprintf("; acknowledged during the kill's window: %d hands and records, during the rolling restart's: %d", k, r)
	}

	// The checks, on every replica directly.
	for _, r := range reps {
		if !r.running() {
			chaosFailures.fail("%s is not running after the load (see its log)", r.name)
		}
	}
	var verdicts []*verdict
	verdicts = append(verdicts, checkGames(ctx, reps, ak)...)
	verdicts = append(verdicts, checkRecords(ctx, reps, ak)...)
	probe := newClient(o.clients, base, newTally(start))
	verdicts = append(verdicts, checkReplayAcrossReplicas(ctx, probe, reps, runID, photos[0]),
		checkWritesReplayed(ctx, probe, reps, runID), checkReplaysUnderLoad(ak),
		checkStatuses(tl, windows, 2*o.clients), chaosFailures)

	var scaling []scaleResult
	if o.scale > 0 {
		scaling, err = measureScaling(ctx, o, tmp, string(shipped), reps, photos, &ngx)
		if err != nil {
			logf("scaling: %v", err)
			return 2
		}
	}
	failed := 0
	for _, v := range verdicts {
		failed += len(v.failures)
	}
	rep := renderReport(o, command, runID, loadTime, ak, verdicts, scaling)
	fmt.Print(rep)
	if o.report != "" {
		if err := writeReport(o.report, rep); err != nil {
			logf("%v", err)
			return 2
		}
		logf("report written to %s", o.report)
	}
	if failed > 0 {
		logf("%d check failure(s)", failed)
		tailLogs(reps)
		return 1
	}
	logf("every check passed")
	return 0
}

// chaos kills the second replica with SIGKILL a quarter into the load and
// starts it again, then, from half way, restarts each replica in turn
// with SIGTERM (each waits for the one before to be ready). It answers
// when each replica was down, with nginx's fail_timeout after it (a
// replica that failed gets no requests for 10s, then is tried again).
func chaos(ctx context.Context, start time.Time, d time.Duration, reps []*replica) ([]window, *verdict) {
	v := &verdict{name: "the kill and the rolling restart went as planned (SIGTERM drains: exit status 0)"}
	var windows []window
	at := func(t time.Duration) {
		select {
		case <-time.After(time.Until(start.Add(t))):
		case <-ctx.Done():
		}
	}
	since := func() time.Duration { return time.Since(start) }
	const settle = 12 * time.Second

	at(d / 4)
	victim := reps[len(reps)/2]
	w := window{what: "kill -9 " + victim.name, from: since()}
	if err := victim.signal(syscall.SIGKILL, 10*time.Second); err != nil && !strings.Contains(err.Error(), "killed") {
		v.fail("kill -9 %s: %v", victim.name, err)
	}
	logf("%.1fs: killed %s", since().Seconds(), victim.name)
	time.Sleep(2 * time.Second)
	if err := victim.start(ctx); err != nil {
		v.fail("restarting %s after the kill: %v", victim.name, err)
	}
	logf("%.1fs: %s ready again", since().Seconds(), victim.name)
	backInService(ctx, v, victim, start)
	w.to = since() + settle
	windows = append(windows, w)

	at(d / 2)
	for _, r := range reps {
		w := window{what: "SIGTERM " + r.name, from: since()}
		if err := r.signal(syscall.SIGTERM, 40*time.Second); err != nil {
			v.fail("SIGTERM %s: it did not drain cleanly: %v (see %s)", r.name, err, r.logPath)
		}
		if err := r.start(ctx); err != nil {
			v.fail("restarting %s: %v", r.name, err)
		}
		logf("%.1fs: %s restarted", since().Seconds(), r.name)
		// The next one only once nginx sends this one requests again, or
		// nginx would find every replica marked failed at once.
		backInService(ctx, v, r, start)
		w.to = since() + settle
		windows = append(windows, w)
	}
	v.summary = fmt.Sprintf("%s killed at %.1fs; rolling restart of %d replicas from %.1fs to %.1fs", victim.name,
		windows[0].from.Seconds(), len(reps), windows[1].from.Seconds(), windows[len(windows)-1].to.Seconds()-settle.Seconds())
	return windows, v
}

// backInService waits until nginx sends the restarted replica requests
// again: its checks are passive, so a replica that refused connections
// while it was down gets none for fail_timeout (10s) after it is ready.
// A rolling restart that moves on sooner can leave nginx with every
// replica marked failed at once ("no live upstreams": 503 to everyone).
func backInService(ctx context.Context, v *verdict, r *replica, start time.Time) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if n, err := apiRequests(ctx, r); err == nil && n > 0 {
			logf("%.1fs: nginx sends %s requests again", time.Since(start).Seconds(), r.name)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	v.fail("%s: nginx sent it no request within 30s of its restart", r.name)
}

func readPhotos(dir string) ([][]byte, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no photos (*.jpg) in %s: run it from the repository's root", dir)
	}
	sort.Strings(names)
	// A fixed sample, the same each run.
	rand.New(rand.NewSource(19)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	if len(names) > 40 {
		names = names[:40]
	}
	var out [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func addrs(reps []*replica) []string {
	var out []string
	for _, r := range reps {
		out = append(out, r.api)
	}
	return out
}

// reportMarker splits a report file: what is above it is written by
// people (what the runs mean) and kept; below it, the last run.
const reportMarker = "<!-- cmd/hallcheck writes the run below this line; what is above it is kept. -->"

func writeReport(path, rep string) error {
	head := ""
	if old, err := os.ReadFile(path); err == nil {
		if i := strings.Index(string(old), reportMarker); i >= 0 {
			head = string(old[:i]) + reportMarker + "\n\n"
		}
	}
	return os.WriteFile(path, []byte(head+rep), 0o644)
}

func acksWithin(ak *acks, w window) int {
	n := 0
	for _, g := range ak.games {
		for _, h := range g.hands {
			if h.at >= w.from && h.at <= w.to {
				n++
			}
		}
	}
	for _, r := range ak.records {
		if r.at >= w.from && r.at <= w.to {
			n++
		}
	}
	return n
}

func countHands(ak *acks) int {
	n := 0
	for _, g := range ak.games {
		n += len(g.hands)
	}
	return n
}

func tailLogs(reps []*replica) {
	for _, r := range reps {
		b, err := os.ReadFile(r.logPath)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) > 8 {
			lines = lines[len(lines)-8:]
		}
		logf("last lines of %s's log:\n  %s", r.name, strings.Join(lines, "\n  "))
	}
}
