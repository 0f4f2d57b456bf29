package tournament

import (
	"errors"
	"fmt"

	"mjscan/scoring"
)

// Settling a hand is two steps. Settle works out, from the game as it
// stands and the hand the table reports, what the hand changes, and
// checks that the changes balance; it changes nothing, so it is also how a
// hand is validated. Apply then checks the balance again and makes the
// changes. A caller that must store the hand before the game takes it
// (the service writes it to the game's log) settles, stores, then applies,
// and has nothing to take back when storing fails.

// position is where a game stands between hands: the round (0 = East),
// the dealer's original seat, the repeat counter, and for fixed-length
// games the number of hands dealt.
type position struct{ round, dealer, honba, dealt int }

func (g *Game) position() position {
	return position{round: g.round, dealer: g.dealer, honba: g.honba, dealt: g.dealt}
}

// Settled is a hand settled against a game and not yet applied to it.
type Settled struct {
	// Hand is the hand as it will be recorded: its deltas, the scores
	// after it and the riichi sticks left on the table.
	Hand HandRecord
	// entries are the record-only entries the hand adds (WSM penalty
	// tiles).
	entries []Penalty
	// from is where the game stood when the hand was settled, next where
	// it goes once the hand is applied.
	from, next position
}

// Settle works out what hand p changes in the game, without changing the
// game. A hand that cannot be settled (a seat out of range, a win the
// engine does not accept) returns an error that says why.
func (g *Game) Settle(p Play) (*Settled, error) {
	if g.Over {
		return nil, ErrGameOver
	}
	if err := g.checkSeats(p); err != nil {
		return nil, err
	}
	s := &Settled{
		Hand: HandRecord{
			Number: len(g.Hands) + 1, Round: g.RoundName(), RoundWind: scoring.Wind(g.round).String(),
			Dealer: g.dealer, Honba: g.honba, SticksBefore: g.Sticks, Play: p,
		},
		from: g.position(),
	}
	var err error
	if g.Rules.Riichi {
		err = g.settleRiichi(s)
	} else {
		err = g.settleFixed(s)
	}
	if err != nil {
		return nil, err
	}
	for i, d := range s.Hand.Deltas {
		s.Hand.Scores[i] = g.Scores[i] + d
	}
	if err := g.checkBalance(&s.Hand); err != nil {
		return nil, fmt.Errorf("hand %d: %w (this is a bug; the hand was not recorded)", s.Hand.Number, err)
	}
	return s, nil
}

// errStale refuses a settlement made at another point of the game.
var errStale = errors.New("the hand was settled against the game as it stood before another change: settle it again")

// Apply records a settled hand: the scores and sticks move, the hand is
// appended and the deal moves on (the game ends when the hand ends it).
// A settlement that does not balance, or that was made before the game
// last changed, is refused and the game is left as it was.
func (g *Game) Apply(s *Settled) (*HandRecord, error) {
	if g.Over {
		return nil, ErrGameOver
	}
	if s.from != g.position() || s.Hand.Number != len(g.Hands)+1 || s.Hand.SticksBefore != g.Sticks {
		return nil, errStale
	}
	if err := g.checkBalance(&s.Hand); err != nil {
		return nil, fmt.Errorf("hand %d: %w (the hand was not recorded)", s.Hand.Number, err)
	}
	g.Scores, g.Sticks = s.Hand.Scores, s.Hand.SticksAfter
	g.Entries = append(g.Entries, s.entries...)
	g.Hands = append(g.Hands, s.Hand)
	g.round, g.dealer, g.honba, g.dealt = s.next.round, s.next.dealer, s.next.honba, s.next.dealt
	if g.endsAt(s.next) {
		g.End()
	}
	return &g.Hands[len(g.Hands)-1], nil
}

