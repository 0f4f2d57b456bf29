package tournament

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"mjscan/scoring"
)

var four = [4]string{"East", "South", "West", "North"}

func TestMSMCScoreRounding(t *testing.T) {
	cases := []struct {
		raw, want [4]int
	}{
		// Everyone even: the original dealer wins every tie (seed 000).
		// −5,000 each, first +20,000 → 15, −5, −5, −5; bonus → 35, 5, −15, −25.
		{[4]int{25000, 25000, 25000, 25000}, [4]int{35, 5, -15, -25}},
		// Negative scores round up (−12.3 → −12), positive down (12.9 → 12).
		{[4]int{42900, 17700, 30100, 9300}, [4]int{52, -22, 10, -40}},
		// Original North loses the tie for second.
		{[4]int{40000, 10000, 25000, 25000}, [4]int{50, -40, 5, -15}},
	}
	for _, c := range cases {
		got, explain := MSMCScore(c.raw)
		if got != c.want {
			t.Errorf("MSMCScore(%v) = %v, want %v\n%s", c.raw, got, c.want, strings.Join(explain, "\n"))
		}
		if by := msmcByHand(c.raw); by != c.want {
			t.Errorf("the test's own formula gives %v for %v, want %v", by, c.raw, c.want)
		}
		if got[0]+got[1]+got[2]+got[3] != 0 {
			t.Errorf("MSMCScore(%v) = %v does not add up to 0", c.raw, got)
		}
	}
}

func TestDealerChomboAndReturnedBets(t *testing.T) {
	l := newLedger(t, "g", four)
	// Seat 2 and seat 3 declare riichi, then the dealer (seat 0) reveals
	// another player's tiles: 4,000 to each, the two bets go back.
	l.play(chombo(0, 2, 3), [4]int{-12000, 4000, 4000, 4000}, 0)
	if l.g.RoundName() != "E1" || l.g.Honba() != 0 {
		t.Fatalf("after a chombo: %s honba %d, want E1 honba 0", l.g.RoundName(), l.g.Honba())
	}
	// A stick from an earlier hand stays on the table through a chombo.
	l.play(draw([]int{0}, 0), [4]int{-1000 + 3000, -1000, -1000, -1000}, 1)
	l.play(chombo(1, 1), [4]int{4000, -8000, 2000, 2000}, 1)
}

func TestRiichiNotTenpaiAtDrawIsChombo(t *testing.T) {
	g, _ := NewGame("g", "t", "msmc-2016", four)
	_, err := g.Record(draw([]int{0}, 1))
	if err == nil || !strings.Contains(err.Error(), "chombo") {
		t.Fatalf("riichi without tenpai at a draw: %v", err)
	}
	if len(g.Hands) != 0 || g.Scores != [4]int{25000, 25000, 25000, 25000} {
		t.Fatal("a refused hand changed the record")
	}
}

func TestDeadHand(t *testing.T) {
	g, _ := NewGame("g", "t", "msmc-2016", four)
	p := ron(1, 0)
	p.DeadHands = []int{1}
	if _, err := g.Record(p); err == nil {
		t.Fatal("a dead hand won")
	}
	p = draw(nil, 2)
	p.DeadHands = []int{2}
	if _, err := g.Record(p); err == nil {
		t.Fatal("a dead hand declared riichi")
	}
	// A dead hand that claims tenpai at a draw is not tenpai: seat 1 alone
	// is ready and takes 3,000.
	p = draw([]int{1, 3})
	p.DeadHands = []int{3}
	rec, err := g.Record(p)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{-1000, 3000, -1000, -1000} {
		t.Fatalf("deltas %v", rec.Deltas)
	}
}

