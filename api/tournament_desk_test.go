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
