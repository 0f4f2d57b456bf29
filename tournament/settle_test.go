package tournament

import (
	"fmt"
	"strings"
	"testing"

	"mjscan/scoring"
)

// snapshot is everything a game is: its JSON and the deal position the
// JSON does not carry.
func snapshot(t *testing.T, g *Game) string {
	t.Helper()
	return jsonOf(g) + fmt.Sprintf(" at %+v", g.position())
}

// settleCase is a game brought to some point and the hand then reported.
type settleCase struct {
	name  string
	rules string
	// before is played first; play is settled (and then applied).
	before []Play
	play   Play
	// refused: Settle must refuse the hand.
	refused bool
}

func settleCases() []settleCase {
	riichiClaim := ron(1, 0)
	riichiClaim.Hand.Riichi = true
	deadDraw := draw(nil)
	deadDraw.PoolOfDreams, deadDraw.DeadHands = []int{3}, []int{3}
	var eightDraws []Play
	for i := 0; i < 7; i++ {
		eightDraws = append(eightDraws, draw(nil))
	}
	var sevenWSM []Play
	for i := 0; i < 7; i++ {
		sevenWSM = append(sevenWSM, Play{Outcome: Draw})
	}
	return []settleCase{
		// Riichi sticks and honba on the table, taken by the winner.
		{name: "riichi win with sticks and honba", rules: "msmc-2016", before: []Play{draw([]int{0, 1}, 1)}, play: ron(2, 3, 2)},
		{name: "riichi self-draw by the dealer", rules: "msmc-2016", play: tsumo(0, 0)},
		{name: "exhaustive draw with tenpai payments", rules: "msmc-2016", play: draw([]int{1, 2}, 2)},
		{name: "chombo returns this hand's bets", rules: "msmc-2016", before: []Play{draw([]int{0}, 0)}, play: chombo(1, 2)},
		{name: "Pool of Dreams", rules: "msmc-2016", play: Play{Outcome: Draw, Tenpai: []int{0}, PoolOfDreams: []int{2}}},
		{name: "the bust that ends the game", rules: "msmc-2016", before: []Play{ron(0, 3, 0), ron(0, 3, 0)}, play: tsumo(0, 0)},
		{name: "South 4 ends the game", rules: "msmc-2016", before: eightDraws, play: draw(nil)},
		{name: "riichi claimed without a declaration", rules: "msmc-2016", play: riichiClaim, refused: true},
		{name: "dead hand's Pool of Dreams", rules: "msmc-2016", play: deadDraw, refused: true},
		{name: "riichi without tenpai at the draw", rules: "msmc-2016", play: draw(nil, 1), refused: true},
		{name: "MCR win on a discard", rules: "mcr", play: Play{Outcome: Win, Player: 1, From: 2, Hand: &scoring.Request{Hand: "19m19p19s12344567z", WinTile: "4z"}}},
		{name: "MCR false win", rules: "mcr", play: Play{Outcome: FalseWin, Player: 3, From: 0, Hand: &scoring.Request{Hand: "123m345p567s678s99m", WinTile: "9m"}}},
		{name: "MCR false win that is a win", rules: "mcr", play: Play{Outcome: FalseWin, Player: 1, From: 2, Hand: &scoring.Request{Hand: "19m19p19s12344567z", WinTile: "4z"}}, refused: true},
		{name: "MCR chombo", rules: "mcr", play: chombo(1), refused: true},
		{name: "WSM false win makes penalty tiles", rules: "wsm", play: Play{Outcome: FalseWin, Player: 2, FalseWinKind: scoring.CodeBelowMinimum, PenaltyTiles: "123m45p"}},
		{name: "WSM's last hand ends the game", rules: "wsm", before: sevenWSM, play: Play{Outcome: Draw}},
		{name: "Zung Jung win", rules: "zung-jung", play: Play{Outcome: Win, Player: 1, From: 2, Hand: &scoring.Request{Hand: "11223344556677z", WinTile: "7z"}}},
		{name: "a seat out of range", rules: "zung-jung", play: Play{Outcome: Win, Player: 4, From: 2, Hand: winHand()}, refused: true},
	}
}

func (c settleCase) game(t *testing.T) *Game {
	t.Helper()
	g, err := NewGame("g", "t", c.rules, four)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range c.before {
		if _, err := g.Record(p); err != nil {
			t.Fatalf("hand %d before: %v", i+1, err)
		}
	}
	return g
}