func TestRiichiClaimWithoutDeclaration(t *testing.T) {
	g, _ := NewGame("g", "t", "msmc-2016", four)
	p := ron(1, 0)
	p.Hand.Riichi = true
	if _, err := g.Record(p); err == nil {
		t.Fatal("a riichi win without a riichi declaration was accepted")
	}
	// A hand with no yaku is refused, not recorded.
	p = Play{Outcome: Win, Player: 1, From: 0, Hand: &scoring.Request{
		Hand: "456p789s123s99p", WinTile: "1s",
		Melds: []scoring.MeldSpec{{Type: "chi", Tiles: "123m", From: "left"}},
	}}
	_, err := g.Record(p)
	var se *scoring.Error
	if !errors.As(err, &se) || se.Code != scoring.CodeNoYaku {
		t.Fatalf("open hand without yaku: %v", err)
	}
}

// TestNaturalEnd plays eight exhaustive draws where nobody is ready: the
// deal passes each time, and after South 4 the game is over and settled.
func TestNaturalEnd(t *testing.T) {
	l := newLedger(t, "g", four)
	names := []string{"E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"}
	for i, n := range names {
		rec := l.play(draw(nil), [4]int{}, 0)
		if rec.Round != n || rec.Honba != i {
			t.Fatalf("hand %d is %s with %d honba, want %s with %d", i+1, rec.Round, rec.Honba, n, i)
		}
	}
	if !l.g.Over || l.g.Final == nil {
		t.Fatal("the game did not end after South 4")
	}
	if _, err := l.g.Record(draw(nil)); !errors.Is(err, ErrGameOver) {
		t.Fatalf("a hand after the end: %v", err)
	}
	if l.g.Final.Score != msmcByHand(l.raw()) {
		t.Fatalf("final %v, want %v", l.g.Final.Score, msmcByHand(l.raw()))
	}
}

func TestBustEndsTheGame(t *testing.T) {
	l := newLedger(t, "g", four)
	// Seat 3 deals in to the dealer's riichi mangan (12,000) twice, then a
	// dealer riichi tsumo haneman with two honba takes the rest.
	l.play(ron(0, 3, 0), [4]int{12000, 0, 0, -12000}, 0)
	l.play(ron(0, 3, 0), [4]int{12300, 0, 0, -12300}, 0)
	if l.g.Over {
		t.Fatal("over at 700 points")
	}
	l.play(tsumo(0, 0), [4]int{18600, -6200, -6200, -6200}, 0)
	if !l.g.Over {
		t.Fatalf("scores %v: the game should end when a player busts", l.g.Scores)
	}
}

func TestTablePoints(t *testing.T) {
	cases := []struct {
		raw  [4]int
		want [4]float64
	}{
		{[4]int{10, 40, -20, -30}, [4]float64{2, 4, 1, 0}},
		{[4]int{10, 10, -10, -10}, [4]float64{3, 3, 0.5, 0.5}},
		{[4]int{0, 0, 0, 0}, [4]float64{1.75, 1.75, 1.75, 1.75}},
	}
	for _, c := range cases {
		if got := TablePoints(c.raw); got != c.want {
			t.Errorf("TablePoints(%v) = %v, want %v", c.raw, got, c.want)
		}
	}
}

