package api

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTableFrame: the organiser's desk reads one frame of a registered
// table's camera through the service (to draw the calibration on); the
// referee may not, another table's name is none, and a camera answering
// something other than a JPEG is a bad gateway that says what to check.
func TestTableFrame(t *testing.T) {
	frame, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", "table-empty.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	answer := frame
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Write(answer)
	}))
	defer cam.Close()
	s, err := New(DefaultConfig(), Deps{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	mountOnSQLite(t, s)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	u := ts.URL
	if a := call(t, "POST", u+"/v1/tables", testOrganizerToken, `{"table":"table 1","snapshot_url":"`+cam.URL+`/snapshot.jpg"}`); a.status != 201 {
		t.Fatalf("register: %d %s", a.status, a.body)
	}

	a := call(t, "GET", u+"/v1/tables/table%201/frame", testOrganizerToken, "")
	if a.status != 200 || a.header.Get("Content-Type") != "image/jpeg" || string(a.body) != string(frame) || a.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("frame: %d %s %q, %d bytes", a.status, a.header.Get("Content-Type"), a.header.Get("Cache-Control"), len(a.body))
	}
	wantProblem(t, call(t, "GET", u+"/v1/tables/table%201/frame", "", ""), 401, codeUnauthorized)
	wantProblem(t, call(t, "GET", u+"/v1/tables/table%201/frame", testRefereeToken, ""), 403, codeForbidden)
	wantProblem(t, call(t, "GET", u+"/v1/tables/table%202/frame", testOrganizerToken, ""), 404, codeNotFound)
	mu.Lock()
	answer = []byte("<html>login</html>")
	mu.Unlock()
	p := call(t, "GET", u+"/v1/tables/table%201/frame", testOrganizerToken, "")
	wantProblem(t, p, 502, codeRecognition)
	if d := p.str("detail"); !strings.Contains(d, "check that the table's snapshot_url answers one JPEG photo") {
		t.Errorf("a camera answering HTML: %q", d)
	}
}

// TestDeskPages: the desks are served as the player's page is, under the
// same Content-Security-Policy, never cached stale, and they reach the
// token only through sessionStorage and the Authorization header.
func TestDeskPages(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	for _, path := range []string{"/referee", "/organiser"} {
		a := get(t, ts.URL+path)
		if a.status != 200 || a.header.Get("Content-Security-Policy") != pageCSP || a.header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: %d, CSP %q, cache %q", path, a.status, a.header.Get("Content-Security-Policy"), a.header.Get("Cache-Control"))
		}
	}
	desk, err := webFS.ReadFile("web/desk.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sessionStorage", `headers.Authorization = "Bearer " + tok`} {
		if !strings.Contains(string(desk), want) {
			t.Errorf("desk.js does not hold %q", want)
		}
	}
	if strings.Contains(string(desk), "localStorage.") {
		t.Error("desk.js keeps something in localStorage: a staff token lives for the tab only")
	}
}
