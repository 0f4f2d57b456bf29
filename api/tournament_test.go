package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
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

	// Referee actions: recording a hand.
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", "", handBody), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", table, handBody), 403, codeForbidden)
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", testOrganizerToken, handBody), 403, codeForbidden)
	a = call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, handBody)
	if a.status != 201 || fmt.Sprint(a.json["scores"]) != "[25000 33000 17000 25000]" {
		t.Fatalf("referee recording a hand: %d %s", a.status, a.body)
	}
	// A hand the engine refuses is a problem with the engine's code.
	bad := `{"outcome":"win","player":0,"from":1,"hand":{"hand":"456p789s123s99p","win_tile":"1s","melds":[{"type":"chi","tiles":"123m","from":"left"}]}}`
	wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, bad), 422, "no_yaku")

	// Reading a game: staff, and its own table only.
	if a := call(t, "GET", u+"/v1/games/Q1", table, ""); a.status != 200 {
		t.Fatalf("table reading its game: %d %s", a.status, a.body)
	}
	wantProblem(t, call(t, "GET", u+"/v1/games/Q1", other, ""), 403, codeForbidden)
	wantProblem(t, call(t, "GET", u+"/v1/games/Q1", "", ""), 401, codeUnauthorized)
	if a := call(t, "GET", u+"/v1/games/Q1/mjai", table, ""); a.status != 200 || !strings.Contains(string(a.body), `"type":"hora"`) {
		t.Fatalf("MJAI: %d %s", a.status, a.body)
	}

	// Referee records.
	wantProblem(t, call(t, "POST", u+"/v1/records", "", recordBody), 401, codeUnauthorized)
	wantProblem(t, call(t, "POST", u+"/v1/records", table, recordBody), 403, codeForbidden)
	a = call(t, "POST", u+"/v1/records", testRefereeToken, recordBody)
	if a.status != 201 {
		t.Fatalf("referee record: %d %s", a.status, a.body)
	}
	id := int(a.json["record"].(map[string]any)["id"].(float64))
	call(t, "POST", u+"/v1/records", testRefereeToken, strings.ReplaceAll(recordBody, "table 1", "table 2"))

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
	wantProblem(t, call(t, "GET", fmt.Sprintf("%s/v1/records/%d", u, id), other, ""), 403, codeForbidden)
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