// TestMCRGame: wins pay value + 8 (seed 000), false wins 10 or 20 to each
// player, 16 hands, table points at the end.
func TestMCRGame(t *testing.T) {
	g, err := NewGame("m1", "t", "mcr", four)
	if err != nil {
		t.Fatal(err)
	}
	// Thirteen Orphans (88) by South on West's discard: 96 from West, 8
	// from each of the others.
	orphans := &scoring.Request{Hand: "19m19p19s12344567z", WinTile: "4z"}
	rec, err := g.Record(Play{Outcome: Win, Player: 1, From: 2, Hand: orphans})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{-8, 112, -96, -8} {
		t.Fatalf("orphans on a discard: %v", rec.Deltas)
	}
	// A hand under 8 points: North pays 10 to each; the hand goes on.
	low := &scoring.Request{Hand: "123m345p567s678s99m", WinTile: "9m"}
	rec, err = g.Record(Play{Outcome: FalseWin, Player: 3, From: 0, Hand: low})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{10, 10, 10, -30} || rec.Round != "S2" && rec.Round != "E2" {
		t.Fatalf("below-minimum false win: %v in %s", rec.Deltas, rec.Round)
	}
	// Not a winning hand: 20 to each.
	rec, err = g.Record(Play{Outcome: FalseWin, Player: 0, FalseWinKind: scoring.CodeNotAWin})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{-60, 20, 20, 20} {
		t.Fatalf("not-a-win false win: %v", rec.Deltas)
	}
	// Self-drawn Thirteen Orphans by East: 88 + Self-Drawn 1 + 8 = 97 from each.
	orphans2 := &scoring.Request{Hand: "19m19p19s12344567z", WinTile: "4z"}
	if rec, err = g.Record(Play{Outcome: Win, Player: 0, From: NoSeat, Hand: orphans2}); err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{291, -97, -97, -97} {
		t.Fatalf("self-drawn orphans: %v", rec.Deltas)
	}
	for !g.Over {
		if _, err := g.Record(Play{Outcome: Draw}); err != nil {
			t.Fatal(err)
		}
	}
	// 16 deals: two wins + 14 draws, plus the two false wins that did not
	// end their hand.
	if len(g.Hands) != 18 {
		t.Fatalf("%d hands recorded, want 18", len(g.Hands))
	}
	want := [4]int{-8 + 10 - 60 + 291, 112 + 10 + 20 - 97, -96 + 10 + 20 - 97, -8 - 30 + 20 - 97}
	if g.Final.Score != want {
		t.Fatalf("final %v, want %v", g.Final.Score, want)
	}
	if g.Final.TablePoints != [4]float64{4, 2, 0, 1} {
		t.Fatalf("table points %v", g.Final.TablePoints)
	}
	if _, err := g.Record(Play{Outcome: Chombo}); err == nil {
		t.Fatal("a hand after the end was recorded")
	}
	rows := Standings([]*Game{g}, []Penalty{{Player: "West", Points: 5, Reason: "talk"}})
	if rows[0].Player != "East" || rows[3].Player != "West" || rows[3].Total != -163-5 {
		t.Fatalf("MCR standings %+v", rows)
	}
}