// checkBalance checks a settled hand against the game it is for: what the
// players gain and pay is what the riichi sticks on the table lose and
// gain (a win takes the sticks, a declaration puts one down; every other
// payment goes from player to player, honba included), the scores after
// are the scores before plus the changes, and scores and sticks still add
// up to the starting total.
func (g *Game) checkBalance(h *HandRecord) error {
	moved := 0
	for _, d := range h.Deltas {
		moved += d
	}
	if fromSticks := (h.SticksBefore - h.SticksAfter) * riichiBet; moved != fromSticks {
		return fmt.Errorf("the hand does not balance: the players gain %d in all, the riichi sticks on the table give %d", moved, fromSticks)
	}
	for i, d := range h.Deltas {
		if h.Scores[i] != g.Scores[i]+d {
			return fmt.Errorf("the hand does not balance: %s's score after it is %d, not %d%+d", g.Players[i], h.Scores[i], g.Scores[i], d)
		}
	}
	sum := h.SticksAfter * riichiBet
	for _, v := range h.Scores {
		sum += v
	}
	if sum != g.total() {
		return fmt.Errorf("the hand does not balance: %d on the table and in hands, %d expected", sum, g.total())
	}
	return nil
}

// endsAt says whether the game is over once it stands at next with its
// current scores: a riichi game after South 4 or a bust, a fixed-length
// game after its last hand.
func (g *Game) endsAt(next position) bool {
	if !g.Rules.Riichi {
		return next.dealt >= g.Rules.Hands
	}
	if next.round >= 2 {
		return true
	}
	if g.Rules.EndOnBust {
		for _, s := range g.Scores {
			if s < 0 {
				return true
			}
		}
	}
	return false
}

// Correction is a game with one hand corrected, settled and not yet put
// in place: Game.SettleCorrection works it out, Game.ApplyCorrection
// makes it the game.
type Correction struct {
	// Hand is the corrected hand as it will be recorded.
	Hand HandRecord
	// game is the whole game replayed with the correction; from is where
	// the game stood, and how many hands it had, when it was worked out.
	game  *Game
	from  position
	hands int
}

// SettleCorrection works out the game with hand n (counted from 1)
// replaced by p: the hands before it stand, p is settled where hand n
// was, and every later hand is settled again after it, in order, so the
// scores are as if hand n had been p. The game does not change. A
// correction after which a later hand no longer settles (the game would
// have ended before it, say) is refused, naming the hand and why. A game
// that was over stays over: its hands were played.
func (g *Game) SettleCorrection(n int, p Play) (*Correction, error) {
	if n < 1 || n > len(g.Hands) {
		if len(g.Hands) == 0 {
			return nil, fmt.Errorf("hand %d: the game has no hands to correct yet", n)
		}
		return nil, fmt.Errorf("hand %d: the game has hands 1 to %d", n, len(g.Hands))
	}
	fresh := &Game{ID: g.ID, Table: g.Table, Rules: g.Rules, Players: g.Players, score: g.score}
	for i := range fresh.Scores {
		fresh.Scores[i] = g.Rules.StartPoints
	}
	for i, h := range g.Hands {
		play := h.Play
		if i == n-1 {
			play = p
		}
		if fresh.Over {
			return nil, fmt.Errorf("with hand %d corrected the game ends after hand %d, but %d hands were played: correct the later hands first, or this one otherwise", n, i, len(g.Hands))
		}
		rec, err := fresh.Record(play)
		if err != nil {
			if i == n-1 {
				return nil, err
			}
			return nil, fmt.Errorf("with hand %d corrected, hand %d no longer settles: %w", n, i+1, err)
		}
		rec.Corrections = h.Corrections
		if i == n-1 {
			rec.Corrections++
		}
	}
	if g.Over {
		fresh.End()
	}
	fresh.Corrected = append(append([]HandRecord{}, g.Corrected...), g.Hands[n-1])
	return &Correction{Hand: fresh.Hands[n-1], game: fresh, from: g.position(), hands: len(g.Hands)}, nil
}

// ApplyCorrection puts a settled correction in place. One worked out
// before the game last changed is refused, and the game is left as it
// was.
func (g *Game) ApplyCorrection(c *Correction) (*HandRecord, error) {
	if c.from != g.position() || c.hands != len(g.Hands) {
		return nil, errStale
	}
	*g = *c.game
	return &g.Hands[c.Hand.Number-1], nil
}
