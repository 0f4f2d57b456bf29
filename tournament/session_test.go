package tournament

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
)

// TestMSMCSession plays a whole MSMC 2016 tournament of six entrants (seed
// 000): two qualifier games (the first two of each go on), then the two
// games of the finals. Every score is worked out here from the score table
// and the seed's final scoring, not read back from the package.
func TestMSMCSession(t *testing.T) {
	entrants := []string{"Aiko", "Ben", "Chloe", "Dev", "Emma", "Fitz"}
	tour, err := NewMSMC("April MSMC 2016", entrants, "")
	if err != nil {
		t.Fatal(err)
	}
	if tour.Format.QualifierGames != 2 || tour.Format.FinalGames != 2 {
		t.Fatalf("six entrants: %+v, want two qualifier games and two final games", tour.Format)
	}
	finalScore := map[string]int{}  // MSMC final score in the qualifier, by the test's formula
	qualifier := map[string][]int{} // per game
	finals := map[string]int{}
	add := func(to map[string]int, l *ledger) [4]int {
		s := msmcByHand(l.raw())
		for i, p := range l.g.Players {
			to[p] += s[i]
		}
		return s
	}

	// Qualifier game 1: the first four of the draw.
	next, _ := tour.NextPlayers(Qualifier, 0)
	if fmt.Sprint(next) != "[Aiko Ben Chloe Dev]" {
		t.Fatalf("first qualifier game for %v", next)
	}
	q1 := newLedger(t, "Q1", [4]string{"Aiko", "Ben", "Chloe", "Dev"})
	// E1: Ben (seat 1) riichi, ron on Chloe: mangan 8,000 and his stick back.
	q1.play(ron(1, 2, 1), [4]int{0, -1000 + 8000 + 1000, -8000, 0}, 0)
	// E2: draw, Aiko and Ben (the dealer) tenpai: 1,500 each from the others.
	q1.play(draw([]int{0, 1}), [4]int{1500, 1500, -1500, -1500}, 0)
	// E2 1 honba: Dev declares riichi, then Chloe (non-dealer) chombo: 4,000
	// to the dealer Ben, 2,000 to the others; Dev's bet is returned.
	rec := q1.play(chombo(2, 3), [4]int{2000, 4000, -8000, 2000}, 0)
	if rec.Honba != 1 || rec.Round != "E2" {
		t.Fatalf("chombo hand %s honba %d, want E2 with one honba", rec.Round, rec.Honba)
	}
	// Still E2 1 honba (no repeat counter added): Ben tsumo dama, dealer
	// mangan 4,000 all plus 100 a honba.
	rec = q1.play(tsumo(1), [4]int{-4100, 12300, -4100, -4100}, 0)
	if rec.Honba != 1 || rec.Round != "E2" {
		t.Fatalf("after chombo the hand is %s honba %d, want E2 with one honba", rec.Round, rec.Honba)
	}
	// E2 2 honba: Aiko and Dev riichi, draw, both tenpai, dealer Ben not:
	// the deal passes, the two sticks stay on the table.
	q1.play(draw([]int{0, 3}, 0, 3), [4]int{-1000 + 1500, -1500, -1500, -1000 + 1500}, 2)
	if q1.g.RoundName() != "E3" || q1.g.Honba() != 3 {
		t.Fatalf("after the draw: %s honba %d, want E3 honba 3", q1.g.RoundName(), q1.g.Honba())
	}
	// Time is up: the organiser ends the game; the two sticks go to Ben.
	if err := tour.Add(Qualifier, 0, q1.g); err != nil {
		t.Fatal(err)
	}
	if q1.g.Final.Raw != [4]int{24900, 51300, 1900, 21900} || q1.g.Final.Leftover != 2 {
		t.Fatalf("game 1 raw %v leftover %d", q1.g.Final.Raw, q1.g.Final.Leftover)
	}
	s1 := add(finalScore, q1)
	for i, p := range q1.g.Players {
		qualifier[p] = append(qualifier[p], s1[i])
	}
	// By hand: Ben (51,300−30,000+20,000)/1000 = 41, +20 = 61; Aiko −5+10 =
	// 5; Dev −8−10 = −18; Chloe −28−20 = −48.
	if q1.g.Final.Score != [4]int{5, 61, -48, -18} || s1 != q1.g.Final.Score {
		t.Fatalf("game 1 scores %v, formula %v, want [5 61 -48 -18]", q1.g.Final.Score, s1)
	}

	// Qualifier game 2: everyone game 1 did not send to the finals.
	next, _ = tour.NextPlayers(Qualifier, 0)
	if fmt.Sprint(next) != "[Chloe Dev Emma Fitz]" {
		t.Fatalf("second qualifier game for %v", next)
	}
	q2 := newLedger(t, "Q2", [4]string{"Emma", "Chloe", "Fitz", "Dev"})
	// E1: dealer Emma riichi, ron on Fitz: dealer mangan 12,000.
	q2.play(ron(0, 2, 0), [4]int{12000, 0, -12000, 0}, 0)
	// E1 1 honba: Chloe riichi tsumo, haneman: dealer 6,100, others 3,100.
	q2.play(tsumo(1, 1), [4]int{-6100, -1000 + 12300 + 1000, -3100, -3100}, 0)
	if err := tour.Add(Qualifier, 0, q2.g); err != nil {
		t.Fatal(err)
	}
	s2 := add(finalScore, q2)
	for i, p := range q2.g.Players {
		qualifier[p] = append(qualifier[p], s2[i])
	}
	// Raw 30,900 / 37,300 / 9,900 / 21,900: Chloe 27+20, Emma 0+10, Dev
	// −8−10, Fitz −20−20 add up to −1, which first place absorbs: Chloe 48.
	if s2 != [4]int{10, 48, -40, -18} || q2.g.Final.Score != s2 {
		t.Fatalf("game 2 scores %v, formula %v, want [10 48 -40 -18]", q2.g.Final.Score, s2)
	}

	finalists, err := tour.Finalists()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(finalists) != "[Ben Aiko Chloe Emma]" {
		t.Fatalf("finalists %v, want the first two of each game: Ben Aiko Chloe Emma", finalists)
	}

	// Finals, game 1.
	f1 := newLedger(t, "F1", [4]string{"Aiko", "Chloe", "Emma", "Ben"})
	f1.play(draw(nil), [4]int{}, 0)                  // E1 nobody tenpai: deal passes, 1 honba
	f1.play(ron(0, 3), [4]int{8000, 0, 0, -8000}, 0) // E2-1 Aiko dama ron on Ben: 7,700 + 300
	f1.play(ron(1, 2), [4]int{0, 7700, -7700, 0}, 0) // E3 Chloe dama ron on Emma: 7,700
	if err := tour.Add(Finals, 0, f1.g); err != nil {
		t.Fatal(err)
	}
	add(finals, f1)
	// Finals, game 2.
	f2 := newLedger(t, "F2", [4]string{"Emma", "Ben", "Aiko", "Chloe"})
	f2.play(tsumo(1), [4]int{-4000, 8000, -2000, -2000}, 0)                 // E1 Ben tsumo dama: 2,000/4,000
	f2.play(draw([]int{1}, 1), [4]int{-1000, 3000 - 1000, -1000, -1000}, 1) // E2 dealer Ben riichi, alone tenpai
	f2.play(ron(2, 1, 2), [4]int{0, -8300, -1000 + 8300 + 2000, 0}, 0)      // E2-1 Aiko riichi ron on Ben: 8,000+300, two sticks
	if err := tour.Add(Finals, 0, f2.g); err != nil {
		t.Fatal(err)
	}
	add(finals, f2)
	if _, err := tour.NextPlayers(Finals, 0); err == nil {
		t.Fatal("a third final game was offered to six entrants")
	}

	// Chloe dropped a tile during the finals: 2 points off her final score.
	if err := tour.Penalize(Penalty{Player: "Chloe", Points: 2, Reason: "dropped one tile"}); err != nil {
		t.Fatal(err)
	}
	finals["Chloe"] -= 2

	// The expected order: finalists by their finals score, then the others
	// by their qualifier score.
	type line struct {
		name  string
		total int
	}
	var want []line
	for _, p := range finalists {
		want = append(want, line{p, finals[p]})
	}
	var rest []line
	for _, p := range entrants {
		if !contains(finalists, p) {
			rest = append(rest, line{p, finalScore[p]})
		}
	}
	sortLines := func(ls []line) {
		for i := range ls {
			for j := i + 1; j < len(ls); j++ {
				if ls[j].total > ls[i].total {
					ls[i], ls[j] = ls[j], ls[i]
				}
			}
		}
	}
	sortLines(want)
	sortLines(rest)
	want = append(want, rest...)

	got := tour.Standings()
	if len(got) != len(want) {
		t.Fatalf("%d standings lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Player != want[i].name || got[i].Total != want[i].total || got[i].Rank != i+1 {
			t.Errorf("place %d: %s %d, want %s %d", i+1, got[i].Player, got[i].Total, want[i].name, want[i].total)
		}
	}
	// The same order, checked once by hand: Aiko 43+41 = 84, Chloe 12−18−2
	// = −8, Ben −33+7 = −26, Emma −22−30 = −52; then Dev −18−18, Fitz −40.
	var order []string
	for _, r := range got {
		order = append(order, fmt.Sprintf("%s %d", r.Player, r.Total))
	}
	if strings.Join(order, ", ") != "Aiko 84, Chloe -8, Ben -26, Emma -52, Dev -36, Fitz -40" {
		t.Errorf("standings %s", strings.Join(order, ", "))
	}
	if w, err := tour.Winner(); err != nil || w != "Aiko" {
		t.Errorf("winner %q %v, want Aiko", w, err)
	}

	var buf bytes.Buffer
	if err := WriteCSV(&buf, got); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 || rows[0][1] != "player" || rows[1][1] != "Aiko" || rows[1][4] != "43 41" || rows[2][6] != "2" || rows[2][7] != "-8" {
		t.Errorf("CSV:\n%s", buf.String())
	}
}
