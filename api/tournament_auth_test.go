package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
	"mjscan/vision"
)

// tourBackends runs f on a fresh SQLite record, and on PostgreSQL when
// MJSCAN_TEST_POSTGRES_DSN is set.
func tourBackends(t *testing.T, f func(t *testing.T, c referee.Config)) {
	t.Run("sqlite", func(t *testing.T) {
		f(t, referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")})
	})
	if dsn := os.Getenv("MJSCAN_TEST_POSTGRES_DSN"); dsn != "" {
		t.Run("postgres", func(t *testing.T) { f(t, pgTestSchema(t, dsn)) })
	} else {
		t.Log("MJSCAN_TEST_POSTGRES_DSN is not set: PostgreSQL not tested here (scripts/postgres-test.sh starts one)")
	}
}

// tourService is the service with its tournament routes on one record; it
// can be restarted on the same record.
type tourService struct {
	t     *testing.T
	c     referee.Config
	rec   Recognizer
	ts    *httptest.Server
	store *referee.Store
	u     string
}

func startTourService(t *testing.T, c referee.Config, rec Recognizer) *tourService {
	s := &tourService{t: t, c: c, rec: rec}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *tourService) start() {
	s.t.Helper()
	srv, err := New(DefaultConfig(), Deps{Version: "test", Recognizer: s.rec})
	if err != nil {
		s.t.Fatal(err)
	}
	s.store, err = referee.Open(context.Background(), s.c)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := srv.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, s.store); err != nil {
		s.t.Fatal(err)
	}
	s.ts = httptest.NewServer(srv.Handler())
	s.u = s.ts.URL
}

func (s *tourService) stop() {
	if s.ts != nil {
		s.ts.Close()
		s.store.Close()
		s.ts = nil
	}
}

func (s *tourService) restart() {
	s.t.Helper()
	s.stop()
	s.start()
}

func (s *tourService) call(method, path, token, body string) *answer {
	s.t.Helper()
	return call(s.t, method, s.u+path, token, body)
}

// newGameAt starts a game and returns its table token.
func (s *tourService) newGameAt(id, table, rules string) string {
	s.t.Helper()
	a := s.call("POST", "/v1/games", testOrganizerToken, fmt.Sprintf(`{"id":%q,"table":%q,"rules":%q,"players":["Aiko","Ben","Chloe","Dev"]}`, id, table, rules))
	if a.status != 201 {
		s.t.Fatalf("game %s: %d %s", id, a.status, a.body)
	}
	return a.str("table_token")
}

// fixedHandReader reads the same hand from every seat.
type fixedHandReader struct{}

func (fixedHandReader) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	return &vision.Recognition{OK: true, Hand: &scoring.Request{Hand: "234m234p234s678s55p", WinTile: "8s"}}, nil
}

// tourCameraTables registers tables 1 and 2 with a camera showing the empty
// test table, and calibrates table 1.
func tourCameraTables(t *testing.T, s *tourService) {
	t.Helper()
	frame, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", "table-empty.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(frame)
	}))
	t.Cleanup(cam.Close)
	for _, table := range []string{"table 1", "table 2"} {
		if a := s.call("POST", "/v1/tables", testOrganizerToken, `{"table":"`+table+`","snapshot_url":"`+cam.URL+`/snap.jpg"}`); a.status != 201 {
			t.Fatalf("register %s: %d %s", table, a.status, a.body)
		}
	}
	if a := s.call("POST", "/v1/tables/table%201/calibrate", testOrganizerToken, ""); a.status != 200 {
		t.Fatalf("calibrate: %d %s", a.status, a.body)
	}
}