// TestSettleChangesNothing: settling a hand only computes; the game is
// byte for byte what it was, whether the hand settles or is refused, and
// applying the settlement then gives what recording the hand gives.
func TestSettleChangesNothing(t *testing.T) {
	for _, c := range settleCases() {
		t.Run(c.name, func(t *testing.T) {
			g := c.game(t)
			before := snapshot(t, g)
			s, err := g.Settle(c.play)
			if after := snapshot(t, g); after != before {
				t.Fatalf("settling changed the game:\nbefore %s\nafter  %s", before, after)
			}
			if c.refused {
				if err == nil {
					t.Fatal("the hand was settled, want it refused")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Settling twice gives the same settlement: nothing of the
			// first stayed behind.
			again, err := g.Settle(c.play)
			if err != nil || jsonOf(again.Hand) != jsonOf(s.Hand) {
				t.Fatalf("a second settling differs: %v\n%s\n%s", err, jsonOf(s.Hand), jsonOf(again.Hand))
			}
			rec, err := g.Apply(s)
			if err != nil {
				t.Fatal(err)
			}
			twin := c.game(t)
			want, err := twin.Record(c.play)
			if err != nil {
				t.Fatal(err)
			}
			if jsonOf(rec) != jsonOf(want) || snapshot(t, g) != snapshot(t, twin) {
				t.Fatalf("settle and apply differ from record:\n%s\n%s", snapshot(t, g), snapshot(t, twin))
			}
			if err := g.Balanced(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestApplyChecksTheBalance: a settlement whose changes do not add up as
// the rules say (points from nowhere, riichi sticks that vanish, scores
// that do not follow from the changes) is refused, and the game is left
// as it was.
func TestApplyChecksTheBalance(t *testing.T) {
	tamper := map[string]func(*Settled){
		"points from nowhere": func(s *Settled) { s.Hand.Deltas[0] += 1000; s.Hand.Scores[0] += 1000 },
		"a payment nobody received": func(s *Settled) {
			s.Hand.Deltas[3] -= 300
			s.Hand.Scores[3] -= 300
		},
		"a riichi stick from nowhere":           func(s *Settled) { s.Hand.SticksAfter++ },
		"scores that do not follow the changes": func(s *Settled) { s.Hand.Scores[1] -= 100; s.Hand.Scores[2] += 100 },
		"the points of the sticks kept twice":   func(s *Settled) { s.Hand.SticksAfter = s.Hand.SticksBefore },
	}
	for name, spoil := range tamper {
		t.Run(name, func(t *testing.T) {
			g, _ := NewGame("g", "t", "msmc-2016", four)
			if _, err := g.Record(draw([]int{0}, 0)); err != nil { // a stick and a honba on the table
				t.Fatal(err)
			}
			s, err := g.Settle(ron(1, 2, 1))
			if err != nil {
				t.Fatal(err)
			}
			spoil(s)
			before := snapshot(t, g)
			if _, err := g.Apply(s); err == nil || !strings.Contains(err.Error(), "balance") {
				t.Fatalf("an unbalanced settlement: %v, want refused for its balance", err)
			}
			if after := snapshot(t, g); after != before {
				t.Fatalf("a refused settlement changed the game:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// TestApplyRefusesAStaleSettlement: a settlement made before another hand
// was recorded no longer fits the game.
func TestApplyRefusesAStaleSettlement(t *testing.T) {
	g, _ := NewGame("g", "t", "msmc-2016", four)
	first, err := g.Settle(draw([]int{0}))
	if err != nil {
		t.Fatal(err)
	}
	second, err := g.Settle(draw([]int{0}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(first); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, g)
	if _, err := g.Apply(second); err == nil {
		t.Fatal("a settlement made for hand 1 was applied as hand 2")
	}
	if snapshot(t, g) != before {
		t.Fatal("a stale settlement changed the game")
	}
	g.End()
	if _, err := g.Apply(first); err != ErrGameOver {
		t.Fatalf("applying to an ended game: %v", err)
	}
}

// TestTournamentChecksChangeNothing: checking a game for a tournament, or
// a penalty, leaves both the tournament and the game as they were; Add
// then ends the game and Penalize records the penalty CheckPenalty gave.
func TestTournamentChecksChangeNothing(t *testing.T) {
	tour, err := NewMSMC("t", []string{"a", "b", "c", "d", "e", "f"}, "")
	if err != nil {
		t.Fatal(err)
	}
	wrong := quickGame(t, "q0", [4]string{"a", "b", "c", "e"}, 0, 1)
	right := quickGame(t, "q1", [4]string{"d", "c", "b", "a"}, 2, 0)
	tourBefore, wrongBefore, rightBefore := jsonOf(tour), snapshot(t, wrong), snapshot(t, right)
	if err := tour.CheckAdd(Qualifier, 0, wrong); err == nil {
		t.Fatal("a game of the wrong players passed the check")
	}
	if err := tour.CheckAdd(Qualifier, 1, right); err == nil {
		t.Fatal("a game at a table the stage does not have passed the check")
	}
	if err := tour.CheckAdd(Qualifier, 0, right); err != nil {
		t.Fatal(err)
	}
	if jsonOf(tour) != tourBefore || snapshot(t, wrong) != wrongBefore || snapshot(t, right) != rightBefore {
		t.Fatal("checking changed the tournament or a game")
	}
	if right.Over {
		t.Fatal("the check ended the game")
	}
	if err := tour.Add(Qualifier, 0, right); err != nil {
		t.Fatal(err)
	}
	if !right.Over || len(tour.Games) != 1 {
		t.Fatal("Add did not end and keep the game")
	}

	tourBefore = jsonOf(tour)
	for _, bad := range []Penalty{
		{Player: "a", Points: 1 << 62, Reason: "talk"},
		{Player: "z", Points: 2, Reason: "talk"},
		{Player: "a", Points: 2, Stage: "semi"},
	} {
		if _, err := tour.CheckPenalty(bad); err == nil {
			t.Fatalf("penalty %+v passed the check", bad)
		}
	}
	p, err := tour.CheckPenalty(Penalty{Player: "a", Points: 2, Reason: "a dropped tile"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Stage != string(Qualifier) {
		t.Fatalf("the penalty's stage is %q, want the stage being played, %q", p.Stage, Qualifier)
	}
	if jsonOf(tour) != tourBefore {
		t.Fatal("checking a penalty changed the tournament")
	}
	if err := tour.Penalize(p); err != nil {
		t.Fatal(err)
	}
	if len(tour.Penalties) != 1 || tour.Penalties[0] != p {
		t.Fatalf("penalties %+v, want %+v", tour.Penalties, p)
	}
}

// TestCorrectHand (#18): a hand recorded wrongly could not be corrected.
// A correction replaces it where it was and settles every later hand
// again: the scores are as if it had been played so, the hand replaced
// is kept (no longer counting), and a correction that does not settle
// changes nothing.
func TestCorrectHand(t *testing.T) {
	players := [4]string{"a", "b", "c", "d"}
	g, err := NewGame("Q1", "table 1", "msmc-2016", players)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Play{ron(1, 2), draw([]int{0})} {
		if _, err := g.Record(p); err != nil {
			t.Fatal(err)
		}
	}
	// The same hands played right: b won off d, not c.
	want, _ := NewGame("Q1", "table 1", "msmc-2016", players)
	for _, p := range []Play{ron(1, 3), draw([]int{0})} {
		if _, err := want.Record(p); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, g)
	for _, bad := range []struct {
		n int
		p Play
	}{{0, ron(1, 3)}, {3, ron(1, 3)}, {1, ron(1, 1)}, {1, Play{Outcome: "nope"}}} {
		if _, err := g.SettleCorrection(bad.n, bad.p); err == nil {
			t.Errorf("correcting hand %d to %+v was accepted", bad.n, bad.p)
		}
	}
	c, err := g.SettleCorrection(1, ron(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	if snapshot(t, g) != before {
		t.Fatal("settling a correction changed the game")
	}
	rec, err := g.ApplyCorrection(c)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Number != 1 || rec.Corrections != 1 || rec.Play.From != 3 {
		t.Errorf("corrected hand %+v", rec)
	}
	if g.Scores != want.Scores || g.Sticks != want.Sticks || g.position() != want.position() || len(g.Hands) != 2 {
		t.Errorf("corrected game: scores %v sticks %d at %+v, want %v %d at %+v", g.Scores, g.Sticks, g.position(), want.Scores, want.Sticks, want.position())
	}
	if len(g.Corrected) != 1 || g.Corrected[0].Play.From != 2 || g.Corrected[0].Number != 1 {
		t.Errorf("the hand replaced is not kept: %+v", g.Corrected)
	}
	if err := g.Balanced(); err != nil {
		t.Error(err)
	}
	// A correction worked out before the game changed is refused.
	stale, err := g.SettleCorrection(2, draw([]int{0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Record(draw(nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.ApplyCorrection(stale); err == nil {
		t.Error("a stale correction was applied")
	}
	if !strings.Contains(fmt.Sprint(g.SettleCorrection(9, draw(nil))), "hands 1 to 3") {
		t.Error("a hand out of range does not say which hands there are")
	}
}