// TestZungJungAndWSM: par-25 payments from the engine, mapped to players by
// seat wind; a WSM false win is a record entry and costs nothing.
func TestZungJungAndWSM(t *testing.T) {
	g, err := NewGame("z1", "t", "zung-jung", four)
	if err != nil {
		t.Fatal(err)
	}
	// E1: South wins All Honors (320) on West's discard: West pays
	// 3×320−50 = 910, East and North 25 each.
	honors := &scoring.Request{Hand: "11223344556677z", WinTile: "7z"}
	rec, err := g.Record(Play{Outcome: Win, Player: 1, From: 2, Hand: honors})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{-25, 960, -910, -25} {
		t.Fatalf("all honors on a discard: %v", rec.Deltas)
	}
	// E2 (South deals): the same hand by West on North's discard: seats
	// are mapped through the winds, so North (seat 3) pays 910.
	rec, err = g.Record(Play{Outcome: Win, Player: 2, From: 3, Hand: &scoring.Request{Hand: "11223344556677z", WinTile: "7z"}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{-25, -25, 960, -910} {
		t.Fatalf("second win: %v", rec.Deltas)
	}

	w, _ := NewGame("w1", "t", "wsm", four)
	rec, err = w.Record(Play{Outcome: FalseWin, Player: 2, FalseWinKind: scoring.CodeBelowMinimum, PenaltyTiles: "123m45p"})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Deltas != [4]int{} || len(w.Entries) != 1 || !strings.Contains(w.Entries[0].Reason, "penalty tiles 123m45p") {
		t.Fatalf("WSM false win: %v %+v", rec.Deltas, w.Entries)
	}
	for !w.Over {
		if _, err := w.Record(Play{Outcome: Draw}); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.Hands) != 9 {
		t.Fatalf("WSM game of %d records, want 8 hands and the false win", len(w.Hands))
	}
}

func TestFormats(t *testing.T) {
	cases := map[int]Format{
		4: {Entrants: 4, FinalGames: 3},
		5: {Entrants: 5, QualifierGames: 2, Tables: 1, AdvanceFromGame: []int{1, 3}, FinalGames: 3},
		6: {Entrants: 6, QualifierGames: 2, Tables: 1, AdvanceFromGame: []int{2, 2}, FinalGames: 2},
		7: {Entrants: 7, QualifierGames: 4, Tables: 2, AdvancePerTable: 2, OrganizerFills: true, FinalGames: 2},
		8: {Entrants: 8, QualifierGames: 4, Tables: 2, AdvancePerTable: 2, FinalGames: 2},
	}
	for n, want := range cases {
		f, err := MSMCFormat(n)
		if err != nil {
			t.Fatal(err)
		}
		if jsonOf(f) != jsonOf(want) {
			t.Errorf("%d entrants: %s, want %s", n, jsonOf(f), jsonOf(want))
		}
	}
	for _, n := range []int{3, 9} {
		if _, err := MSMCFormat(n); err == nil {
			t.Errorf("%d entrants accepted", n)
		}
	}
}

// TestFiveEntrants: game one sends its winner, game two (the other four)
// its first three.
func TestFiveEntrants(t *testing.T) {
	tour, err := NewMSMC("t", []string{"a", "b", "c", "d", "e"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := tour.Add(Qualifier, 0, quickGame(t, "q1", [4]string{"d", "c", "b", "a"}, 2, 0)); err != nil {
		t.Fatal(err)
	}
	next, _ := tour.NextPlayers(Qualifier, 0)
	if strings.Join(next, " ") != "a c d e" {
		t.Fatalf("second game for %v, want everyone but b", next)
	}
	if err := tour.Add(Qualifier, 0, quickGame(t, "q2", [4]string{"a", "b", "d", "e"}, 0, 1)); err == nil {
		t.Fatal("b, already a finalist, was seated in game two")
	}
	if err := tour.Add(Qualifier, 0, quickGame(t, "q2", [4]string{"a", "c", "d", "e"}, 3, 2)); err != nil {
		t.Fatal(err)
	}
	// Game two: e +7,700, d −7,700, a and c even: c (seat 1) loses the
	// tie to a (seat 0).
	got, _ := tour.Finalists()
	if strings.Join(got, " ") != "b e a c" {
		t.Fatalf("finalists %v, want b e a c", got)
	}
	if tour.Format.FinalGames != 3 {
		t.Fatal("five entrants play three final games")
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// quickGame plays one hand: winner wins a dama ron off loser, then the
// organiser ends the game.
func quickGame(t *testing.T, id string, players [4]string, winner, loser int) *Game {
	t.Helper()
	g, err := NewGame(id, "t", "msmc-2016", players)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Record(ron(winner, loser)); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSevenEntrants: two tables, the second filled by the organiser, two
// games each; the best two combined scores of each table go on, never the
// organiser.
func TestSevenEntrants(t *testing.T) {
	tour, err := NewMSMC("t", []string{"a", "b", "c", "d", "e", "f", "g"}, "org")
	if err != nil {
		t.Fatal(err)
	}
	t1 := [4]string{"a", "b", "c", "d"}
	t2 := [4]string{"e", "f", "g", "org"}
	// Table 0: "a" (the dealer) takes 11,600 off "d", then "c" 7,700 off "d".
	for i, game := range []*Game{quickGame(t, "t0g1", t1, 0, 3), quickGame(t, "t0g2", t1, 2, 3)} {
		if err := tour.Add(Qualifier, 0, game); err != nil {
			t.Fatalf("table 0 game %d: %v", i+1, err)
		}
	}
	// Table 1: the organiser wins both games; he cannot go on.
	for _, game := range []*Game{quickGame(t, "t1g1", t2, 3, 0), quickGame(t, "t1g2", t2, 3, 1)} {
		if err := tour.Add(Qualifier, 1, game); err != nil {
			t.Fatal(err)
		}
	}
	if err := tour.Add(Qualifier, 1, quickGame(t, "x", t2, 0, 1)); err == nil {
		t.Fatal("a third game at table 1 was accepted")
	}
	// The combined scores by the test's own formula on each game's points.
	combined := map[string]int{}
	for _, p := range tour.Games {
		s := msmcByHand(p.Game.Final.Raw)
		for i, name := range p.Game.Players {
			combined[name] += s[i]
		}
	}
	best := func(names []string, n int) []string {
		var out []string
		for len(out) < n {
			top := ""
			for _, x := range names {
				if x == "org" || contains(out, x) {
					continue
				}
				if top == "" || combined[x] > combined[top] {
					top = x
				}
			}
			out = append(out, top)
		}
		return out
	}
	// A penalty at table 1 (talking about the game, 10 points) changes
	// table 1's order and nothing at table 0.
	if err := tour.Penalize(Penalty{Player: "e", Points: 10, Reason: "discussed the state of the game"}); err != nil {
		t.Fatal(err)
	}
	combined["e"] -= 10
	want := append(best(t1[:], 2), best(t2[:], 2)...)
	got, err := tour.Finalists()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || contains(got, "org") {
		t.Fatalf("finalists %v, want %v", got, want)
	}
	// By hand, table 1: e and f both −27 over two games (the draw order
	// would put e first), g −30; e's 10-point penalty leaves f and g.
	if strings.Join(got, " ") != "a c f g" {
		t.Fatalf("finalists %v, want a c f g", got)
	}
}

func TestMJAIExport(t *testing.T) {
	l := newLedger(t, "g", four)
	l.play(draw([]int{1}, 1), [4]int{-1000, 3000 - 1000, -1000, -1000}, 1)
	// The dealer was not ready: the deal passes with one honba (+300).
	l.play(ron(2, 0, 2), [4]int{-8300, 0, -1000 + 8300 + 2000, 0}, 0)
	var buf bytes.Buffer
	if err := l.g.MJAI(&buf); err != nil {
		t.Fatal(err)
	}
	var types []string
	var hora map[string]any
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		types = append(types, ev["type"].(string))
		if ev["type"] == "hora" {
			hora = ev
		}
	}
	want := "start_game start_kyoku reach reach_accepted ryukyoku end_kyoku start_kyoku reach reach_accepted hora end_kyoku end_game"
	if strings.Join(types, " ") != want {
		t.Fatalf("events %s", strings.Join(types, " "))
	}
	if hora["pai"] != "8s" || hora["hora_points"] != float64(8000) || len(hora["hora_tehais"].([]any)) != 13 {
		t.Fatalf("hora %v", hora)
	}
	if jsonOf(hora["scores"]) != jsonOf(l.g.Scores) {
		t.Fatalf("hora scores %v, game %v", hora["scores"], l.g.Scores)
	}
	m, _ := NewGame("m", "t", "mcr", four)
	if err := m.MJAI(&buf); err == nil {
		t.Fatal("an MCR game was written as MJAI")
	}
}

func TestSheetReplay(t *testing.T) {
	l := newLedger(t, "g", four)
	l.play(ron(1, 2, 1), [4]int{0, 8000, -8000, 0}, 0)
	l.play(draw([]int{0, 1}, 0), [4]int{-1000 + 1500, 1500, -1500, -1500}, 1)
	l.play(chombo(3), [4]int{2000, 4000, 2000, -8000}, 1)
	data, err := json.Marshal(l.g.Sheet())
	if err != nil {
		t.Fatal(err)
	}
	g, err := DecodeSheet(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Scores != l.g.Scores || g.Sticks != l.g.Sticks || len(g.Hands) != 3 {
		t.Fatalf("replayed %v %d, recorded %v %d", g.Scores, g.Sticks, l.g.Scores, l.g.Sticks)
	}
	if _, err := DecodeSheet([]byte(`{"rules":"msmc-2016","players":["a","b","c","d"],"plays":[{"outcome":"win","player":7}]}`), nil); err == nil {
		t.Fatal("a seat out of range was replayed")
	}
}

// FuzzDecodeSheet: any sheet either replays into a game whose scores
// balance or is refused with an error; it never panics.
func FuzzDecodeSheet(f *testing.F) {
	f.Add([]byte(`{"rules":"msmc-2016","players":["a","b","c","d"],"plays":[{"outcome":"draw","tenpai":[0],"riichi":[0]},{"outcome":"win","player":1,"from":-1,"hand":{"hand":"234m234p234s678s55p","win_tile":"8s"}}]}`))
	f.Add([]byte(`{"rules":"mcr","players":["a","b","c","d"],"plays":[{"outcome":"false_win","player":1,"false_win_kind":"below_minimum"}]}`))
	f.Add([]byte(`{"rules":"zung-jung","players":["a","b","c","d"],"plays":[{"outcome":"chombo","player":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := DecodeSheet(data, nil)
		if err != nil {
			return
		}
		if !g.Rules.Riichi {
			sum := 0
			for _, s := range g.Scores {
				sum += s
			}
			if sum != 0 {
				t.Fatalf("scores %v do not add up to 0", g.Scores)
			}
			return
		}
		if err := g.Balanced(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPoolOfDreams: a mangan paid as a self-draw at the draw, no tenpai
// payments, the sticks stay; a riichi without tenpai in the same hand is
// not a chombo (the win takes priority, seed 000).
func TestPoolOfDreams(t *testing.T) {
	l := newLedger(t, "g", four)
	p := draw([]int{0}, 1)
	p.PoolOfDreams = []int{2}
	// Seat 1 declared riichi (1,000 on the table) and is not tenpai.
	l.play(p, [4]int{-4000, -1000 - 2000, 8000, -2000}, 1)
	if l.g.RoundName() != "E1" || l.g.Honba() != 1 {
		t.Fatalf("the dealer was tenpai: %s honba %d, want E1 honba 1", l.g.RoundName(), l.g.Honba())
	}
	p = draw(nil)
	p.PoolOfDreams, p.DeadHands = []int{3}, []int{3}
	if _, err := l.g.Record(p); err == nil {
		t.Fatal("a dead hand earned a Pool of Dreams")
	}
	p = Play{Outcome: Chombo, Player: 1, PoolOfDreams: []int{2}}
	if _, err := l.g.Record(p); err == nil {
		t.Fatal("a Pool of Dreams outside a draw")
	}
}

// BenchmarkRecordWin measures settling one riichi win, engine included.
func BenchmarkRecordWin(b *testing.B) {
	for i := 0; i < b.N; i++ {
		g, _ := NewGame("g", "t", "msmc-2016", four)
		if _, err := g.Record(ron(1, 2, 1)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResponsibility: Big Three Dragons self-drawn, the third dragon pon
// fed by the player across: that player pays the whole yakuman (seed 000
// enables responsibility for it).
func TestResponsibility(t *testing.T) {
	l := newLedger(t, "g", four)
	p := Play{Outcome: Win, Player: 1, From: NoSeat, Hand: &scoring.Request{
		Hand: "123m99p666777z", WinTile: "9p",
		Melds:   []scoring.MeldSpec{{Type: "pon", Tiles: "555z", From: "across"}},
		Options: map[string]any{"pao": "across"},
	}}
	// Seat 1 (South) wins; across from South sits seat 3: 32,000.
	l.play(p, [4]int{0, 32000, 0, -32000}, 0)
}
