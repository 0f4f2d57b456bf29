package api

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"mjscan/referee"
)

// jsonRoute is a route that reads a JSON body, with the token it is
// called with (its own role's, so the body is what gets read).
type jsonRoute struct {
	path, token string
	// labels: the body is a tile set's labels, sent as the "labels" part
	// of a teaching upload beside a photo.
	labels bool
	seeds  []string
}

// The routes the fuzz targets below send bodies to, by resource (the
// scores and verify routes have fuzz targets of their own).
var (
	gameRoutes = []jsonRoute{
		{path: "/v1/games", token: testOrganizerToken, seeds: []string{gameBody,
			`{"id":"G2","table":"table 2","rules":"msmc-2016","players":["A","B","C","D","E"]}`,
			`{"id":"a/b","table":"t","rules":{"rules":"riichi"},"players":["A","B","C","D"]}`,
			`{"id":"G3","table":"t","rules":"nonsense","players":["A","B","C","D"]}`}},
		{path: "/v1/games/G1/hands", token: testRefereeToken, seeds: []string{handBody,
			`{"outcome":"draw","tenpai":[0,2]}`,
			`{"outcome":"win","player":9,"from":-1,"hand":{"hand":"1m"}}`,
			`{"outcome":"chombo","player":1}`,
			`{"outcome":"draw"}{"outcome":"draw"}`, "{\"outcome\":\"draw\"}\n x", `{"outcome":"draw","note":"late\u0007"}`}},
		{path: "/v1/games/G1/hands/1/correct", token: testRefereeToken, seeds: []string{handBody,
			`{"outcome":"draw","tenpai":[0,2]}`,
			`{"outcome":"win","player":1,"from":1,"hand":{"hand":"1m"}}`,
			`{"outcome":"draw"} []`, `{"outcome":"draw","note":"\u0000"}`, `{"outcome":"win","player":0,"from":-1,"hand":{"hand":"123m456m789m123p55p","x":[[[[[[]]]]]]}}`}},
	}
	recordRoutes = []jsonRoute{
		{path: "/v1/records", token: testRefereeToken, seeds: []string{strings.ReplaceAll(recordBody, "Q1", "G1"),
			`{"table":"table 1","game":"G1","hand":99,"asked_by":"x"}`,
			`{"table":"t\u0000","ruling":"x"}`}},
		{path: "/v1/records/1/overturn", token: testRefereeToken, seeds: []string{`{"ruling":"overturned: 12,000 to Ben","referee":"Head Referee"}`,
			`{"table":"other","ruling":"x"}`}},
		{path: "/v1/records/1/confirm", token: testRefereeToken, seeds: []string{``, `{"referee":"Head Referee","note":"as read"}`,
			`{"request":{"hand":"123m234p234s678s55p","win_tile":"8s"}}`, `{"request":{"rules":"mcr"}}`, `{"win":{"from":2,"riichi":[1]}}`,
			`{} {}`, `{"note":"\u0000"}`, `{"note":"\ud800"}`, `{"note":"` + strings.Repeat("n", 600) + `"}`, `{"referee":"\u001b[31m"}`, `{"win":{"from":9}}`, `{"win":{}}`}},
	}
	tournamentRoutesFuzzed = []jsonRoute{
		{path: "/v1/tournaments", token: testOrganizerToken, seeds: []string{`{"id":"T2","entrants":["A","B","C","D"]}`,
			`{"id":"T3","entrants":["A","A","B","C"],"organizer":"me"}`}},
		{path: "/v1/tournaments/T1/games", token: testOrganizerToken, seeds: []string{`{"stage":"final","table":0,"game":"G1"}`,
			`{"stage":"qualifier","table":-1,"game":"nope"}`}},
		{path: "/v1/tournaments/T1/penalties", token: testOrganizerToken, seeds: []string{`{"player":"Aiko","points":-20,"reason":"late"}`,
			`{"player":"Aiko","points":4611686018427387904,"reason":"x"}`}},
	}
	tableRoutes = []jsonRoute{
		{path: "/v1/tables", token: testOrganizerToken, seeds: []string{`{"table":"table 3","snapshot_url":"http://127.0.0.1:1/snap.jpg"}`,
			`{"table":"","snapshot_url":"file:///etc/passwd"}`}},
		{path: "/v1/tables/table%201/score-now", token: testRefereeToken, seeds: []string{`{"seat":"S","request":{"rules":"riichi","round_wind":"E"}}`,
			`{"seat":"S","game":"G1","request":{"rules":"riichi"}}`,
			`{"seat":"X","asked_by":"Head Referee (signed)","game":"G1","hand":99,"request":{"rules":"riichi"}}`}},
	}
	handRoutes = []jsonRoute{
		{path: "/v1/recognitions/hand", seeds: []string{`{"tiles":[{"tile":"1m","box":[0,0,10,10]},{"tile":"2m","box":[10,0,20,10]}],"groups":[{"kind":"hand","tiles":[0,1]}]}`,
			`{"tiles":[{"tile":"xx"}],"groups":[{"kind":"meld","tiles":[5,-1]}]}`}},
	}
	tileSetRoutes = []jsonRoute{
		{path: "/v1/tile-sets", labels: true, seeds: []string{`[{"tile":"1m","box":[10,10,60,80]},{"tile":"2m","box":[70,10,120,80]}]`,
			`{"tiles":[{"tile":"3p","box":[0,0,1e308,5],"rotated":true}]}`,
			`[{"tile":"1m","box":[10,10,60]}]`, "1m 10 10 60 80\n2m 70 10 120 80"}},
		{path: "/v1/tile-sets/{set}/photos", labels: true, seeds: []string{`[{"tile":"3m","box":[10,10,60,80]}]`}},
	}
)

