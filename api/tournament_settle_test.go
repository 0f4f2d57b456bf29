package api

import (
	"bytes"
	"database/sql"
	"strings"
	"testing"

	"mjscan/referee"
)

// TestUnloggedHandLeavesTheGame: a hand the game's log does not take is
// not recorded: the game answers byte for byte as before (no hand, no
// score moved, no riichi stick, not over), on both databases.
func TestUnloggedHandLeavesTheGame(t *testing.T) {
	for name, config := range recordBackends(t) {
		t.Run(name, func(t *testing.T) {
			c := config(t)
			svc := startTournament(t, c)
			u := svc.url
			if a := call(t, "POST", u+"/v1/games", testOrganizerToken, gameBody); a.status != 201 {
				t.Fatalf("game: %d %s", a.status, a.body)
			}
			// A riichi draw: a stick and a honba on the table.
			if a := call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw","tenpai":[0],"riichi":[0]}`); a.status != 201 {
				t.Fatalf("draw: %d %s", a.status, a.body)
			}
			before := call(t, "GET", u+"/v1/games/Q1", testOrganizerToken, "")
			// The database refuses the log's next entry, so the service's
			// write of the hand fails. (Another writer taking the entry
			// first no longer fails it: the hand is settled on the log as
			// the lock finds it.)
			refuseEntries(t, c)
			if a := call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, handBody); a.status < 500 {
				t.Fatalf("a hand its log refused: %d %s, want a 5xx", a.status, a.body)
			}
			after := call(t, "GET", u+"/v1/games/Q1", testOrganizerToken, "")
			if !bytes.Equal(before.body, after.body) {
				t.Fatalf("the unlogged hand changed the game:\nbefore %s\nafter  %s", before.body, after.body)
			}
		})
	}
}

// TestRefusedTournamentChangesLeaveEverything: a game the tournament
// refuses is neither ended nor added, a refused penalty is not kept; the
// game and the tournament answer byte for byte as before. An accepted
// penalty is kept with the stage it was given in.
func TestRefusedTournamentChangesLeaveEverything(t *testing.T) {
	ts := newTournamentServer(t)
	u := ts.URL
	if a := call(t, "POST", u+"/v1/tournaments", testOrganizerToken, `{"id":"april","entrants":["Aiko","Ben","Chloe","Dev","Eve","Fay"]}`); a.status != 201 {
		t.Fatalf("tournament: %d %s", a.status, a.body)
	}
	// The first qualifier game is for the first four of the draw; this
	// one seats Eve.
	wrong := `{"id":"Q9","table":"table 1","rules":"msmc-2016","players":["Aiko","Ben","Chloe","Eve"]}`
	if a := call(t, "POST", u+"/v1/games", testOrganizerToken, wrong); a.status != 201 {
		t.Fatalf("game: %d %s", a.status, a.body)
	}
	if a := call(t, "POST", u+"/v1/games/Q9/hands", testRefereeToken, handBody); a.status != 201 {
		t.Fatalf("hand: %d %s", a.status, a.body)
	}
	game := call(t, "GET", u+"/v1/games/Q9", testOrganizerToken, "")
	tour := call(t, "GET", u+"/v1/tournaments/april", testOrganizerToken, "")
	same := func(what string) {
		t.Helper()
		if a := call(t, "GET", u+"/v1/games/Q9", testOrganizerToken, ""); !bytes.Equal(a.body, game.body) {
			t.Fatalf("%s changed the game:\nbefore %s\nafter  %s", what, game.body, a.body)
		}
		if a := call(t, "GET", u+"/v1/tournaments/april", testOrganizerToken, ""); !bytes.Equal(a.body, tour.body) {
			t.Fatalf("%s changed the tournament:\nbefore %s\nafter  %s", what, tour.body, a.body)
		}
	}
	wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/games", testOrganizerToken, `{"stage":"qualifier","game":"Q9"}`), 409, "bad_request")
	same("a refused game")
	wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/games", testOrganizerToken, `{"stage":"final","table":1,"game":"Q9"}`), 409, "bad_request")
	same("a game at a table the finals do not have")
	wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/penalties", testOrganizerToken, `{"player":"Zed","points":2,"reason":"talk"}`), 400, "bad_request")
	same("a penalty for no entrant")
	wantProblem(t, call(t, "POST", u+"/v1/tournaments/april/penalties", testOrganizerToken, `{"player":"Ben","points":4611686018427387904,"reason":"talk"}`), 400, "bad_request")
	same("an unbounded penalty")

	a := call(t, "POST", u+"/v1/tournaments/april/penalties", testOrganizerToken, `{"player":"Ben","points":2,"reason":"talk"}`)
	if a.status != 201 || !strings.Contains(string(a.body), `"stage":"qualifier"`) {
		t.Fatalf("penalty: %d %s", a.status, a.body)
	}
}

// refuseEntries makes the database refuse every new game log entry, as a
// full disk or a lost primary would.
func refuseEntries(t *testing.T, c referee.Config) {
	t.Helper()
	var db *sql.DB
	var err error
	var stmts []string
	if c.PostgresDSN != "" {
		db, err = sql.Open("pgx", c.PostgresDSN)
		stmts = []string{
			`CREATE FUNCTION refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no room left'; END $$`,
			`CREATE TRIGGER game_events_refused BEFORE INSERT ON game_events FOR EACH ROW EXECUTE FUNCTION refuse_entry()`,
		}
	} else {
		db, err = sql.Open("sqlite", "file:"+c.SQLitePath)
		stmts = []string{`CREATE TRIGGER game_events_refused BEFORE INSERT ON game_events BEGIN SELECT RAISE(ABORT, 'no room left'); END`}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		mustExec(t, db, q)
	}
}
