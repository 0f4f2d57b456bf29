package api

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/referee"
	"mjscan/scoring"
)

// The API under the desks (#18): what the referee and organiser desks
// found in the tournament routes.

// TestGamePresetAsDocumented: the document says a game is created with a
// rule set and preset, but a preset was refused with `unknown field
// "preset"`. It names the scoring preset the game's hands are scored
// under, is kept in the game's log (a restart keeps it), and an unknown
// one is refused naming those there are.
func TestGamePresetAsDocumented(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		a := s.call("POST", "/v1/games", testOrganizerToken, `{"id":"Q1","table":"table 1","rules":"msmc-2016","preset":"default","players":["Aiko","Ben","Chloe","Dev"]}`)
		if a.status != 201 {
			t.Fatalf("a game with a preset: %d %s", a.status, a.body)
		}
		if p := a.json["rules"].(map[string]any)["preset"]; p != "default" {
			t.Fatalf("the game plays preset %v, want default", p)
		}
		h := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, handBody)
		if h.status != 201 {
			t.Fatalf("hand: %d %s", h.status, h.body)
		}
		if p := h.json["hand"].(map[string]any)["result"].(map[string]any)["preset"]; p != "default" {
			t.Errorf("the hand was scored under preset %v, want the game's default", p)
		}
		s.restart()
		g := s.call("GET", "/v1/games/Q1", testOrganizerToken, "")
		if p := g.json["rules"].(map[string]any)["preset"]; g.status != 200 || p != "default" || len(g.json["hands"].([]any)) != 1 {
			t.Fatalf("after a restart: %d preset %v %s", g.status, p, g.body)
		}

		bad := s.call("POST", "/v1/games", testOrganizerToken, `{"id":"Q2","table":"table 1","rules":"msmc-2016","preset":"nope","players":["Aiko","Ben","Chloe","Dev"]}`)
		wantProblem(t, bad, 400, scoring.CodeBadRequest)
		if d := bad.str("detail"); !strings.Contains(d, "msmc-2016") || !strings.Contains(d, "sanma") {
			t.Errorf("an unknown preset: %q does not name the presets there are", d)
		}
		// Left out, the preset is the tournament rules' own.
		a = s.call("POST", "/v1/games", testOrganizerToken, `{"id":"Q3","table":"table 2","rules":"msmc-2016","players":["Aiko","Ben","Chloe","Dev"]}`)
		if p := a.json["rules"].(map[string]any)["preset"]; a.status != 201 || p != "msmc-2016" {
			t.Fatalf("a game without a preset: %d preset %v", a.status, p)
		}
	})
}

// TestScoreNowUnderTheGamesRules: a referee's score-now at a table where a
// game is being played was scored under the request's rules alone (riichi
// with the default preset, or refused without rules), not the game's. It
// is the game's hand being played, under the game's rules and preset.
func TestScoreNowUnderTheGamesRules(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, s)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		const at = "/v1/tables/table%201/score-now"
		for _, body := range []string{`{"seat":"S"}`, `{"seat":"S","request":{"rules":"riichi"}}`} {
			a := s.call("POST", at, testRefereeToken, body)
			if a.status != 200 {
				t.Fatalf("%s: %d %s", body, a.status, a.body)
			}
			res := a.json["proposal"].(map[string]any)["result"].(map[string]any)
			rec := a.json["record"].(map[string]any)
			if res["rules"] != "riichi" || res["preset"] != "msmc-2016" || rec["rule_set"] != "riichi/msmc-2016" || rec["game"] != "Q1" || rec["hand"] != float64(1) {
				t.Errorf("%s: scored under %v/%v, record %v/%v hand %v; want riichi/msmc-2016, game Q1 hand 1", body, res["rules"], res["preset"], rec["rule_set"], rec["game"], rec["hand"])
			}
		}
		// Another rule set than the game's is refused in words.
		bad := s.call("POST", at, testRefereeToken, `{"seat":"S","request":{"rules":"mcr"}}`)
		wantProblem(t, bad, 400, scoring.CodeBadRequest)
		if !strings.Contains(bad.str("detail"), "msmc-2016") {
			t.Errorf("another rule set: %s", bad.body)
		}
		// Once the game is over, the table has no game in play: the
		// referee names the rules.
		if a := s.call("POST", "/v1/games/Q1/end", testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("end: %d %s", a.status, a.body)
		}
		wantProblem(t, s.call("POST", at, testRefereeToken, `{"seat":"S"}`), 400, scoring.CodeBadRequest)
		if a := s.call("POST", at, testRefereeToken, `{"seat":"S","request":{"rules":"riichi"}}`); a.status != 200 || a.json["record"].(map[string]any)["game"] != nil {
			t.Fatalf("no game in play: %d %s", a.status, a.body)
		}
	})
}

