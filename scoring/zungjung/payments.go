package zungjung

import (
	"fmt"

	"mjscan/scoring"
)

// Play is what a hand request does not say about the play of the hand.
//
// Who pays as the discarder of a discard win: seed 000's same-turn rule
// decides it from the go-around's discards, which a hand request does not
// carry, so the caller names the result:
//   - options.responsible (or extra.discarder): the seat wind of the player
//     who pays as the discarder — the first player in the go-around who
//     discarded one of the winner's winning tiles;
//   - options.passed_own_winning_tile: the winner discarded a winning tile
//     in the same go-around, so the win "is treated as a win by self-pick".
//
// Penalty tiles (seed 004, options.penalty_tiles): concealed tiles exposed
// illegally or after a false win; a claimed discard cannot complete a set
// or the pair with them.
type Play struct {
	Discarder   string // seat wind, "" when unknown
	AsSelfDrawn bool
	Penalty     []scoring.Tile
}

func playFor(r *scoring.Request, h *scoring.Hand) (Play, *scoring.Error) {
	var p Play
	name := ""
	if r.Extra != nil {
		name = r.Extra.Discarder
	}
	name, err := scoring.StringOption(r.Options, "responsible", name)
	if err != nil {
		return p, err
	}
	if name != "" {
		w, e := scoring.ParseWind(name)
		if e != nil {
			return p, scoring.Errorf(scoring.CodeBadRequest, "responsible / discarder: %v", e)
		}
		if w == h.Seat {
			return p, scoring.Errorf(scoring.CodeBadRequest, "the discarder (%s) is the winner's own seat: for a winner who passed their own winning tile set option passed_own_winning_tile", w)
		}
		p.Discarder = w.String()
	}
	if p.AsSelfDrawn, err = scoring.BoolOption(r.Options, "passed_own_winning_tile", false); err != nil {
		return p, err
	}
	pen, err := scoring.StringOption(r.Options, "penalty_tiles", "")
	if err != nil {
		return p, err
	}
	if p.Penalty, err = parsePenalty(pen); err != nil {
		return p, err
	}
	return p, nil
}

func parsePenalty(s string) ([]scoring.Tile, *scoring.Error) {
	ts, e := scoring.ParseTiles(s)
	if e != nil {
		return nil, scoring.Errorf(scoring.CodeBadRequest, "option penalty_tiles: %v", e)
	}
	for _, t := range ts {
		if !t.Playing() {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "option penalty_tiles: %s is not a suit or honor tile", t)
		}
	}
	return ts, nil
}

// checkPenalty refuses penalty tiles the concealed hand does not hold:
// they can never be part of a claimed meld (seed 004), and a winning
// discard is not one.
func checkPenalty(h *scoring.Hand, p []scoring.Tile) *scoring.Error {
	if len(p) == 0 {
		return nil
	}
	c := h.Counts()
	if !h.Tsumo {
		c[h.Win.Kind()]--
	}
	pc := scoring.CountOf(p)
	for k := scoring.Tile(0); k < scoring.NumKinds; k++ {
		if pc[k] > c[k] {
			return scoring.Errorf(scoring.CodeBadRequest, "option penalty_tiles: %d × %s, but the concealed hand holds %d before the winning discard; penalty tiles may not be melded (seed 004)", pc[k], k, c[k])
		}
	}
	return nil
}

// payments lists what each loser pays for a hand of value v (seed 000):
// on a self-draw everyone pays v; on a discard worth up to the par (25)
// everyone pays v; above it the two others pay the par and the discarder
// the rest of 3v. The winner always receives 3v.
func (f *facts) payments(v int, pay Play) ([]scoring.Payment, string) {
	h := f.h
	var others []string
	for w := scoring.Wind(0); w < 4; w++ {
		if w != h.Seat {
			others = append(others, w.String())
		}
	}
	everyone := func(why string) ([]scoring.Payment, string) {
		out := make([]scoring.Payment, 0, 3)
		for _, w := range others {
			out = append(out, scoring.Payment{From: w, Amount: v})
		}
		return out, why
	}
	par := f.rules.Par
	switch {
	case h.Tsumo:
		return everyone(fmt.Sprintf("self-draw: each player pays the value, %d", v))
	case pay.AsSelfDrawn:
		return everyone(fmt.Sprintf("the winner passed a winning tile earlier in the go-around: paid as a self-draw, each player pays %d", v))
	case f.rules.UniformPayoff:
		return everyone(fmt.Sprintf("uniform payoff: each player pays the value, %d", v))
	case v <= par:
		return everyone(fmt.Sprintf("discard win worth at most %d: each player pays the value, %d", par, v))
	}
	rest := 3*v - 2*par
	why := fmt.Sprintf("discard win worth more than %d: the two other players pay %d each, the discarder pays 3 × %d − %d = %d", par, par, v, 2*par, rest)
	if pay.Discarder == "" {
		return []scoring.Payment{
			{From: "discarder", Amount: rest},
			{From: "other player", Amount: par},
			{From: "other player", Amount: par},
		}, why
	}
	out := []scoring.Payment{{From: pay.Discarder, Amount: rest, Note: "discarder"}}
	for _, w := range others {
		if w != pay.Discarder {
			out = append(out, scoring.Payment{From: w, Amount: par})
		}
	}
	return out, why
}
