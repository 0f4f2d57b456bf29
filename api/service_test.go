package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mjscan/referee"
)

// TestOpenAPIMatchesRoutes: every route the service answers is in the
// document, and every path and method in the document is answered.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s, ts := newTestServer(t, nil, nil)
	// The tournament routes are part of the document: mount them too.
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		t.Fatal(err)
	}
	a := get(t, ts.URL+"/openapi.json")
	if a.status != 200 || !strings.HasPrefix(a.str("openapi"), "3.") {
		t.Fatalf("openapi.json: %d %.200s", a.status, a.body)
	}
	documented := map[string]bool{}
	for path, ops := range a.json["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	param := regexp.MustCompile(`:(\w+)`)
	served := map[string]bool{}
	for _, r := range s.echo.Routes() {
		if r.Method == "echo_route_not_found" || strings.HasPrefix(r.Method, "echo_") {
			continue
		}
		p := param.ReplaceAllString(r.Path, "{$1}")
		p = strings.Replace(p, "*", "{path}", 1)
		served[r.Method+" "+p] = true
	}
	for k := range served {
		if !documented[k] {
			t.Errorf("served but not documented: %s", k)
		}
	}
	for k := range documented {
		if !served[k] {
			t.Errorf("documented but not served: %s", k)
		}
	}
	if len(served) < 10 {
		t.Errorf("only %d routes served", len(served))
	}
	// Every $ref points at something that exists.
	refs := regexp.MustCompile(`"\$ref":\s*"#/([^"]+)"`).FindAllStringSubmatch(string(a.body), -1)
	for _, m := range refs {
		var node any = a.json
		for _, part := range strings.Split(m[1], "/") {
			obj, _ := node.(map[string]any)
			node = obj[part]
		}
		if node == nil {
			t.Errorf("dangling $ref #/%s", m[1])
		}
	}
}

// TestEveryAnswerCarriesVersions: JSON bodies have versions, and every
// response the header.
func TestEveryAnswerCarriesVersions(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	for _, a := range []*answer{
		get(t, ts.URL+"/healthz"), get(t, ts.URL+"/v1/rules"), postJSON(t, ts.URL+"/v1/scores", readmeHand),
		postJSON(t, ts.URL+"/v1/verify", `{"request":`+readmeHand+`,"claim":{"points":1}}`),
		get(t, ts.URL+"/v1/notation?mpsz=123m"), get(t, ts.URL+"/"),
	} {
		if a.header.Get("Mjscan-Version") == "" {
			t.Errorf("no Mjscan-Version header on %.80s", a.body)
		}
		if a.json != nil && a.json["versions"] == nil {
			t.Errorf("no versions in %.120s", a.body)
		}
	}
}

func TestBusyAnswers429(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition(), block: make(chan struct{})}
	_, ts := newTestServer(t, fake, func(c *Config) { c.Workers, c.Queue = 1, 1 })
	photo := samplePhoto(t)
	var wg sync.WaitGroup
	results := make(chan int, 2)
	for i := 0; i < 2; i++ { // one runs, one waits
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- postPhoto(t, ts.URL+"/v1/recognitions", photo, nil, "").status
		}()
	}
	waitFor(t, func() bool { return fake.calls.Load() == 1 })
	time.Sleep(20 * time.Millisecond) // let the second reach the queue
	a := postPhoto(t, ts.URL+"/v1/recognitions", photo, nil, "")
	wantProblem(t, a, 429, codeBusy)
	if a.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	// Scoring shares the pool, so it is refused too while the queue is full.
	wantProblem(t, postJSON(t, ts.URL+"/v1/scores", readmeHand), 429, codeBusy)
	close(fake.block)
	wg.Wait()
	close(results)
	for st := range results {
		if st != 200 {
			t.Errorf("queued request answered %d", st)
		}
	}
}

func TestDeadline(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition(), delay: 2 * time.Second}
	_, ts := newTestServer(t, fake, func(c *Config) { c.RequestTimeout = 50 * time.Millisecond })
	start := time.Now()
	wantProblem(t, postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), nil, ""), 503, codeTimeout)
	if d := time.Since(start); d > time.Second {
		t.Errorf("deadline of 50ms answered after %s", d)
	}
}

