package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"mjscan/referee"
)

const (
	testRefereeToken   = "referee-token-0123456789"
	testOrganizerToken = "organizer-token-0123456789"
)

func newTournamentServer(t *testing.T) *httptest.Server {
	t.Helper()
	s, err := New(DefaultConfig(), Deps{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func call(t *testing.T, method, url, token, body string) *answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

const (
	gameBody   = `{"id":"Q1","table":"table 1","rules":"msmc-2016","players":["Aiko","Ben","Chloe","Dev"]}`
	handBody   = `{"outcome":"win","player":1,"from":2,"riichi":[1],"hand":{"hand":"234m234p234s678s55p","win_tile":"8s"}}`
	recordBody = `{"table":"table 1","game":"Q1","hand":1,"asked_by":"player:Ben","engine_version":"test","rule_set":"riichi/msmc-2016","claimed":"8000","ruling":"8,000 to Ben"}`
)

// TestBearerSchemeAnyCase: the scheme's name is case-insensitive (RFC
// 9110, section 11.1), so a client that sends "bearer" is let in as one
// that sends "Bearer"; a header without a token, or of another scheme, is
// still refused as no token at all.
func TestBearerSchemeAnyCase(t *testing.T) {
	ts := newTournamentServer(t)
	send := func(header string) *answer {
		req, _ := http.NewRequest("POST", ts.URL+"/v1/games", strings.NewReader(gameBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", header)
		return do(t, req)
	}
	// The first creates the game; the others are let in and told it
	// exists already.
	for i, h := range []string{"bearer " + testOrganizerToken, "BEARER " + testOrganizerToken, " Bearer   " + testOrganizerToken + " "} {
		want := http.StatusConflict
		if i == 0 {
			want = http.StatusCreated
		}
		if a := send(h); a.status != want {
			t.Errorf("%q: %d, want %d: %s", h, a.status, want, a.body)
		}
	}
	for _, h := range []string{"Bearer", "Bearer ", "Basic " + testOrganizerToken, "Bearer" + testOrganizerToken, testOrganizerToken} {
		wantProblem(t, send(h), 401, codeUnauthorized)
	}
	// The organiser's list of tile sets reads the header the same way.
	req, _ := http.NewRequest("GET", ts.URL+"/v1/tile-sets", nil)
	req.Header.Set("Authorization", "bearer "+testOrganizerToken)
	if a := do(t, req); a.status == 401 {
		t.Errorf("tile sets with a lower-case scheme: %d %s", a.status, a.body)
	}
}

// TestTournamentAuthorization: referee and organiser actions are refused
// without their token (401) and with the wrong one (403); a table sees its
// own game and records only.
func TestTournamentAuthorization(t *testing.T) {
	ts := newTournamentServer(t)
	u := ts.URL

	// Organiser actions.
	wantProblem(t, call(t, "POST", u+"/v1/games", "", gameBody), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/games", "not-a-token-at-all", gameBody), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/games", testRefereeToken, gameBody), 403, codeForbidden)
	a := call(t, "POST", u+"/v1/games", testOrganizerToken, gameBody)
	if a.status != 201 {
		t.Fatalf("organiser creating a game: %d %s", a.status, a.body)
	}
	table := a.str("table_token")
	if !strings.HasPrefix(table, "table-") {
		t.Fatalf("no table token: %s", a.body)
	}
	other := call(t, "POST", u+"/v1/games", testOrganizerToken, strings.ReplaceAll(strings.ReplaceAll(gameBody, "Q1", "Q2"), "table 1", "table 2")).str("table_token")

	// Staff actions: recording a hand, by the referee or the organiser
	// (the organiser desk enters hands on its own token); never by a table.
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", "", handBody), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", table, handBody), 403, codeForbidden)
	a = call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, handBody)
	if a.status != 201 || fmt.Sprint(a.json["scores"]) != "[25000 33000 17000 25000]" {
		t.Fatalf("referee recording a hand: %d %s", a.status, a.body)
	}
	a = call(t, "POST", u+"/v1/games/Q2/hands", testOrganizerToken, strings.Replace(handBody, `"riichi":[1],`, "", 1))
	if a.status != 201 || fmt.Sprint(a.json["scores"]) != "[25000 32700 17300 25000]" {
		t.Fatalf("organiser recording a hand: %d %s", a.status, a.body)
	}
	wantProblem(t, call(t, "POST", u+"/v1/games/Q2/hands/1/correct", table, `{"outcome":"draw","tenpai":[0]}`), 403, codeForbidden)
	a = call(t, "POST", u+"/v1/games/Q2/hands/1/correct", testOrganizerToken, `{"outcome":"draw","tenpai":[0]}`)
	if a.status != 200 || fmt.Sprint(a.json["scores"]) != "[28000 24000 24000 24000]" {
		t.Fatalf("organiser correcting a hand: %d %s", a.status, a.body)
	}
	// A hand the engine refuses is a problem with the engine's code.
	bad := `{"outcome":"win","player":0,"from":1,"hand":{"hand":"456p789s123s99p","win_tile":"1s","melds":[{"type":"chi","tiles":"123m","from":"left"}]}}`
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, bad), 422, "no_yaku")

	// Reading a game: staff, and its own table only.
	if a := call(t, "GET", u+"/v1/games/Q1", table, ""); a.status != 200 {
		t.Fatalf("table reading its game: %d %s", a.status, a.body)
	}
	wantProblem(t, call(t, "GET", u+"/v1/games/Q1", other, ""), 404, codeNotFound)
	wantProblem(t, call(t, "GET", u+"/v1/games/Q1", "", ""), 401, codeUnauthorized)
	if a := call(t, "GET", u+"/v1/games/Q1/mjai", table, ""); a.status != 200 || !strings.Contains(string(a.body), `"type":"hora"`) {
		t.Fatalf("MJAI: %d %s", a.status, a.body)
	}

	// Referee records.
	wantProblem(t, call(t, "POST", u+"/v1/records", "", recordBody), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/records", table, recordBody), 403, codeForbidden)
	if a := call(t, "POST", u+"/v1/records", testOrganizerToken, recordBody); a.status != 403 || a.str("detail") != "an organizer token may not do this; ask the referee" {
		t.Errorf("the organiser appending a referee record: %d %s", a.status, a.body)
	}
	a = call(t, "POST", u+"/v1/records", testRefereeToken, recordBody)
	if a.status != 201 {
		t.Fatalf("referee record: %d %s", a.status, a.body)
	}
	id := int(a.json["record"].(map[string]any)["id"].(float64))
	if a := call(t, "POST", u+"/v1/records", testRefereeToken, strings.NewReplacer("table 1", "table 2", "Q1", "Q2").Replace(recordBody)); a.status != 201 {
		t.Fatalf("table 2's record: %d %s", a.status, a.body)
	}

	over := `{"table":"table 1","asked_by":"player:Chloe","engine_version":"test","rule_set":"riichi/msmc-2016","ruling":"upheld on review"}`
	path := fmt.Sprintf("%s/v1/records/%d/overturn", u, id)
	wantProblem(t, call(t, "POST", path, "", over), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", path, table, over), 403, codeForbidden)
	if a := call(t, "POST", path, testRefereeToken, over); a.status != 201 {
		t.Fatalf("overturn: %d %s", a.status, a.body)
	}
	wantProblem(t, call(t, "POST", path, testRefereeToken, over), 409, "bad_request")

	// A table lists its own records only, and cannot ask for another's.
	a = call(t, "GET", u+"/v1/records", table, "")
	if n := len(a.json["records"].([]any)); a.status != 200 || n != 2 {
		t.Fatalf("table 1 sees %d records: %s", n, a.body)
	}
	wantProblem(t, call(t, "GET", u+"/v1/records?table=table+2", table, ""), 403, codeForbidden)
	a = call(t, "GET", fmt.Sprintf("%s/v1/records/%d", u, id), table, "")
	if a.status != 200 || a.json["in_force"].(map[string]any)["ruling"] != "upheld on review" {
		t.Fatalf("record with its ruling in force: %d %s", a.status, a.body)
	}
	wantProblem(t, call(t, "GET", fmt.Sprintf("%s/v1/records/%d", u, id), other, ""), 404, codeNotFound)
	if a := call(t, "GET", u+"/v1/records", testOrganizerToken, ""); len(a.json["records"].([]any)) != 3 {
		t.Fatalf("the organiser sees every record: %s", a.body)
	}

	// Ending a game and the standings: organiser only.
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/end", testRefereeToken, ""), 403, codeForbidden)
	wantProblem(t, call(t, "GET", u+"/v1/standings", table, ""), 403, codeForbidden)
	if a := call(t, "POST", u+"/v1/games/Q1/end", testOrganizerToken, ""); a.status != 200 {
		t.Fatalf("end: %d %s", a.status, a.body)
	}
	a = call(t, "GET", u+"/v1/standings?games=Q1&format=csv", testOrganizerToken, "")
	// Ben 33,000: (3,000 + 20,000) / 1,000 + 20 = 43.
	if a.status != 200 || !strings.HasPrefix(string(a.body), "rank,player") || !strings.Contains(string(a.body), "1,Ben,,Q1,43,") {
		t.Fatalf("standings CSV: %d\n%s", a.status, a.body)
	}
}

func TestTournamentConfig(t *testing.T) {
	env := map[string]string{EnvRefereeToken: "short", EnvOrganizerToken: ""}
	_, err := LoadTournamentConfig(func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), EnvRefereeToken) || !strings.Contains(err.Error(), EnvOrganizerToken) {
		t.Fatalf("both token problems at once: %v", err)
	}
	env = map[string]string{EnvRefereeToken: testRefereeToken, EnvOrganizerToken: testRefereeToken}
	if _, err := LoadTournamentConfig(func(k string) string { return env[k] }); err == nil {
		t.Fatal("equal tokens accepted")
	}
}