// fuzzRoutesServer is the whole service on one SQLite record, set up as a
// tournament is: a calibrated table with a camera, game G1 at it, record
// 1, tournament T1, and a tile set (its id is the second answer) taught
// by a fake teacher.
func fuzzRoutesServer(f *testing.F) (*Server, string) {
	frames := map[string][]byte{}
	for _, name := range []string{"table-empty.jpg", "table-hand-south.jpg"} {
		data, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		frames[name] = data
	}
	var mu sync.Mutex
	frame := "table-empty.jpg"
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(frames[frame])
	}))
	f.Cleanup(cam.Close)

	cfg := DefaultConfig()
	cfg.BodyLimit = 256 << 10
	cfg.Queue = 1 << 10
	fake := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}, model: "fuzz"}
	s, err := New(cfg, Deps{Version: "fuzz", Recognizer: fake})
	if err != nil {
		f.Fatal(err)
	}
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(f.TempDir(), "referee.db")})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		f.Fatal(err)
	}
	if err := s.UseTileSets(store, testOrganizerToken); err != nil {
		f.Fatal(err)
	}
	setup := func(path, token, body string, want int) {
		rec := serveDirect(s, jsonRequest(path, token, body))
		if rec.Code != want {
			f.Fatalf("setting up, %s: %d %s", path, rec.Code, rec.Body.Bytes())
		}
	}
	rec := serveDirect(s, teachingRequest("/v1/tile-sets", pngOf(200, 100), []byte("1m 10 10 60 80\n2m 70 10 120 80")))
	var set struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &set); rec.Code != 201 || err != nil {
		f.Fatalf("setting up, a tile set: %d %s", rec.Code, rec.Body.Bytes())
	}
	setup("/v1/tables", testOrganizerToken, `{"table":"table 1","snapshot_url":"`+cam.URL+`/snapshot.jpg"}`, 201)
	setup("/v1/tables/table%201/calibrate", testOrganizerToken, "", 200)
	mu.Lock()
	frame = "table-hand-south.jpg"
	mu.Unlock()
	setup("/v1/games", testOrganizerToken, strings.ReplaceAll(gameBody, "Q1", "G1"), 201)
	setup("/v1/records", testRefereeToken, strings.ReplaceAll(recordBody, "Q1", "G1"), 201)
	setup("/v1/tournaments", testOrganizerToken, `{"id":"T1","entrants":["Aiko","Ben","Chloe","Dev"]}`, 201)
	return s, set.ID
}

