package api

import (
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