func tourRecords(t *testing.T, s *tourService, token string) []map[string]any {
	t.Helper()
	a := s.call("GET", "/v1/records", token, "")
	if a.status != 200 {
		t.Fatalf("records: %d %s", a.status, a.body)
	}
	var out []map[string]any
	for _, r := range a.json["records"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// sameTourProblem checks that two answers cannot be told apart: a table token
// must not learn whether something of another table exists.
func sameTourProblem(t *testing.T, what string, a, b *answer, status int) {
	t.Helper()
	wantProblem(t, a, status, b.str("code"))
	wantProblem(t, b, status, a.str("code"))
	for _, k := range []string{"type", "title", "detail", "code"} {
		if a.str(k) != b.str(k) {
			t.Errorf("%s: %s %q differs from %q: a table token tells them apart", what, k, a.str(k), b.str(k))
		}
	}
}

// TestScoreNowWhoAskedIsTheToken (#16 A7): a table token made referee
// records through score-now with asked_by "Head Referee (signed)", for
// another table's game, at hand 99. Who asked comes from the token, and
// the game and hand are the table's own: its game, the hand being played.
func TestScoreNowWhoAskedIsTheToken(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, s)
		own := s.newGameAt("Q1", "table 1", "msmc-2016")
		other := s.newGameAt("Q2", "table 2", "msmc-2016")
		const at = "/v1/tables/table%201/score-now"

		forged := s.call("POST", at, own, `{"seat":"S","asked_by":"Head Referee (signed)","game":"Q1","hand":1,"request":{"rules":"riichi"}}`)
		wantProblem(t, forged, 400, scoring.CodeBadRequest)
		if !strings.Contains(forged.str("detail"), "asked_by") {
			t.Errorf("the refusal does not say what to leave out: %s", forged.body)
		}
		// Another table's game is answered as a game that does not exist.
		sameTourProblem(t, "another table's game",
			s.call("POST", at, own, `{"seat":"S","game":"Q2","hand":1,"request":{"rules":"riichi"}}`),
			s.call("POST", at, own, `{"seat":"S","game":"nope","hand":1,"request":{"rules":"riichi"}}`), 404)
		wantProblem(t, s.call("POST", at, own, `{"seat":"S","game":"Q1","hand":99,"request":{"rules":"riichi"}}`), 409, scoring.CodeBadRequest)
		wantProblem(t, s.call("POST", at, own, `{"seat":"S","game":"Q1","hand":-1,"request":{"rules":"riichi"}}`), 409, scoring.CodeBadRequest)
		wantProblem(t, s.call("POST", at, own, `{"seat":"S","request":{"rules":"mcr"}}`), 400, scoring.CodeBadRequest)
		// Table 2's token works at table 2 only.
		wantProblem(t, s.call("POST", at, other, `{"seat":"S","request":{"rules":"riichi"}}`), 404, codeNotFound)

		// The table's own call: its game and the hand being played are
		// filled in, and who asked is the table.
		a := s.call("POST", at, own, `{"seat":"S","request":{"rules":"riichi"}}`)
		if a.status != 200 {
			t.Fatalf("score now: %d %s", a.status, a.body)
		}
		rec := a.json["record"].(map[string]any)
		if rec["asked_by"] != "table table 1" || rec["game"] != "Q1" || rec["hand"] != float64(1) || rec["table"] != "table 1" {
			t.Fatalf("record %v", rec)
		}
		if a := s.call("POST", at, own, `{"seat":"S","game":"Q1","hand":1,"request":{"rules":"riichi"}}`); a.status != 200 {
			t.Fatalf("naming its own game and hand: %d %s", a.status, a.body)
		}

		// The referee names any game of this table, or none; who asked is
		// the referee.
		wantProblem(t, s.call("POST", at, testRefereeToken, `{"seat":"S","game":"Q2","request":{"rules":"riichi"}}`), 404, codeNotFound)
		wantProblem(t, s.call("POST", at, testRefereeToken, `{"seat":"S","hand":3,"request":{"rules":"riichi"}}`), 400, scoring.CodeBadRequest)
		wantProblem(t, s.call("POST", at, testRefereeToken, `{"seat":"S","asked_by":"player:Ben","request":{"rules":"riichi"}}`), 400, scoring.CodeBadRequest)
		a = s.call("POST", at, testRefereeToken, `{"seat":"S","request":{"rules":"riichi"}}`)
		if a.status != 200 || a.json["record"].(map[string]any)["asked_by"] != "referee" {
			t.Fatalf("referee score now: %d %s", a.status, a.body)
		}

		// Once hand 1 is recorded, the table proposes hand 2, and hand 1
		// is refused.
		if a := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
			t.Fatalf("hand: %d %s", a.status, a.body)
		}
		wantProblem(t, s.call("POST", at, own, `{"seat":"S","game":"Q1","hand":1,"request":{"rules":"riichi"}}`), 409, scoring.CodeBadRequest)
		a = s.call("POST", at, own, `{"seat":"S","request":{"rules":"riichi","preset":"msmc-2016"}}`)
		if a.status != 200 || a.json["record"].(map[string]any)["hand"] != float64(2) {
			t.Fatalf("hand 2: %d %s", a.status, a.body)
		}

		// Only what was allowed reached the record.
		list := tourRecords(t, s, testOrganizerToken)
		if len(list) != 4 {
			t.Fatalf("%d records, want 4: %v", len(list), list)
		}
		for _, r := range list {
			if r["asked_by"] != "table table 1" && r["asked_by"] != "referee" || r["table"] != "table 1" || r["hand"] == float64(99) {
				t.Fatalf("a forged record was stored: %v", r)
			}
		}

		// A table cannot flood the record: the camera proposes a hand a
		// few times, then the referee takes over.
		for i := 1; ; i++ {
			a := s.call("POST", at, own, `{"seat":"S","request":{"rules":"riichi"}}`)
			if a.status == 429 {
				wantProblem(t, a, 429, codeTooManyProposals)
				if i != maxProposalsPerHand { // hand 2 had one proposal already
					t.Fatalf("refused at proposal %d, want %d", i+1, maxProposalsPerHand+1)
				}
				break
			}
			if a.status != 200 || i > maxProposalsPerHand {
				t.Fatalf("proposal %d: %d %s", i+1, a.status, a.body)
			}
		}
		if a := s.call("POST", at, testRefereeToken, `{"seat":"S","game":"Q1","request":{"rules":"riichi"}}`); a.status != 200 {
			t.Fatalf("the referee is not limited: %d %s", a.status, a.body)
		}
	})
}