// TestScoreNowSeatWindMovesWithTheDealer: the camera's seats are the
// table's chairs, named by their players' winds at the first hand. Once
// the dealer has moved, the player in chair S is no longer South: the
// proposal is scored with the wind that player has now (and the round's
// wind), so a seat-wind yaku and a confirmed win name the right player.
func TestScoreNowSeatWindMovesWithTheDealer(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, s)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		// Hand 1: Ben (chair S) wins; the deal passes to him.
		if a := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, handBody); a.status != 201 {
			t.Fatalf("hand 1: %d %s", a.status, a.body)
		}
		a := s.call("POST", "/v1/tables/table%201/score-now", testRefereeToken, `{"seat":"S"}`)
		if a.status != 200 {
			t.Fatalf("score now: %d %s", a.status, a.body)
		}
		req := a.json["proposal"].(map[string]any)["request"].(map[string]any)
		if req["seat_wind"] != "E" || req["round_wind"] != "E" {
			t.Errorf("chair S after the deal passed to its player: seat wind %v, round wind %v; want E (the dealer), E", req["seat_wind"], req["round_wind"])
		}
		a = s.call("POST", "/v1/tables/table%201/score-now", testRefereeToken, `{"seat":"E"}`)
		if a.status != 200 {
			t.Fatalf("score now: %d %s", a.status, a.body)
		}
		if w := a.json["proposal"].(map[string]any)["request"].(map[string]any)["seat_wind"]; w != "N" {
			t.Errorf("chair E after the deal passed on: seat wind %v, want N", w)
		}
	})
}

// TestScoreNowConfirmedInOneCall: a score-now proposal could only be
// confirmed by composing a whole overturning record. POST
// /v1/records/{id}/confirm rules on it in one call, as proposed or with
// the hand corrected (scored again), as a new record pointing at the
// proposal; a proposal is ruled on once.
func TestScoreNowConfirmedInOneCall(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, s)
		own := s.newGameAt("Q1", "table 1", "msmc-2016")
		propose := func() (int, map[string]any) {
			t.Helper()
			a := s.call("POST", "/v1/tables/table%201/score-now", own, `{"seat":"S"}`)
			if a.status != 200 {
				t.Fatalf("score now: %d %s", a.status, a.body)
			}
			rec := a.json["record"].(map[string]any)
			return int(rec["id"].(float64)), a.json["proposal"].(map[string]any)["result"].(map[string]any)
		}
		id, proposed := propose()
		at := fmt.Sprintf("/v1/records/%d/confirm", id)
		wantProblem(t, s.call("POST", at, own, ""), 403, codeForbidden)
		wantProblem(t, s.call("POST", "/v1/records/999/confirm", testRefereeToken, ""), 404, codeNotFound)

		a := s.call("POST", at, testRefereeToken, "")
		if a.status != 201 {
			t.Fatalf("confirm: %d %s", a.status, a.body)
		}
		rec := a.json["record"].(map[string]any)
		if rec["overturns"] != float64(id) || !strings.HasPrefix(rec["ruling"].(string), "confirmed by the referee as the camera proposed: ") ||
			rec["game"] != "Q1" || rec["hand"] != float64(1) || rec["rule_set"] != "riichi/msmc-2016" {
			t.Fatalf("confirmation %v", rec)
		}
		if got := rec["computed"].(map[string]any)["points"]; fmt.Sprint(got) != fmt.Sprint(proposed["points"]) {
			t.Errorf("confirmed %v, proposed %v", got, proposed["points"])
		}
		chain := s.call("GET", fmt.Sprintf("/v1/records/%d", id), testRefereeToken, "")
		if chain.json["in_force"].(map[string]any)["id"] != rec["id"] {
			t.Errorf("the confirmation is not in force: %s", chain.body)
		}
		again := s.call("POST", at, testOrganizerToken, "")
		wantProblem(t, again, 409, scoring.CodeBadRequest)
		if !strings.Contains(again.str("detail"), "ruled on already") {
			t.Errorf("a second confirmation: %s", again.body)
		}

		// The organiser corrects the next proposal: the hand is scored
		// again, the correction is in the record.
		id, _ = propose()
		at = fmt.Sprintf("/v1/records/%d/confirm", id)
		wantProblem(t, s.call("POST", at, testOrganizerToken, `{"request":{"rules":"mcr","hand":"123m234p234s678s55p","win_tile":"8s"}}`), 400, scoring.CodeBadRequest)
		notWin := s.call("POST", at, testOrganizerToken, `{"request":{"hand":"123m456p789s1234z","win_tile":"4z"}}`)
		if notWin.status != 422 || !strings.Contains(notWin.str("detail"), "still awaits") {
			t.Fatalf("a corrected hand that does not win: %d %s", notWin.status, notWin.body)
		}
		wantProblem(t, s.call("POST", at, testOrganizerToken, `{"hand":"123m"}`), 400, scoring.CodeBadRequest)
		a = s.call("POST", at, testOrganizerToken, `{"referee":"Head Referee","note":"1m, not 4m","request":{"hand":"123m234p234s678s55p","win_tile":"8s"}}`)
		if a.status != 201 {
			t.Fatalf("correct: %d %s", a.status, a.body)
		}
		rec = a.json["record"].(map[string]any)
		corr, _ := rec["corrections"].([]any)
		if len(corr) != 1 || rec["referee"] != "Head Referee" || !strings.HasPrefix(rec["ruling"].(string), "corrected by the organizer: ") ||
			!strings.HasSuffix(rec["ruling"].(string), "(1m, not 4m)") || rec["request"].(map[string]any)["hand"] != "123m234p234s678s55p" ||
			rec["computed"].(map[string]any)["preset"] != "msmc-2016" {
			t.Fatalf("correction %v", rec)
		}
		if c := corr[0].(map[string]any); c["from"] != "234m234p234s678s55p" || c["to"] != "123m234p234s678s55p" {
			t.Errorf("correction %v", c)
		}

		// A record that is not a proposal is overturned, not confirmed.
		r := s.call("POST", "/v1/records", testRefereeToken, recordBody)
		if r.status != 201 {
			t.Fatalf("record: %d %s", r.status, r.body)
		}
		wantProblem(t, s.call("POST", fmt.Sprintf("/v1/records/%d/confirm", int(r.json["record"].(map[string]any)["id"].(float64))), testRefereeToken, ""), 409, scoring.CodeBadRequest)
	})
}