// TestTableCamera: the organiser registers and calibrates a table camera;
// "score now" takes a snapshot, reads the seat's hand, scores it and puts
// the proposal in the referee record with the photo's hash.
func TestTableCamera(t *testing.T) {
	var mu sync.Mutex
	current := "empty"
	frames := map[string][]byte{}
	for name, file := range map[string]string{"empty": "table-empty.jpg", "hand": "table-hand-south.jpg"} {
		data, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		frames[name] = data
	}
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(frames[current])
	}))
	defer cam.Close()

	s, err := New(DefaultConfig(), Deps{Version: "test", Recognizer: shippedRecognizer{shippedModels(t)}})
	if err != nil {
		t.Fatal(err)
	}
	mountOnSQLite(t, s)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	u := ts.URL

	table := `{"table":"table 1","snapshot_url":"` + cam.URL + `/snapshot.jpg"}`
	wantProblem(t, call(t, "POST", u+"/v1/tables", "", table), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/tables", testRefereeToken, table), 403, codeForbidden)
	if a := call(t, "POST", u+"/v1/tables", testOrganizerToken, table); a.status != 201 {
		t.Fatalf("register: %d %s", a.status, a.body)
	}
	wantProblem(t, call(t, "POST", u+"/v1/tables/table%201/calibrate", testRefereeToken, ""), 403, codeForbidden)
	wantProblem(t, call(t, "POST", u+"/v1/tables/table%201/score-now", testRefereeToken, `{"seat":"S","request":{"rules":"riichi"}}`), 409, "bad_request")
	a := call(t, "POST", u+"/v1/tables/table%201/calibrate", testOrganizerToken, "")
	if a.status != 200 || a.json["table"].(map[string]any)["calibration"] == nil {
		t.Fatalf("calibrate: %d %s", a.status, a.body)
	}

	own := call(t, "POST", u+"/v1/games", testOrganizerToken, gameBody).str("table_token")
	other := call(t, "POST", u+"/v1/games", testOrganizerToken, strings.ReplaceAll(strings.ReplaceAll(gameBody, "Q1", "Q2"), "table 1", "table 2")).str("table_token")

	mu.Lock()
	current = "hand"
	mu.Unlock()
	body := `{"seat":"S","game":"Q1","hand":1,"request":{"rules":"riichi","round_wind":"E"}}`
	wantProblem(t, call(t, "POST", u+"/v1/tables/table%201/score-now", "", body), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/tables/table%201/score-now", other, body), 404, codeNotFound)
	a = call(t, "POST", u+"/v1/tables/table%201/score-now", own, body)
	if a.status != 200 {
		t.Fatalf("score now: %d %s", a.status, a.body)
	}
	result := a.json["proposal"].(map[string]any)["result"].(map[string]any)
	// The shipped models read South's 234678s 777z 222z 44z (4z last, the
	// winning tile): honitsu 3 + South's wind 1 + chun 1 = 5 han, 8,000.
	if result["han"] != float64(5) || result["points"].(map[string]any)["total"] != float64(8000) {
		t.Fatalf("proposed score %v", result)
	}
	rec := a.json["record"].(map[string]any)
	sum := sha256.Sum256(frames["hand"])
	if rec["photo_sha256"] != hex.EncodeToString(sum[:]) || rec["asked_by"] != "table table 1" || rec["table"] != "table 1" {
		t.Fatalf("referee record %v", rec)
	}
	// The record kept the photo itself (the table did not opt out); it
	// comes on its own route.
	got := call(t, "GET", fmt.Sprintf("%s/v1/records/%d/photo", u, int(rec["id"].(float64))), testRefereeToken, "")
	if got.status != 200 || string(got.body) != string(frames["hand"]) {
		t.Fatalf("the photo was not kept: %d %.200s", got.status, got.body)
	}
	// The organiser scores now on its own token too (the organiser desk),
	// and is named as who asked.
	a = call(t, "POST", u+"/v1/tables/table%201/score-now", testOrganizerToken, body)
	if a.status != 200 || a.json["record"].(map[string]any)["asked_by"] != "organizer" {
		t.Fatalf("the organiser scoring now: %d %s", a.status, a.body)
	}
}

// TestTournamentOverHTTP: four entrants go straight to three final games;
// the organiser adds the games and a penalty; the standings and the winner
// follow, and survive a restart of the service on the same record.
func TestTournamentOverHTTP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	start := func() (*httptest.Server, *referee.Store) {
		s, err := New(DefaultConfig(), Deps{Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		store, err := referee.Open(context.Background(), referee.Config{SQLitePath: path})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
			t.Fatal(err)
		}
		return httptest.NewServer(s.Handler()), store
	}
	ts, store := start()
	u := ts.URL
	tour := `{"id":"april","entrants":["Aiko","Ben","Chloe","Dev"]}`
	wantProblem(t, call(t, "POST", u+"/v1/tournaments", "", tour), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/tournaments", testRefereeToken, tour), 403, codeForbidden)
	if a := call(t, "POST", u+"/v1/tournaments", testOrganizerToken, tour); a.status != 201 {
		t.Fatalf("tournament: %d %s", a.status, a.body)
	}
	// Three final games; in each, seat 1 takes a dama ron of 7,700 off
	// seat 2 and the game is ended.
	seatings := [][4]string{{"Aiko", "Ben", "Chloe", "Dev"}, {"Ben", "Chloe", "Dev", "Aiko"}, {"Chloe", "Aiko", "Ben", "Dev"}}
	for i, seats := range seatings {
		id := fmt.Sprintf("F%d", i+1)
		players, _ := json.Marshal(seats)
		table := call(t, "POST", u+"/v1/games", testOrganizerToken, `{"id":"`+id+`","table":"final","rules":"msmc-2016","players":`+string(players)+`}`).str("table_token")
		if a := call(t, "POST", u+"/v1/games/"+id+"/hands", testRefereeToken, `{"outcome":"win","player":1,"from":2,"hand":{"hand":"234m234p234s678s55p","win_tile":"8s"}}`); a.status != 201 {
			t.Fatalf("hand: %d %s", a.status, a.body)
		}
		add := `{"stage":"final","game":"` + id + `"}`
		wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/games", table, add), 403, codeForbidden)
		if a := call(t, "POST", u+"/v1/tournaments/april/games", testOrganizerToken, add); a.status != 200 {
			t.Fatalf("add %s: %d %s", id, a.status, a.body)
		}
	}
	wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/games", testOrganizerToken, `{"stage":"final","game":"F1"}`), 409, "bad_request")
	pen := `{"player":"Ben","points":2,"reason":"dropped a tile"}`
	wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/penalties", testRefereeToken, pen), 403, codeForbidden)
	if a := call(t, "POST", u+"/v1/tournaments/april/penalties", testOrganizerToken, pen); a.status != 201 {
		t.Fatalf("penalty: %d %s", a.status, a.body)
	}
	// Each game: the winner 32,700 → (2,700+20,000)/1000 + 20 = 42; the
	// two at 25,000 → −5, then +10 for the earlier seat and −10 for the
	// later; the discarder 17,300 → −12 −20 = −32.
	//   F1 Aiko 5, Ben 42, Chloe −32, Dev −15
	//   F2 Ben 5, Chloe 42, Dev −32, Aiko −15
	//   F3 Chloe 5, Aiko 42, Ben −32, Dev −15
	check := func(u string) {
		a := call(t, "GET", u+"/v1/tournaments/april?format=csv", testOrganizerToken, "")
		lines := strings.Split(strings.TrimSpace(string(a.body)), "\n")
		var got []string
		for _, l := range lines[1:] {
			f := strings.Split(l, ",")
			got = append(got, f[1]+" "+f[7])
		}
		// Aiko 5−15+42 = 32, Chloe −32+42+5 = 15, Ben 42+5−32−2 = 13,
		// Dev −15−32−15 = −62.
		if strings.Join(got, ", ") != "Aiko 32, Chloe 15, Ben 13, Dev -62" {
			t.Fatalf("standings %v\n%s", got, a.body)
		}
		a = call(t, "GET", u+"/v1/tournaments/april", testRefereeToken, "")
		if a.str("winner") != "Aiko" {
			t.Fatalf("winner: %s", a.body)
		}
	}
	check(u)
	wantProblem(t, call(t, "GET", u+"/v1/tournaments/april", "", ""), 401, codeUnauthorized)
	ts.Close()
	store.Close()
	ts, store = start()
	defer ts.Close()
	defer store.Close()
	check(ts.URL)
}