// TestTableTokenLearnsNothingOfOtherTables (#16 A11): another table's game,
// record or table was answered 403 and a missing one 404, so a table token
// learned what exists elsewhere. Both answers are now the same.
func TestTableTokenLearnsNothingOfOtherTables(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		own := s.newGameAt("Q1", "table 1", "msmc-2016")
		s.newGameAt("Q2", "table 2", "msmc-2016")
		for _, table := range []string{"table 1", "table 2"} {
			if a := s.call("POST", "/v1/tables", testOrganizerToken, `{"table":"`+table+`","snapshot_url":"http://127.0.0.1:9/snap.jpg"}`); a.status != 201 {
				t.Fatalf("register %s: %d %s", table, a.status, a.body)
			}
		}
		a := s.call("POST", "/v1/records", testRefereeToken, strings.NewReplacer("table 1", "table 2", "Q1", "Q2").Replace(recordBody))
		if a.status != 201 {
			t.Fatalf("record: %d %s", a.status, a.body)
		}
		theirs := int(a.json["record"].(map[string]any)["id"].(float64))

		for _, pair := range [][2]string{
			{"GET /v1/games/Q2", "GET /v1/games/nope"},
			{"GET /v1/games/Q2/mjai", "GET /v1/games/nope/mjai"},
			{fmt.Sprintf("GET /v1/records/%d", theirs), "GET /v1/records/999999"},
			{"GET /v1/tables/table%202", "GET /v1/tables/nowhere"},
			{"POST /v1/tables/table%202/score-now", "POST /v1/tables/nowhere/score-now"},
		} {
			ask := func(req string) *answer {
				method, path, _ := strings.Cut(req, " ")
				body := ""
				if method == "POST" {
					body = `{"seat":"S","request":{"rules":"riichi"}}`
				}
				return s.call(method, path, own, body)
			}
			sameTourProblem(t, pair[0], ask(pair[0]), ask(pair[1]), 404)
		}
		// Staff still learn what is there.
		if a := s.call("GET", "/v1/games/Q2", testRefereeToken, ""); a.status != 200 {
			t.Fatalf("referee reading Q2: %d %s", a.status, a.body)
		}
	})
}

