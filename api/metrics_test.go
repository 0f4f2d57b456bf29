package api

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
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
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(t.TempDir(), "r.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		t.Fatal(err)
	}
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
