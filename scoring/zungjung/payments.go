package zungjung

import (
	"fmt"

	"mjscan/scoring"
)

// payer says who pays as the discarder of a discard win. Seed 000's
// same-turn rule decides it from the go-around's discards, which a hand
// request does not carry, so the caller names the result:
//   - options.responsible (or extra.discarder): the seat wind of the player
//     who pays as the discarder — the first player in the go-around who
//     discarded one of the winner's winning tiles;
//   - options.passed_own_winning_tile: the winner discarded a winning tile
//     in the same go-around, so the win "is treated as a win by self-pick".
type payer struct {
	discarder   string // seat wind, "" when unknown
	asSelfDrawn bool
}

func payerFor(r *scoring.Request, h *scoring.Hand) (payer, *scoring.Error) {
	var p payer
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
		p.discarder = w.String()
	}
	if p.asSelfDrawn, err = scoring.BoolOption(r.Options, "passed_own_winning_tile", false); err != nil {
		return p, err
	}
	return p, nil
}

// payments lists what each loser pays for a hand of value v (seed 000):
// on a self-draw everyone pays v; on a discard worth up to the par (25)
// everyone pays v; above it the two others pay the par and the discarder
// the rest of 3v. The winner always receives 3v.
func (f *facts) payments(v int, pay payer) ([]scoring.Payment, string) {
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
	case pay.asSelfDrawn:
		return everyone(fmt.Sprintf("the winner passed a winning tile earlier in the go-around: paid as a self-draw, each player pays %d", v))
	case f.rules.UniformPayoff:
		return everyone(fmt.Sprintf("uniform payoff: each player pays the value, %d", v))
	case v <= par:
		return everyone(fmt.Sprintf("discard win worth at most %d: each player pays the value, %d", par, v))
	}
	rest := 3*v - 2*par
	why := fmt.Sprintf("discard win worth more than %d: the two other players pay %d each, the discarder pays 3 × %d − %d = %d", par, par, v, 2*par, rest)
	if pay.discarder == "" {
		return []scoring.Payment{
			{From: "discarder", Amount: rest},
			{From: "other player", Amount: par},
			{From: "other player", Amount: par},
		}, why
	}
	out := []scoring.Payment{{From: pay.discarder, Amount: rest, Note: "discarder"}}
	for _, w := range others {
		if w != pay.discarder {
			out = append(out, scoring.Payment{From: w, Amount: par})
		}
	}
	return out, why
}