// TestOverturnStaysAtItsTable (#16 A11): an overturn named another table,
// game or hand than the record it overturns, and so moved the decision to
// another table's record. It keeps the overturned record's place.
func TestOverturnStaysAtItsTable(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		own := s.newGameAt("Q1", "table 1", "msmc-2016")
		other := s.newGameAt("Q2", "table 2", "msmc-2016")
		a := s.call("POST", "/v1/records", testRefereeToken, recordBody)
		if a.status != 201 {
			t.Fatalf("record: %d %s", a.status, a.body)
		}
		id := int(a.json["record"].(map[string]any)["id"].(float64))
		path := fmt.Sprintf("/v1/records/%d/overturn", id)
		ruling := `"asked_by":"player:Chloe","rule_set":"riichi/msmc-2016","ruling":"upheld on review"`
		for _, place := range []string{`"table":"table 2",`, `"table":"table 1","game":"Q2",`, `"game":"Q1","hand":5,`} {
			wantProblem(t, s.call("POST", path, testRefereeToken, "{"+place+ruling+"}"), 400, scoring.CodeBadRequest)
		}
		if n := len(tourRecords(t, s, testOrganizerToken)); n != 1 {
			t.Fatalf("a refused overturn was stored: %d records", n)
		}
		a = s.call("POST", path, testRefereeToken, "{"+ruling+"}")
		if a.status != 201 {
			t.Fatalf("overturn: %d %s", a.status, a.body)
		}
		over := a.json["record"].(map[string]any)
		if over["table"] != "table 1" || over["game"] != "Q1" || over["hand"] != float64(1) {
			t.Fatalf("the overturn left its record's place: %v", over)
		}
		a = s.call("GET", fmt.Sprintf("/v1/records/%d", id), own, "")
		if a.status != 200 || a.json["in_force"].(map[string]any)["ruling"] != "upheld on review" {
			t.Fatalf("table 1 reading its record: %d %s", a.status, a.body)
		}
		if n := len(tourRecords(t, s, other)); n != 0 {
			t.Fatalf("table 2 sees %d of table 1's records", n)
		}
		if n := len(tourRecords(t, s, own)); n != 2 {
			t.Fatalf("table 1 sees %d records, want the record and its overturn", n)
		}
	})
}

// TestTableTokenIsItsGames (#16 A11): a table token saw every game and
// record of its table. It is its game's: it sees that game and its
// records only.
func TestTableTokenIsItsGames(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		first := s.newGameAt("Q1", "table 1", "msmc-2016")
		second := s.newGameAt("Q3", "table 1", "mcr")
		if a := s.call("POST", "/v1/records", testRefereeToken, strings.ReplaceAll(recordBody, "Q1", "Q3")); a.status != 201 {
			t.Fatalf("record: %d %s", a.status, a.body)
		}
		sameTourProblem(t, "the table's other game", s.call("GET", "/v1/games/Q3", first, ""), s.call("GET", "/v1/games/nope", first, ""), 404)
		if n := len(tourRecords(t, s, first)); n != 0 {
			t.Fatalf("Q1's token sees %d records of Q3", n)
		}
		wantProblem(t, s.call("GET", "/v1/records?game=Q3", first, ""), 403, codeForbidden)
		if n := len(tourRecords(t, s, second)); n != 1 {
			t.Fatalf("Q3's token sees %d records, want 1", n)
		}
	})
}

// TestTableTokenEndsWithItsGame (#16 A11): table tokens never expired. A
// table token stops working when its game ends (ended by the organiser, or
// over by itself), restarts included; the game's other readers go on.
func TestTableTokenEndsWithItsGame(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		first := s.newGameAt("Q1", "table 1", "msmc-2016")
		second := s.newGameAt("Q3", "table 1", "mcr")
		if a := s.call("GET", "/v1/games/Q1", first, ""); a.status != 200 {
			t.Fatalf("Q1's token: %d %s", a.status, a.body)
		}
		if a := s.call("POST", "/v1/games/Q1/end", testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("end: %d %s", a.status, a.body)
		}
		ended := func(token string) {
			t.Helper()
			a := s.call("GET", "/v1/games/Q1", token, "")
			wantProblem(t, a, 401, codeUnauthorized)
			if !strings.Contains(a.str("detail"), "over") {
				t.Errorf("the answer does not say the game is over: %s", a.body)
			}
			wantProblem(t, s.call("GET", "/v1/records", token, ""), 401, codeUnauthorized)
		}
		ended(first)
		if a := s.call("GET", "/v1/games/Q3", second, ""); a.status != 200 {
			t.Fatalf("Q3's token after Q1 ended: %d %s", a.status, a.body)
		}
		// An MCR game is over after 16 hands; its token ends with it.
		for h := 0; h < 16; h++ {
			if a := s.call("POST", "/v1/games/Q3/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
				t.Fatalf("hand %d: %d %s", h+1, a.status, a.body)
			}
		}
		wantProblem(t, s.call("GET", "/v1/games/Q3", second, ""), 401, codeUnauthorized)
		s.restart()
		ended(first)
		wantProblem(t, s.call("GET", "/v1/games/Q3", second, ""), 401, codeUnauthorized)
		if a := s.call("GET", "/v1/games/Q1", testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("the organiser reads an ended game: %d %s", a.status, a.body)
		}
	})
}