func jsonRequest(path, token, body string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// teachingRequest sends labels beside a small photo, as a teaching upload.
func teachingRequest(path string, photo []byte, labels []byte) *http.Request {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("photo", "tiles.png")
	w.Write(photo)
	lw, _ := mw.CreateFormField("labels")
	lw.Write(labels)
	mw.Close()
	req := httptest.NewRequest(http.MethodPost, path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

// wellFormed fails unless the answer is a 2xx in JSON or a 4xx RFC 9457
// problem: type urn:mjscan:problem:CODE, a title, the status, a detail in
// a player's words and the code. A 5xx is a failure whatever its body.
func wellFormed(t *testing.T, route string, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.Bytes()
	if rec.Code >= 200 && rec.Code < 300 {
		if !json.Valid(body) {
			t.Fatalf("%s: %d with a body that is not JSON: %q", route, rec.Code, body)
		}
		return
	}
	if rec.Code < 400 || rec.Code >= 500 {
		t.Fatalf("%s: status %d: %s", route, rec.Code, body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%s: %d as %q, not application/problem+json: %s", route, rec.Code, ct, body)
	}
	var p struct {
		Type, Title, Detail, Code string
		Status                    int
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("%s: %d problem is not a JSON object: %q", route, rec.Code, body)
	}
	if p.Code == "" || p.Type != "urn:mjscan:problem:"+p.Code || p.Title == "" || p.Detail == "" || p.Status != rec.Code {
		t.Fatalf("%s: %d: a problem needs type urn:mjscan:problem:CODE, title, detail, code and its status: %s", route, rec.Code, body)
	}
	for _, bad := range internals {
		if strings.Contains(p.Title, bad) || strings.Contains(p.Detail, bad) {
			t.Fatalf("%s: %d problem shows Go internals (%q): %s", route, rec.Code, bad, body)
		}
	}
}

// fuzzJSONRoutes sends any body to routes that read JSON: each answer is
// a 2xx or a well-formed problem, never a 5xx or a panic. The fuzzer
// picks the route too.
func fuzzJSONRoutes(f *testing.F, routes []jsonRoute) {
	for i, r := range routes {
		for _, seed := range r.seeds {
			f.Add(uint8(i), []byte(seed))
		}
		f.Add(uint8(i), []byte(`{}`))
		f.Add(uint8(i), []byte(`null`))
		f.Add(uint8(i), []byte(`{"id":1e400}`))
	}
	s, set := fuzzRoutesServer(f)
	photo := pngOf(200, 100)
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		r := routes[int(which)%len(routes)]
		path := strings.ReplaceAll(r.path, "{set}", set)
		var req *http.Request
		if r.labels {
			req = teachingRequest(path, photo, body)
		} else {
			req = jsonRequest(path, r.token, string(body))
			req.Header.Set("Content-Type", "application/json")
		}
		wellFormed(t, r.path, serveDirect(s, req))
	})
}

// FuzzPathIDs puts any id in the path of the routes that name a game, a
// table, a record or a hand: each answer is a 2xx or a well-formed
// problem (a NUL in an id answered 500 on PostgreSQL:
// TestPathIDsWithControlCharacters runs those seeds on both stores).
func FuzzPathIDs(f *testing.F) {
	for _, seed := range []string{"G1", "table 1", "1", "0", "-1", "99999999999999999999", "\x00", "G\x001", "\xff\xfe", "\x1b[31m",
		"../../etc/passwd", "tournament:T1", strings.Repeat("x", 300), "🀄"} {
		f.Add(seed)
	}
	s, _ := fuzzRoutesServer(f)
	f.Fuzz(func(t *testing.T, id string) {
		e := url.PathEscape(id)
		for _, r := range []struct{ method, path, token, body string }{
			{http.MethodGet, "/v1/games/" + e, testRefereeToken, ""},
			{http.MethodPost, "/v1/games/G1/hands/" + e + "/correct", testRefereeToken, `{"outcome":"draw"}`},
			{http.MethodPost, "/v1/games/" + e + "/hands/1/correct", testRefereeToken, `{"outcome":"draw"}`},
			{http.MethodGet, "/v1/tables/" + e, testOrganizerToken, ""},
			{http.MethodGet, "/v1/tables/" + e + "/frame", testOrganizerToken, ""},
			{http.MethodGet, "/v1/tournaments/" + e, testOrganizerToken, ""},
			{http.MethodPost, "/v1/tournaments/" + e + "/penalties", testOrganizerToken, `{"player":"Aiko","points":-1,"reason":"x"}`},
			{http.MethodGet, "/v1/records/" + e, testRefereeToken, ""},
			{http.MethodGet, "/v1/records/" + e + "/photo", testRefereeToken, ""},
			{http.MethodPost, "/v1/records/" + e + "/confirm", testRefereeToken, `{}`},
		} {
			req := jsonRequest(r.path, r.token, r.body)
			req.Method = r.method
			rec := serveDirect(s, req)
			if rec.Code == http.StatusOK && strings.HasPrefix(rec.Header().Get("Content-Type"), "image/") {
				continue // the camera's frame itself
			}
			wellFormed(t, r.method+" "+r.path, rec)
		}
	})
}

// FuzzAuthorization sends any Authorization header to a route each role
// may call: each answer is a 2xx or a well-formed problem, never a crash.
// (A made-up table token waits for a look through the games' logs, up to
// tokenLookGap: this target runs a few inputs a second.)
func FuzzAuthorization(f *testing.F) {
	for _, seed := range []string{"", "Bearer", "Bearer ", "bearer " + testRefereeToken, "BEARER  " + testOrganizerToken + " ",
		"Basic " + testRefereeToken, "Bearer " + testRefereeToken + "\x00", "Bearer table-", "Bearer \xff\xfe", "Bearer " + strings.Repeat("x", 5000),
		"Bearer a b c", "\tBearer\t" + testRefereeToken} {
		f.Add(seed)
	}
	s, _ := fuzzRoutesServer(f)
	f.Fuzz(func(t *testing.T, header string) {
		for _, path := range []string{"/v1/games/G1", "/v1/standings", "/v1/tile-sets"} {
			req := jsonRequest(path, "", "")
			req.Method = http.MethodGet
			req.Header.Set("Authorization", header)
			wellFormed(t, "GET "+path+" with "+strconv.Quote(header), serveDirect(s, req))
		}
	})
}

// The fuzz targets of the JSON routes, one per resource.
func FuzzGameJSON(f *testing.F)       { fuzzJSONRoutes(f, gameRoutes) }
func FuzzRecordJSON(f *testing.F)     { fuzzJSONRoutes(f, recordRoutes) }
func FuzzTournamentJSON(f *testing.F) { fuzzJSONRoutes(f, tournamentRoutesFuzzed) }
func FuzzTableJSON(f *testing.F)      { fuzzJSONRoutes(f, tableRoutes) }
func FuzzHandJSON(f *testing.F)       { fuzzJSONRoutes(f, handRoutes) }
func FuzzTileSetLabels(f *testing.F)  { fuzzJSONRoutes(f, tileSetRoutes) }

// TestEveryJSONRouteFuzzed: every route that takes a body is fuzzed, by
// the targets above or by its own (scores, verify, the photo uploads), so
// a new route cannot go unfuzzed.
func TestEveryJSONRouteFuzzed(t *testing.T) {
	s, err := New(DefaultConfig(), Deps{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	store := mountOnSQLite(t, s)
	if err := s.UseTileSets(store, ""); err != nil {
		t.Fatal(err)
	}
	fuzzed := map[string]string{
		"/v1/scores": "FuzzScoresHandler", "/v1/verify": "FuzzVerifyHandler",
		"/v1/recognitions": "FuzzUploadHandler", "/v1/snap-and-score": "FuzzUploadHandler",
		// These take no body.
		"/v1/games/:id/end": "-", "/v1/tables/:table/calibrate": "-",
	}
	param := strings.NewReplacer("G1/hands/1/", ":id/hands/:number/", "G1", ":id", "T1", ":id", "table%201", ":table", "/1/", "/:id/", "{set}", ":id")
	for _, group := range [][]jsonRoute{gameRoutes, recordRoutes, tournamentRoutesFuzzed, tableRoutes, handRoutes, tileSetRoutes} {
		for _, r := range group {
			fuzzed[param.Replace(r.path)] = "fuzzJSONRoutes"
		}
	}
	for _, r := range s.echo.Routes() {
		if r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch {
			continue
		}
		if fuzzed[r.Path] == "" {
			t.Errorf("%s %s takes a body and no fuzz target sends it one", r.Method, r.Path)
		}
	}
}
