package api

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/referee"
)

// scrape reads the Prometheus text page of a service.
func scrape(t testing.TB, s *Server) string {
	t.Helper()
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("metrics: %d", rec.Code)
	}
	return rec.Body.String()
}

// labelValues collects the values one label takes in one metric family.
func labelValues(page, metric, label string) map[string]bool {
	out := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(page))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, metric+"{") {
			continue
		}
		_, rest, _ := strings.Cut(line, label+`="`)
		v, _, _ := strings.Cut(rest, `"`)
		out[v] = true
	}
	return out
}

// TestMetricsLabelsFixed: whatever method and path a client sends, the
// request metrics are labelled from a fixed set (the registered routes and
// "unmatched", the known methods and "other"), so clients cannot create
// series or grow the metrics page.
func TestMetricsLabelsFixed(t *testing.T) {
	s, _ := newTestServer(t, nil, nil)
	huge := strings.Repeat("M", 65<<10)
	odd := []string{huge, "PROPFIND", "get", "BREW", "X-" + strings.Repeat("Q", 300)}
	for i := 0; i < 50; i++ {
		for _, m := range odd {
			serveDirect(s, httptest.NewRequest(m, "/v1/scores", strings.NewReader("{}")))
			serveDirect(s, httptest.NewRequest(m, "/"+strings.Repeat("p", i+1), nil))
		}
		serveDirect(s, httptest.NewRequest(http.MethodGet, "/no/such/"+strings.Repeat("z", i+1), nil))
		serveDirect(s, httptest.NewRequest(http.MethodPost, "/v1/scor"+strings.Repeat("e", i), nil))
	}
	serveDirect(s, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	// Routes mounted after the server was built are labelled by their
	// pattern too.
	mountOnSQLite(t, s)
	serveDirect(s, httptest.NewRequest(http.MethodGet, "/v1/games/Q"+strings.Repeat("9", 500), nil))

	page := scrape(t, s)
	if len(page) > 256<<10 {
		t.Errorf("the metrics page grew to %d bytes", len(page))
	}
	known := map[string]bool{"other": true}
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"} {
		known[m] = true
	}
	methods := labelValues(page, "mjscan_http_requests_total", "method")
	for m := range methods {
		if !known[m] {
			t.Errorf("method label %.40q is not a known method", m)
		}
	}
	if !methods["other"] || !methods["GET"] {
		t.Errorf("method labels lack other or GET")
	}
	routes := map[string]bool{"unmatched": true}
	for _, r := range s.echo.Routes() {
		routes[r.Path] = true
	}
	for _, metric := range []string{"mjscan_http_requests_total", "mjscan_http_request_duration_seconds_count"} {
		got := labelValues(page, metric, "route")
		for r := range got {
			if !routes[r] {
				t.Errorf("%s: route label %.40q is not a registered route", metric, r)
			}
		}
		if !got["/healthz"] || !got["unmatched"] || !got["/v1/games/:id"] {
			t.Errorf("%s: route labels lack /healthz, /v1/games/:id or unmatched", metric)
		}
	}
	if n := bytes.Count([]byte(page), []byte("\nmjscan_http_requests_total{")); n > 20 {
		t.Errorf("%d request series from a handful of routes", n)
	}
}

// TestMetricsCarryTheReplica: every series a replica exposes, the Go and
// process ones included, carries its replica label (MJSCAN_INSTANCE), so
// the replicas behind one load balancer can be told apart on one
// dashboard; the database-errors series is there from the start and
// counts a failure of the record under the same label.
func TestMetricsCarryTheReplica(t *testing.T) {
	s, ts := newTestServer(t, nil, func(c *Config) { c.Instance = "mjscan-7f9c-2" })
	path := filepath.Join(t.TempDir(), "r.db")
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := s.UseTileSets(store, testOrganizerToken); err != nil {
		t.Fatal(err)
	}
	postJSON(t, ts.URL+"/v1/scores", `{"rules":"riichi","hand":"234m345p456s678s55p","win_tile":"8s","tsumo":true}`)
	page := scrape(t, s)
	samples := 0
	sc := bufio.NewScanner(strings.NewReader(page))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		samples++
		if !strings.Contains(line, `replica="mjscan-7f9c-2"`) {
			t.Errorf("a series without the replica label: %.120s", line)
		}
	}
	if samples < 50 {
		t.Fatalf("only %d series on the metrics page", samples)
	}
	for _, want := range []string{
		`mjscan_database_errors_total{replica="mjscan-7f9c-2"} 0`,
		`go_goroutines{replica="mjscan-7f9c-2"}`,
		`mjscan_http_requests_total{method="POST",replica="mjscan-7f9c-2",route="/v1/scores",status="200"} 1`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the metrics page lacks %s", want)
		}
	}

	// The record loses a table behind the service's back: reading a tile
	// set fails in the database, and the failure is counted.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`ALTER TABLE tile_sets RENAME TO tile_sets_gone`); err != nil {
		t.Fatal(err)
	}
	a := get(t, ts.URL+"/v1/tile-sets/ts_0123456789abcdef0123456789abcdef")
	if a.status < 500 {
		t.Fatalf("a tile set read from a broken record answered %d", a.status)
	}
	if page := scrape(t, s); !strings.Contains(page, `mjscan_database_errors_total{replica="mjscan-7f9c-2"} 1`) {
		t.Errorf("the database error was not counted:\n%s", grepLines(page, "mjscan_database_errors_total"))
	}
}

// grepLines keeps the lines of page that contain what.
func grepLines(page, what string) string {
	var out []string
	for _, l := range strings.Split(page, "\n") {
		if strings.Contains(l, what) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestInstanceSetting: the replica's name defaults to the host's name (a
// pod's name in Kubernetes) and is refused when it is not a plain name.
func TestInstanceSetting(t *testing.T) {
	host, _ := os.Hostname()
	if host != "" && DefaultConfig().Instance != host {
		t.Errorf("default instance %q, want the host name %q", DefaultConfig().Instance, host)
	}
	c, err := LoadConfig(func(k string) string { return map[string]string{"MJSCAN_INSTANCE": "hall-b:2"}[k] })
	if err != nil || c.Instance != "hall-b:2" {
		t.Errorf("MJSCAN_INSTANCE=hall-b:2: %q %v", c.Instance, err)
	}
	for _, bad := range []string{`a"b`, "with space", strings.Repeat("x", 129)} {
		if _, err := LoadConfig(func(k string) string { return map[string]string{"MJSCAN_INSTANCE": bad}[k] }); err == nil || !strings.Contains(err.Error(), "MJSCAN_INSTANCE") {
			t.Errorf("MJSCAN_INSTANCE=%.20q: %v, want an error naming it", bad, err)
		}
	}
}