// TestPenaltyIsBounded (#16 A12): three penalties of 2^62 wrapped the
// total to +4.6e18 and ranked the player first. Penalties are refused
// outside 1..1000 points, and such a penalty already in a log is skipped
// when the tournament is loaded.
func TestPenaltyIsBounded(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		if a := s.call("POST", "/v1/tournaments", testOrganizerToken, `{"id":"april","entrants":["Aiko","Ben","Chloe","Dev"]}`); a.status != 201 {
			t.Fatalf("tournament: %d %s", a.status, a.body)
		}
		const path = "/v1/tournaments/april/penalties"
		for _, points := range []string{"4611686018427387904", "1001", "0", "-4611686018427387904"} {
			a := s.call("POST", path, testOrganizerToken, `{"player":"Ben","points":`+points+`,"reason":"dropped a tile"}`)
			wantProblem(t, a, 400, scoring.CodeBadRequest)
			if !strings.Contains(a.str("detail"), "1 to 1000") {
				t.Errorf("points %s: %q does not say what is allowed", points, a.str("detail"))
			}
		}
		if a := s.call("POST", path, testOrganizerToken, `{"player":"Ben","points":1e30,"reason":"x"}`); a.status != 400 {
			t.Fatalf("1e30 points: %d %s", a.status, a.body)
		}
		if a := s.call("POST", path, testOrganizerToken, `{"player":"Ben","points":2,"reason":"dropped a tile"}`); a.status != 201 {
			t.Fatalf("penalty: %d %s", a.status, a.body)
		}
		// Penalties written by an earlier version are checked on loading.
		for seq := 3; seq <= 5; seq++ {
			body := json.RawMessage(`{"player":"Ben","points":4611686018427387904,"reason":"old","stage":"final"}`)
			if _, err := s.store.AppendGameEvent(context.Background(), referee.GameEvent{Game: "tournament:april", Seq: seq, Kind: "penalty", By: "organizer", Body: body}); err != nil {
				t.Fatal(err)
			}
		}
		s.restart()
		a := s.call("GET", "/v1/tournaments/april", testOrganizerToken, "")
		if a.status != 200 {
			t.Fatalf("tournament: %d %s", a.status, a.body)
		}
		pens, _ := a.json["tournament"].(map[string]any)["penalties"].([]any)
		if len(pens) != 1 || pens[0].(map[string]any)["points"] != float64(2) {
			t.Fatalf("penalties after the restart: %v, want the one of 2 points", pens)
		}
	})
}

// TestGameSeatsFourPlayers (#16 A12): a game of five players was accepted
// and the fifth silently dropped.
func TestGameSeatsFourPlayers(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		for _, players := range []string{`["a","b","c","d","e"]`, `["a","b","c"]`, `[]`} {
			a := s.call("POST", "/v1/games", testOrganizerToken, `{"id":"Q5","table":"table 1","rules":"msmc-2016","players":`+players+`}`)
			wantProblem(t, a, 400, scoring.CodeBadRequest)
			if !strings.Contains(a.str("detail"), "four players") {
				t.Errorf("players %s: %q", players, a.str("detail"))
			}
		}
		s.restart()
		wantProblem(t, s.call("GET", "/v1/games/Q5", testOrganizerToken, ""), 404, codeNotFound)
	})
}