// TestHandCorrectedByANewEntry: a hand recorded wrongly could not be
// corrected. POST /v1/games/{id}/hands/{n}/correct appends an entry to the
// game's log that points at hand n; the game is settled again as if the
// hand had been played so (the old hand no longer counts, and is kept in
// the game's corrected), the log keeps both entries with its digests
// intact, and a restart replays the same game.
func TestHandCorrectedByANewEntry(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		table := s.newGameAt("Q1", "table 1", "msmc-2016")
		s.newGameAt("R1", "table 2", "msmc-2016")
		corrected := strings.Replace(handBody, `"from":2`, `"from":3`, 1)
		for _, h := range []string{handBody, `{"outcome":"draw","tenpai":[0]}`} {
			if a := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, h); a.status != 201 {
				t.Fatalf("hand: %d %s", a.status, a.body)
			}
		}
		// R1 is the game as it should have been played.
		for _, h := range []string{corrected, `{"outcome":"draw","tenpai":[0]}`} {
			if a := s.call("POST", "/v1/games/R1/hands", testRefereeToken, h); a.status != 201 {
				t.Fatalf("hand: %d %s", a.status, a.body)
			}
		}
		want := s.call("GET", "/v1/games/R1", testOrganizerToken, "").json["scores"]

		wantProblem(t, s.call("POST", "/v1/games/Q1/hands/1/correct", table, corrected), 403, codeForbidden)
		wantProblem(t, s.call("POST", "/v1/games/Q1/hands/9/correct", testRefereeToken, corrected), 422, scoring.CodeBadRequest)
		wantProblem(t, s.call("POST", "/v1/games/Q1/hands/x/correct", testRefereeToken, corrected), 400, scoring.CodeBadRequest)
		wantProblem(t, s.call("POST", "/v1/games/Q1/hands/1/correct", testRefereeToken, `{"outcome":"win","player":1,"from":1}`), 422, scoring.CodeBadRequest)
		a := s.call("POST", "/v1/games/Q1/hands/1/correct", testRefereeToken, corrected)
		if a.status != 200 {
			t.Fatalf("correct: %d %s", a.status, a.body)
		}
		if h := a.json["hand"].(map[string]any); h["number"] != float64(1) || h["corrections"] != float64(1) {
			t.Errorf("corrected hand %v", h)
		}
		if fmt.Sprint(a.json["scores"]) != fmt.Sprint(want) {
			t.Errorf("scores after the correction %v, want %v as if played so", a.json["scores"], want)
		}
		check := func(when string) {
			t.Helper()
			g := s.call("GET", "/v1/games/Q1", testOrganizerToken, "")
			old, _ := g.json["corrected"].([]any)
			if fmt.Sprint(g.json["scores"]) != fmt.Sprint(want) || len(g.json["hands"].([]any)) != 2 || len(old) != 1 || g.json["tampered"] != nil {
				t.Fatalf("%s: %s", when, g.body)
			}
			if from := old[0].(map[string]any)["play"].(map[string]any)["from"]; from != float64(2) {
				t.Errorf("%s: the hand replaced is not kept as it was: from %v", when, from)
			}
		}
		check("after the correction")
		// The log keeps the hand and its correction, digests intact.
		logs, err := s.store.GameLogs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, l := range logs {
			if l.Game == "Q1" {
				if l.Tampered != "" {
					t.Fatalf("the log fails its digests: %s", l.Tampered)
				}
				for _, e := range l.Events {
					kinds = append(kinds, e.Kind)
				}
			}
		}
		if strings.Join(kinds, " ") != "start play play correct" {
			t.Errorf("the game's log holds %v, want the start, both hands and the correction (refused ones left out)", kinds)
		}
		s.restart()
		check("after a restart")
	})
}

