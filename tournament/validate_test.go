package tournament

import (
	"strings"
	"testing"

	"mjscan/scoring"
)

// TestPenaltyPointsAreBounded: three penalties of 2^62 used to wrap the
// total to +4.6e18 and rank the penalised player first. A penalty outside
// 1..MaxPenaltyPoints is refused with a message that names the range, and
// nothing is recorded.
func TestPenaltyPointsAreBounded(t *testing.T) {
	tour, err := NewMSMC("april", []string{"a", "b", "c", "d"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, points := range []int{1 << 62, MaxPenaltyPoints + 1, 0, -5, -(1 << 62)} {
		err := tour.Penalize(Penalty{Player: "a", Points: points, Reason: "dropped a tile"})
		if err == nil {
			t.Fatalf("a penalty of %d points was accepted", points)
		}
		if !strings.Contains(err.Error(), "1 to 1000") {
			t.Errorf("penalty %d: %q does not say what is allowed", points, err)
		}
	}
	if len(tour.Penalties) != 0 {
		t.Fatalf("refused penalties were recorded: %v", tour.Penalties)
	}
	for i := 0; i < 3; i++ {
		if err := tour.Penalize(Penalty{Player: "a", Points: MaxPenaltyPoints, Reason: "talk"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range tour.Standings() {
		if s.Player == "a" && (s.Total != -3*MaxPenaltyPoints || s.Rank != 4) {
			t.Fatalf("a after three %d-point penalties: %+v", MaxPenaltyPoints, s)
		}
	}
	// The stage is one of the tournament's, and the reason is not a novel.
	if err := tour.Penalize(Penalty{Player: "a", Points: 2, Stage: "semi-final"}); err == nil {
		t.Fatal("a penalty in an unknown stage was accepted")
	}
	if err := tour.Penalize(Penalty{Player: "a", Points: 2, Reason: strings.Repeat("x", 1<<20)}); err == nil {
		t.Fatal("a 1 MB reason was accepted")
	}
}

// TestIDsAreSafe: an id travels in URL paths (/v1/games/{id}), so one with
// a '/' was accepted and then could never be reached, and 1 MB ids were
// accepted. Ids keep to letters, digits, spaces, '-', '_' and '.', begin
// with a letter or digit and are at most MaxIDLen characters; names of
// players have no control characters and the same length cap.
func TestIDsAreSafe(t *testing.T) {
	players := [4]string{"Aiko", "Ben", "Chloe", "Dev"}
	for _, id := range []string{"Q1", "F-2", "round_1.table 3", "Tisch2", "第一卓", strings.Repeat("x", MaxIDLen)} {
		if _, err := NewGame(id, "table 1", "msmc-2016", players); err != nil {
			t.Errorf("game id %q refused: %v", id, err)
		}
	}
	huge := strings.Repeat("x", 1<<20)
	for _, id := range []string{"", "a/b", "../etc", "a?b", "a#b", "a%2Fb", ".hidden", " Q1", "Q1 ", "a\\b", "tab\tle", "nul\x00", "a\nb", huge, strings.Repeat("x", MaxIDLen+1)} {
		_, err := NewGame(id, "table 1", "msmc-2016", players)
		if err == nil {
			t.Errorf("game id %q accepted", id)
			continue
		}
		if len(err.Error()) > 300 {
			t.Errorf("the message for a %d-byte id is %d bytes long: it must not repeat the id", len(id), len(err.Error()))
		}
		if _, err := NewGame("Q1", id, "msmc-2016", players); err == nil {
			t.Errorf("table %q accepted", id)
		}
		if _, err := NewMSMC(id, []string{"a", "b", "c", "d"}, ""); err == nil {
			t.Errorf("tournament id %q accepted", id)
		}
	}
	for _, name := range []string{huge, "Ben\x00", "Ben\nChloe", "   "} {
		if _, err := NewGame("Q1", "table 1", "msmc-2016", [4]string{name, "x", "y", "z"}); err == nil {
			t.Errorf("player %.20q accepted", name)
		}
		if _, err := NewMSMC("april", []string{name, "x", "y", "z"}, ""); err == nil {
			t.Errorf("entrant %.20q accepted", name)
		}
	}
	if _, err := NewMSMC("april", []string{"a", "b", "c", "d", "e", "f", "g"}, huge); err == nil {
		t.Error("a 1 MB organiser name accepted")
	}
}

// TestSheetSeatsFour: a game sheet names exactly four players; a fifth was
// silently dropped when the JSON was read into four seats.
func TestSheetSeatsFour(t *testing.T) {
	for _, players := range []string{`["a","b","c","d","e"]`, `["a","b","c"]`, `[]`} {
		_, err := DecodeSheet([]byte(`{"id":"Q1","table":"table 1","rules":"msmc-2016","players":`+players+`}`), nil)
		if err == nil || !strings.Contains(err.Error(), "four players") {
			t.Errorf("players %s: %v", players, err)
		}
	}
	if _, err := DecodeSheet([]byte(`{"id":"Q1","table":"table 1","rules":"msmc-2016","players":["a","b","c","d"]}`), nil); err != nil {
		t.Fatal(err)
	}
}

// TestTournamentTableInRange: a qualifier game names one of the format's
// tables, and a final game table 0.
func TestTournamentTableInRange(t *testing.T) {
	tour, err := NewMSMC("six", []string{"a", "b", "c", "d", "e", "f"}, "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGame("Q1", "table 1", "msmc-2016", [4]string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []int{-1, 1, 1 << 40} {
		if err := tour.Add(Qualifier, table, g); err == nil {
			t.Fatalf("table %d accepted for a one-table qualifier", table)
		}
	}
	if g.Over {
		t.Fatal("a refused game was ended")
	}
	if err := tour.Add(Qualifier, 0, g); err != nil {
		t.Fatal(err)
	}
}

// TestHandNeedNotRepeatThePreset (#18): a hand that named its game's rule
// set without the preset was refused ("scored under riichi/ but the game
// plays riichi/msmc-2016"); it is scored under the game's preset.
func TestHandNeedNotRepeatThePreset(t *testing.T) {
	g, err := NewGame("Q1", "table 1", "msmc-2016", [4]string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	p := ron(1, 2)
	p.Hand.Rules = "riichi"
	rec, err := g.Record(p)
	if err != nil {
		t.Fatalf("a hand naming riichi without its preset: %v", err)
	}
	if rec.Result.Preset != "msmc-2016" {
		t.Errorf("scored under preset %q, want the game's msmc-2016", rec.Result.Preset)
	}
	// Another preset of the same rule set is still refused, in words that
	// say what to do.
	q := ron(1, 2)
	q.Hand.Rules, q.Hand.Preset = "riichi", "default"
	if _, err := g.Record(q); err == nil || !strings.Contains(err.Error(), "leave rules and preset out") {
		t.Errorf("a hand under another preset: %v", err)
	}
}

// TestPenaltyInAStageNotPlayed (#18): four entrants play no qualifier, yet
// a qualifier penalty was kept and never counted in any standings. It is
// refused, saying which stage to use.
func TestPenaltyInAStageNotPlayed(t *testing.T) {
	tour, err := NewMSMC("april", []string{"a", "b", "c", "d"}, "")
	if err != nil {
		t.Fatal(err)
	}
	err = tour.Penalize(Penalty{Player: "a", Points: 2, Reason: "dropped a tile", Stage: string(Qualifier)})
	if err == nil || !strings.Contains(err.Error(), "no qualifier") || !strings.Contains(err.Error(), `"final"`) {
		t.Fatalf("a qualifier penalty in a tournament without one: %v", err)
	}
	if len(tour.Penalties) != 0 {
		t.Fatalf("the refused penalty was kept: %v", tour.Penalties)
	}
	if err := tour.Penalize(Penalty{Player: "a", Points: 2, Reason: "dropped a tile", Stage: string(Finals)}); err != nil {
		t.Fatal(err)
	}
	// With six entrants the qualifier is played: its penalties count.
	six, err := NewMSMC("may", []string{"a", "b", "c", "d", "e", "f"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := six.Penalize(Penalty{Player: "a", Points: 2, Reason: "talk", Stage: string(Qualifier)}); err != nil {
		t.Fatal(err)
	}
}

// TestLargeFieldsRefusedInPlainWords (#18): a tournament of 3,000
// entrants was refused with seed 000's "leaves more than eight players 'to
// be discussed'", an unknown rules name or outcome came back whole in the
// message, a seat list of thousands was printed in full, and a note or the
// penalty tiles of any length were kept. Each is refused with its size and
// what is allowed, never repeating more than a few dozen characters.
func TestLargeFieldsRefusedInPlainWords(t *testing.T) {
	long := strings.Repeat("x", 5000)
	many := make([]string, 3000)
	for i := range many {
		many[i] = "p" + strings.Repeat("1", i%5) + string(rune('a'+i%26)) + strings.Repeat("z", i/26%10)
	}
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: accepted", what)
		}
		msg := err.Error()
		if len(msg) > 300 || !strings.Contains(msg, want) || strings.Contains(msg, "discussed") {
			t.Errorf("%s: %q (%d bytes), want a short message with %q", what, msg[:min(len(msg), 300)], len(msg), want)
		}
	}
	_, err := NewMSMC("big", many, "")
	check("3000 entrants", err, "4 to 8 entrants")
	_, err = NewMSMC("nine", many[:9], "")
	check("9 entrants", err, "4 to 8 entrants")
	_, err = NewGame("G", "t", long, [4]string{"a", "b", "c", "d"})
	check("long rules", err, "msmc-2016")

	g, err := NewGame("G", "t", "msmc-2016", [4]string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	seats := make([]int, 3000)
	for _, c := range []struct {
		what string
		p    Play
		want string
	}{
		{"long outcome", Play{Outcome: Outcome(long)}, "use win, draw"},
		{"3000 tenpai seats", Play{Outcome: Draw, Tenpai: seats}, "tenpai lists 3000 seats"},
		{"3000 riichi seats", Play{Outcome: Draw, Riichi: seats}, "riichi lists 3000 seats"},
		{"long note", Play{Outcome: Draw, Note: long}, "the note is 5000 characters long"},
		{"long penalty tiles", Play{Outcome: Draw, PenaltyTiles: long}, "penalty_tiles is 5000 characters long"},
		{"long false win kind", Play{Outcome: FalseWin, Player: 1, FalseWinKind: long}, "false_win_kind"},
		{"long rules in the hand", Play{Outcome: Win, Player: 1, From: 2, Hand: &scoring.Request{Rules: long, Hand: sanshokuHand, WinTile: sanshokuWin}}, "leave rules and preset out"},
	} {
		_, err := g.Record(c.p)
		check(c.what, err, c.want)
	}
	if len(g.Hands) != 0 {
		t.Fatalf("refused hands were recorded: %v", g.Hands)
	}
	tour, err := NewMSMC("april", []string{"a", "b", "c", "d"}, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tour.NextPlayers(Stage(long), 0)
	check("long stage", err, "unknown stage")
}