// TestIDsAreSafeOverHTTP (#16 A12): ids with '/' were accepted and could
// then never be reached, and 1 MB ids were accepted. Game, table and
// tournament ids keep to a charset that is one path segment and to 64
// characters; what is accepted can be reached, restarts included.
func TestIDsAreSafeOverHTTP(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		huge := strings.Repeat("x", 1<<20)
		quote := func(v string) string { b, _ := json.Marshal(v); return string(b) }
		refuse := func(what, path, body string) {
			t.Helper()
			token := testOrganizerToken
			if path == "/v1/records" {
				token = testRefereeToken
			}
			a := s.call("POST", path, token, body)
			wantProblem(t, a, 400, scoring.CodeBadRequest)
			if len(a.body) > 1000 {
				t.Errorf("%s: the answer is %d bytes: it repeats the id", what, len(a.body))
			}
		}
		for _, bad := range []string{"a/b", "../x", "a?b", "a%2Fb", ".x", huge} {
			what := fmt.Sprintf("%.12q", bad)
			refuse("game "+what, "/v1/games", `{"id":`+quote(bad)+`,"table":"table 1","rules":"msmc-2016","players":["a","b","c","d"]}`)
			refuse("game table "+what, "/v1/games", `{"id":"Q9","table":`+quote(bad)+`,"rules":"msmc-2016","players":["a","b","c","d"]}`)
			refuse("table "+what, "/v1/tables", `{"table":`+quote(bad)+`,"snapshot_url":"http://127.0.0.1:9/snap.jpg"}`)
			refuse("tournament "+what, "/v1/tournaments", `{"id":`+quote(bad)+`,"entrants":["a","b","c","d"]}`)
			refuse("record table "+what, "/v1/records", `{"table":`+quote(bad)+`,"asked_by":"referee","rule_set":"riichi","ruling":"ok"}`)
			refuse("record game "+what, "/v1/records", `{"table":"table 1","game":`+quote(bad)+`,"asked_by":"referee","rule_set":"riichi","ruling":"ok"}`)
		}
		refuse("player", "/v1/games", `{"id":"Q9","table":"table 1","rules":"msmc-2016","players":[`+quote(huge)+`,"b","c","d"]}`)
		refuse("entrant", "/v1/tournaments", `{"id":"t","entrants":[`+quote(huge)+`,"b","c","d"]}`)
		refuse("record asked_by", "/v1/records", `{"table":"table 1","asked_by":`+quote(huge)+`,"rule_set":"riichi","ruling":"ok"}`)
		if n := len(tourRecords(t, s, testOrganizerToken)); n != 0 {
			t.Fatalf("%d refused records were stored", n)
		}

		good := []string{"第一卓 2.b-c_d", strings.Repeat("g", tournament.MaxIDLen)}
		for _, id := range good {
			s.newGameAt(id, "Tisch 1", "msmc-2016")
		}
		if a := s.call("POST", "/v1/tables", testOrganizerToken, `{"table":"Tisch 1","snapshot_url":"http://127.0.0.1:9/snap.jpg"}`); a.status != 201 {
			t.Fatalf("table: %d %s", a.status, a.body)
		}
		s.restart()
		for _, id := range good {
			if a := s.call("GET", "/v1/games/"+url.PathEscape(id), testRefereeToken, ""); a.status != 200 || a.str("id") != id {
				t.Fatalf("game %q: %d %s", id, a.status, a.body)
			}
		}
		if a := s.call("GET", "/v1/tables/"+url.PathEscape("Tisch 1"), testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("table: %d %s", a.status, a.body)
		}
	})
}

// TestTableTokenGivenAgain: a table whose phone lost its token gets the
// same token again from the organiser (GET /v1/games/{id}/table-token),
// after a restart too; nobody else can ask for it, and a game that is
// over has none to give.
func TestTableTokenGivenAgain(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		token := s.newGameAt("Q1", "table 1", "msmc-2016")
		other := s.newGameAt("Q3", "table 2", "mcr")
		again := func() {
			t.Helper()
			a := s.call("GET", "/v1/games/Q1/table-token", testOrganizerToken, "")
			if a.status != 200 || a.str("table_token") != token || a.str("table") != "table 1" || a.str("game") != "Q1" {
				t.Fatalf("the table token again: %d %s", a.status, a.body)
			}
			if a := s.call("GET", "/v1/games/Q1", a.str("table_token"), ""); a.status != 200 {
				t.Fatalf("the token given again does not work: %d %s", a.status, a.body)
			}
		}
		again()
		wantProblem(t, s.call("GET", "/v1/games/Q1/table-token", "", ""), 401, codeUnauthorized)
		wantProblem(t, s.call("GET", "/v1/games/Q1/table-token", testRefereeToken, ""), 403, codeForbidden)
		wantProblem(t, s.call("GET", "/v1/games/Q1/table-token", token, ""), 403, codeForbidden)
		wantProblem(t, s.call("GET", "/v1/games/Q1/table-token", other, ""), 403, codeForbidden)
		wantProblem(t, s.call("GET", "/v1/games/nope/table-token", testOrganizerToken, ""), 404, codeNotFound)
		s.restart()
		again()
		if a := s.call("POST", "/v1/games/Q1/end", testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("end: %d %s", a.status, a.body)
		}
		a := s.call("GET", "/v1/games/Q1/table-token", testOrganizerToken, "")
		wantProblem(t, a, 409, scoring.CodeBadRequest)
		if !strings.Contains(a.str("detail"), "over") || strings.Contains(string(a.body), token) {
			t.Errorf("an ended game's token: %s", a.body)
		}
	})
}