// TestLargeFieldsRefusedOnEveryTournamentRoute: large fields were refused
// in the words of a rule book ("seed 000 leaves more than eight players
// 'to be discussed'"), came back whole in the message (an unknown rules
// name, outcome or stage; a seat list of thousands), or were kept (a
// 5,000-character note, penalty tiles, ruling, rule set or camera
// address; 3,000 corrections). On every tournament route each is refused
// with a short message that says how large it is and what is allowed,
// repeating at most a few dozen characters of it, and nothing is kept.
func TestLargeFieldsRefusedOnEveryTournamentRoute(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, s)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		s.newGameAt("M1", "table 2", "mcr")
		if a := s.call("POST", "/v1/tournaments", testOrganizerToken, `{"id":"T","entrants":["Aiko","Ben","Chloe","Dev"]}`); a.status != 201 {
			t.Fatalf("tournament: %d %s", a.status, a.body)
		}
		if a := s.call("POST", "/v1/records", testRefereeToken, recordBody); a.status != 201 {
			t.Fatalf("record: %d %s", a.status, a.body)
		}
		long := strings.Repeat("x", 5000)
		names := make([]string, 3000)
		for i := range names {
			names[i] = fmt.Sprintf("%q", fmt.Sprintf("player %d", i))
		}
		entrants := "[" + strings.Join(names, ",") + "]"
		seats := "[" + strings.Repeat("0,", 3000) + "0]"
		corrections := "[" + strings.Repeat(`{"by":"a","from":"1m","to":"2m"},`, 3000) + `{"by":"a","from":"1m","to":"2m"}]`
		rec := `"table":"table 1","asked_by":"Ben","rule_set":"riichi/msmc-2016","ruling":"8,000 to Ben"`
		for _, c := range []struct {
			path, token, body, want string
		}{
			{"/v1/tournaments", testOrganizerToken, `{"id":"T2","entrants":` + entrants + `}`, "4 to 8 entrants"},
			{"/v1/tournaments", testOrganizerToken, `{"id":"T2","entrants":` + entrants[:strings.Index(entrants, `"player 9"`)] + `"player 9"]}`, "4 to 8 entrants"},
			{"/v1/tournaments", testOrganizerToken, `{"id":"T2","entrants":["a","b","c","d"],"organizer":"` + long + `"}`, "5000 characters long"},
			{"/v1/tournaments/T/games", testOrganizerToken, `{"stage":"` + long + `","table":0,"game":"Q1"}`, "unknown stage"},
			{"/v1/tournaments/T/penalties", testOrganizerToken, `{"player":"Aiko","points":2,"reason":"` + long + `"}`, "5000 characters long"},
			{"/v1/games", testOrganizerToken, `{"id":"G","table":"t","rules":"` + long + `","players":["a","b","c","d"]}`, "choose one of"},
			{"/v1/games", testOrganizerToken, `{"id":"G","table":"t","rules":"msmc-2016","preset":"` + long + `","players":["a","b","c","d"]}`, "presets are"},
			{"/v1/games", testOrganizerToken, `{"id":"G","table":"t","rules":"msmc-2016","players":` + entrants + `}`, "3000 were given"},
			{"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"` + long + `"}`, "use win, draw"},
			{"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw","tenpai":` + seats + `}`, "tenpai lists 3001 seats"},
			{"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw","note":"` + long + `"}`, "the note is 5000 characters long"},
			{"/v1/games/M1/hands", testRefereeToken, `{"outcome":"false_win","player":1,"penalty_tiles":"` + long + `"}`, "penalty_tiles is 5000 characters long"},
			{"/v1/games/M1/hands", testRefereeToken, `{"outcome":"false_win","player":1,"false_win_kind":"` + long + `"}`, "false_win_kind"},
			{"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"win","player":1,"from":2,"hand":{"rules":"` + long + `","hand":"234m234p234s678s55p","win_tile":"8s"}}`, "leave rules and preset out"},
			{"/v1/records", testRefereeToken, `{` + strings.Replace(rec, `"8,000 to Ben"`, `"`+long+`"`, 1) + `}`, "ruling is 5000 characters long"},
			{"/v1/records", testRefereeToken, `{` + rec + `,"claimed":"` + long + `"}`, "claimed is 5000 characters long"},
			{"/v1/records", testRefereeToken, `{` + strings.Replace(rec, "riichi/msmc-2016", long, 1) + `}`, "rule_set is 5000 characters long"},
			{"/v1/records", testRefereeToken, `{` + rec + `,"corrections":` + corrections + `}`, "corrections lists 3001 changes"},
			{"/v1/records/1/overturn", testRefereeToken, `{"asked_by":"Ben","rule_set":"riichi/msmc-2016","ruling":"` + long + `"}`, "ruling is 5000 characters long"},
			{"/v1/records/1/confirm", testRefereeToken, `{"referee":"` + long + `"}`, "5000 characters long"},
			{"/v1/tables", testOrganizerToken, `{"table":"t","snapshot_url":"http://` + long + `"}`, "at most 2048"},
			{"/v1/tables", testOrganizerToken, `{"table":"t","snapshot_url":"http://127.0.0.1:9/","near":"` + long + `"}`, "use E, S, W or N"},
			{"/v1/tables/table%201/score-now", testRefereeToken, `{"seat":"` + long + `"}`, "use E, S, W or N"},
		} {
			a := s.call("POST", c.path, c.token, c.body)
			d := a.str("detail")
			if a.status < 400 || a.status >= 500 || !strings.Contains(d, c.want) || len(d) > 300 || strings.Contains(d, strings.Repeat("x", 41)) || strings.Contains(d, "discussed") {
				t.Errorf("%s %.70s…: %d %.300q, want a short refusal saying %q", c.path, c.body, a.status, d, c.want)
			}
		}
		// Nothing refused was kept.
		if g := s.call("GET", "/v1/games/Q1", testOrganizerToken, ""); g.json["hands"] != nil && len(g.json["hands"].([]any)) != 0 {
			t.Errorf("refused hands were recorded: %s", g.body)
		}
		if list := tourRecords(t, s, testRefereeToken); len(list) != 1 {
			t.Errorf("%d records, want only the first", len(list))
		}
		if tour := s.call("GET", "/v1/tournaments/T", testOrganizerToken, ""); tour.json["tournament"].(map[string]any)["penalties"] != nil {
			t.Errorf("a refused penalty was kept: %s", tour.body)
		}
		wantProblem(t, s.call("GET", "/v1/tables/t", testOrganizerToken, ""), 404, codeNotFound)
	})
}

