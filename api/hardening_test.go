package api

import (
	"bytes"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestSecurityHeaders: the page carries a Content-Security-Policy that
// lets its own script, style and photos run and nothing else, framing is
// refused, and every answer (JSON, problems, files) says nosniff and
// sends no referrer.
func TestSecurityHeaders(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	page := get(t, ts.URL+"/")
	csp := page.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("page CSP %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-") {
		t.Errorf("page CSP %q allows unsafe sources", csp)
	}
	for _, a := range []*answer{
		page,
		get(t, ts.URL+"/web/app.js"),
		get(t, ts.URL+"/healthz"),
		get(t, ts.URL+"/openapi.json"),
		postJSON(t, ts.URL+"/v1/scores", readmeHand),
		postJSON(t, ts.URL+"/v1/scores", `{"rules":`),
		get(t, ts.URL+"/no/such/page"),
	} {
		h := a.header
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" ||
			h.Get("X-Frame-Options") != "DENY" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%d %s: headers %v", a.status, h.Get("Content-Type"), h)
		}
	}
	if api := postJSON(t, ts.URL+"/v1/scores", readmeHand).header.Get("Content-Security-Policy"); !strings.HasPrefix(api, "default-src 'none'") || strings.Contains(api, "script-src") {
		t.Errorf("JSON answers' CSP %q: they run nothing", api)
	}
}