func TestPool(t *testing.T) {
	p := NewPool(2, 1)
	release := make(chan struct{})
	var started atomic.Int64
	errs := make(chan error, 3)
	for i := 0; i < 3; i++ {
		go func() {
			errs <- p.Do(context.Background(), func() error {
				started.Add(1)
				<-release
				return nil
			})
		}()
	}
	waitFor(t, func() bool { return started.Load() == 2 && p.Waiting() == 1 && p.Running() == 2 })
	if err := p.Do(context.Background(), func() error { return nil }); !errors.Is(err, ErrBusy) {
		t.Errorf("full pool: %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	close(release)
	for i := 0; i < 3; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	// A cancelled caller may still win the race for a free worker; either
	// way nothing may leak (checked below).
	_ = p.Do(ctx, func() error { return nil })
	if err := p.Do(context.Background(), func() error { panic("boom") }); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("panic not turned into an error: %v", err)
	}
	waitFor(t, func() bool { return p.Running() == 0 && p.Waiting() == 0 && len(p.admit) == 0 })
}

func TestConfig(t *testing.T) {
	env := map[string]string{
		"MJSCAN_ADDR": "127.0.0.1:9999", "MJSCAN_BODY_LIMIT": "5MB", "MJSCAN_WORKERS": "3",
		"MJSCAN_REQUEST_TIMEOUT": "2s", "MJSCAN_METRICS_ADDR": "off",
	}
	c, err := LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9999" || c.BodyLimit != 5<<20 || c.Workers != 3 || c.RequestTimeout != 2*time.Second || c.MetricsAddr != "off" {
		t.Errorf("%+v", c)
	}
	d := DefaultConfig()
	if d.BodyLimit != 20<<20 || d.Workers < 1 {
		t.Errorf("defaults %+v", d)
	}
	// Every bad value is reported at once.
	bad := map[string]string{"MJSCAN_WORKERS": "many", "MJSCAN_BODY_LIMIT": "huge", "MJSCAN_REQUEST_TIMEOUT": "1ms", "MJSCAN_QUEUE": "-1"}
	_, err = LoadConfig(func(k string) string { return bad[k] })
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for k := range bad {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("error does not name %s:\n%v", k, err)
		}
	}
	lines := DefaultConfig().Describe()
	if len(lines) != len(envVars) || !strings.HasPrefix(lines[0], "MJSCAN_ADDR=") {
		t.Errorf("describe: %v", lines)
	}
}

func TestMetrics(t *testing.T) {
	s, ts := newTestServer(t, nil, func(c *Config) { c.Instance = "r1" })
	postJSON(t, ts.URL+"/v1/scores", readmeHand)
	postJSON(t, ts.URL+"/v1/scores", `{"rules":"riichi","hand":"1234m345p456s678s5p","seat_wind":"E","round_wind":"E"}`)
	get(t, ts.URL+"/nope")
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`mjscan_scores_total{outcome="ok",replica="r1",rules="riichi"} 1`,
		`mjscan_scores_total{outcome="not_a_winning_hand",replica="r1",rules="riichi"} 1`,
		`mjscan_http_requests_total{method="POST",replica="r1",route="/v1/scores",status="200"} 1`,
		`mjscan_http_requests_total{method="POST",replica="r1",route="/v1/scores",status="422"} 1`,
		`mjscan_step_duration_seconds_count{replica="r1",step="score"} 2`,
		`mjscan_score_duration_seconds_count{replica="r1",rules="riichi"} 2`,
		`mjscan_pool_running{replica="r1"} 0`,
		`status="404"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// Metrics are not on the API port.
	if a := get(t, ts.URL+"/metrics"); a.status != 404 {
		t.Errorf("/metrics on the API port: %d", a.status)
	}
}

func TestWebPage(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := get(t, ts.URL+"/")
	if a.status != 200 || !strings.Contains(a.header.Get("Content-Type"), "text/html") || !bytes.Contains(a.body, []byte("<html")) {
		t.Fatalf("index: %d %s", a.status, a.header.Get("Content-Type"))
	}
	for _, src := range regexp.MustCompile(`(?:src|href)="(/web/[^"]+)"`).FindAllStringSubmatch(string(a.body), -1) {
		if r := get(t, ts.URL+src[1]); r.status != 200 {
			t.Errorf("%s: %d", src[1], r.status)
		}
	}
	resp, err := http.Get(ts.URL + "/web/../go.mod")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if bytes.Contains(b, []byte("module mjscan")) {
			t.Error("path traversal out of the web folder")
		}
	}
	wantProblem(t, get(t, ts.URL+"/web/nothing.js"), 404, codeNotFound)
}

// TestProblemJSON keeps the problem members in front of any extension.
func TestProblemJSON(t *testing.T) {
	p := problem(422, "not_a_winning_hand", "the hand is not complete")
	p.Ext = map[string]any{"status": 200, "ok": false, "code": "x"}
	b, _ := json.Marshal(p)
	var m map[string]any
	json.Unmarshal(b, &m)
	if m["status"].(float64) != 422 || m["code"] != "not_a_winning_hand" || m["ok"] != false {
		t.Errorf("%s", b)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != "code,detail,ok,status,title,type" {
		t.Errorf("members %v", keys)
	}
}