// TestGameSaysTheHandBeingPlayed: a desk that confirms a camera's hand
// "in front of South" had no way to tell whose it was: the game's dealer
// and seat winds were nowhere in its answer. A game answers the hand
// being played: its number and name, the dealer, the repeat counter and
// each player's seat wind; none once it is over.
func TestGameSaysTheHandBeingPlayed(t *testing.T) {
	s := startTourService(t, referee.Config{SQLitePath: filepath.Join(t.TempDir(), "r.db")}, nil)
	a := s.call("POST", "/v1/games", testOrganizerToken, gameBody)
	next := func(a *answer) string {
		t.Helper()
		n, _ := a.json["next"].(map[string]any)
		if n == nil {
			return "none"
		}
		return fmt.Sprintf("%v %v dealer %v honba %v %v", n["number"], n["round"], n["dealer"], n["honba"], n["seat_winds"])
	}
	if got := next(a); got != "1 E1 dealer 0 honba 0 [E S W N]" {
		t.Errorf("a new game's next hand: %s", got)
	}
	// Ben (seat 1) wins off Chloe: the deal passes to Ben.
	if h := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, handBody); h.status != 201 {
		t.Fatalf("hand: %d %s", h.status, h.body)
	}
	if got := next(s.call("GET", "/v1/games/Q1", testRefereeToken, "")); got != "2 E2 dealer 1 honba 0 [N E S W]" {
		t.Errorf("after Ben's win: %s", got)
	}
	s.call("POST", "/v1/games/Q1/end", testOrganizerToken, "")
	if got := next(s.call("GET", "/v1/games/Q1", testRefereeToken, "")); got != "none" {
		t.Errorf("an ended game's next hand: %s", got)
	}
}