// TestPageWithinCSP: the page relies on nothing the policy blocks: no
// inline script or style, no inline event handlers, no eval, no style
// attributes written as markup (CSSOM writes through element.style are
// allowed), and only its own files.
func TestPageWithinCSP(t *testing.T) {
	html, err := webFS.ReadFile("web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := fs.Glob(webFS, "web/*.js")
	if err != nil || len(scripts) < 2 {
		t.Fatalf("the page's scripts: %v %v", scripts, err)
	}
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]`), // inline script
		regexp.MustCompile(`<style`),
		regexp.MustCompile(`\sstyle=`),
		regexp.MustCompile(`\son[a-z]+=`),
		regexp.MustCompile(`(?:src|href)="(?:https?:)?//`),
		regexp.MustCompile(`javascript:`),
	} {
		for _, m := range bad.FindAll(html, -1) {
			t.Errorf("index.html: %q is blocked by the page's CSP", m)
		}
	}
	for _, name := range scripts {
		js, err := webFS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		js = bytes.ReplaceAll(js, []byte(`"http://www.w3.org/2000/svg"`), nil) // a namespace's name, never fetched
		for _, bad := range []string{"eval(", "new Function", "setAttribute(\"style\"", "style=", "javascript:", "http://", "https://", "onclick=", "setTimeout(\"", "document.write"} {
			if bytes.Contains(js, []byte(bad)) {
				t.Errorf("%s uses %q, which the page's CSP blocks or which leaves the site", name, bad)
			}
		}
	}
}

// TestMetricsPortOnlyMetrics: the metrics listener answers /metrics and
// nothing else.
func TestMetricsPortOnlyMetrics(t *testing.T) {
	s, _ := newTestServer(t, nil, nil)
	m := httptest.NewServer(s.MetricsHandler())
	defer m.Close()
	if a := get(t, m.URL+"/metrics"); a.status != 200 || !bytes.Contains(a.body, []byte("mjscan_pool_running")) {
		t.Fatalf("/metrics: %d", a.status)
	}
	for _, p := range []string{"/", "/debug/pprof/", "/metrics/", "/metrics/x", "/metricsx", "/v1/scores", "/healthz"} {
		if a := get(t, m.URL+p); a.status != 404 {
			t.Errorf("metrics port %s: %d, want 404", p, a.status)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, m.URL+"/metrics", strings.NewReader("x"))
	if a := do(t, req); a.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /metrics: %d, want 405", a.status)
	}
}

// TestJSONRoutesNeedJSON: a JSON route refuses a body sent as anything but
// JSON (form posts from other sites included) with a 415 that says what to
// send; JSON with a charset or a +json type is fine, and the upload routes
// still take their forms.
func TestJSONRoutesNeedJSON(t *testing.T) {
	_, ts := newTestServer(t, &fakeRecognizer{rec: handRecognition()}, nil)
	send := func(path, ct, body string) *answer {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		return do(t, req)
	}
	for _, path := range []string{"/v1/scores", "/v1/verify"} {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "text/plain; charset=utf-8", "application/jsonx", "nonsense;;"} {
			a := send(path, ct, readmeHand)
			wantProblem(t, a, 415, codeUnsupportedType)
			if !strings.Contains(a.str("detail"), "Content-Type: application/json") {
				t.Errorf("%s as %q: detail %q does not say what to send", path, ct, a.str("detail"))
			}
		}
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON", "application/problem+json"} {
		if a := send("/v1/scores", ct, readmeHand); a.status != 200 {
			t.Errorf("%q: %d %s", ct, a.status, a.body)
		}
	}
	// Not a route: still 404 and 405, not 415.
	wantProblem(t, send("/v1/nothing", "text/plain", "x"), 404, codeNotFound)
	wantProblem(t, send("/healthz", "text/plain", "x"), 405, codeMethod)
	// The uploads take forms.
	if a := postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), nil, ""); a.status != 200 {
		t.Errorf("upload: %d %s", a.status, a.body)
	}
	// An empty body needs no type: the route says what is missing.
	wantProblem(t, send("/v1/scores", "", ""), 400, "bad_request")
}

// TestJSONTournamentRoutesNeedJSON: the tournament routes are JSON routes
// too; the one that takes no body (calibrate) still needs no type.
func TestJSONTournamentRoutesNeedJSON(t *testing.T) {
	ts := newTournamentServer(t)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/games", strings.NewReader(gameBody))
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Authorization", "Bearer "+testOrganizerToken)
	wantProblem(t, do(t, req), 415, codeUnsupportedType)
	if a := call(t, "POST", ts.URL+"/v1/games", testOrganizerToken, gameBody); a.status != 201 {
		t.Errorf("JSON game: %d %s", a.status, a.body)
	}
}

// TestCameraAnswerHidesPorts: calibrating a table whose camera address is a
// closed port, a port that speaks something else, or a web page that is
// not a photo all answer the same problem, word for word, so the service
// cannot tell anyone which ports are open.
func TestCameraAnswerHidesPorts(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String() + "/snapshot.jpg"
	closed.Close()

	banner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer banner.Close()
	go func() {
		for {
			c, err := banner.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"))
			c.Close()
		}
	}()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><title>router admin</title></html>"))
	}))
	defer page.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()

	ts := newTournamentServer(t)
	var first *answer
	for i, url := range []string{closedURL, "http://" + banner.Addr().String() + "/", page.URL + "/admin", missing.URL + "/snap.jpg"} {
		name := "t" + string(rune('a'+i))
		if a := call(t, "POST", ts.URL+"/v1/tables", testOrganizerToken, `{"table":"`+name+`","snapshot_url":"`+url+`"}`); a.status != 201 {
			t.Fatalf("register %s: %d %s", url, a.status, a.body)
		}
		a := call(t, "POST", ts.URL+"/v1/tables/"+name+"/calibrate", testOrganizerToken, "")
		wantProblem(t, a, http.StatusBadGateway, codeRecognition)
		for _, leak := range []string{"refused", "127.0.0.1", "SSH", "malformed", "404", "html", "dial"} {
			if strings.Contains(a.str("detail"), leak) {
				t.Errorf("%s: the answer tells %q: %s", url, leak, a.str("detail"))
			}
		}
		if first == nil {
			first = a
		} else if a.str("detail") != first.str("detail") || a.str("title") != first.str("title") {
			t.Errorf("%s answers %q, a closed port %q", url, a.str("detail"), first.str("detail"))
		}
	}
}