// TestScoreNowConfirmedIntoTheGame: confirming a proposal left the
// organiser to enter the same hand again, working out whose it was. With
// win (who discarded, the riichi declarations) the confirmation also
// records it as the game's hand being played, the player being the one at
// the hand's seat wind; a hand the game does not take leaves the proposal
// awaiting, and nothing is stored.
func TestScoreNowConfirmedIntoTheGame(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, s)
		own := s.newGameAt("Q1", "table 1", "msmc-2016")
		a := s.call("POST", "/v1/tables/table%201/score-now", own, `{"seat":"S"}`)
		if a.status != 200 {
			t.Fatalf("score now: %d %s", a.status, a.body)
		}
		id := int(a.json["record"].(map[string]any)["id"].(float64))
		points := a.json["proposal"].(map[string]any)["result"].(map[string]any)["points"].(map[string]any)["total"]
		at := fmt.Sprintf("/v1/records/%d/confirm", id)
		wantProblem(t, s.call("POST", at, testOrganizerToken, `{"win":{}}`), 400, scoring.CodeBadRequest)
		// South wins off South: the game refuses it, nothing is ruled.
		wantProblem(t, s.call("POST", at, testOrganizerToken, `{"win":{"from":1}}`), 422, scoring.CodeBadRequest)
		if n := len(tourRecords(t, s, testRefereeToken)); n != 1 {
			t.Fatalf("%d records after a refused win, want the proposal only", n)
		}
		a = s.call("POST", at, testOrganizerToken, `{"win":{"from":2}}`)
		if a.status != 201 {
			t.Fatalf("confirm into the game: %d %s", a.status, a.body)
		}
		hand := a.json["hand"].(map[string]any)["hand"].(map[string]any)
		play := hand["play"].(map[string]any)
		if hand["number"] != float64(1) || play["player"] != float64(1) || play["from"] != float64(2) ||
			hand["result"].(map[string]any)["points"].(map[string]any)["total"] != points {
			t.Fatalf("the game's hand %v, want Ben's win off Chloe for %v", hand, points)
		}
		if a.json["record"].(map[string]any)["overturns"] != float64(id) {
			t.Errorf("the ruling %v", a.json["record"])
		}
		g := s.call("GET", "/v1/games/Q1", testOrganizerToken, "")
		if len(g.json["hands"].([]any)) != 1 || g.json["next"].(map[string]any)["number"] != float64(2) {
			t.Fatalf("the game after the confirmation: %s", g.body)
		}
		s.restart()
		if g := s.call("GET", "/v1/games/Q1", testOrganizerToken, ""); len(g.json["hands"].([]any)) != 1 {
			t.Fatalf("after a restart: %s", g.body)
		}
		// A proposal for a hand no longer being played is confirmed
		// without win only.
		a = s.call("POST", "/v1/tables/table%201/score-now", testRefereeToken, `{"seat":"S"}`)
		id2 := int(a.json["record"].(map[string]any)["id"].(float64))
		if h := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw"}`); h.status != 201 {
			t.Fatalf("draw: %d %s", h.status, h.body)
		}
		wantProblem(t, s.call("POST", fmt.Sprintf("/v1/records/%d/confirm", id2), testRefereeToken, `{"win":{"from":2}}`), 409, scoring.CodeBadRequest)
	})
}
