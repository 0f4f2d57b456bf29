package riichi

import "mjscan/scoring"

// basePoints is fu × 2^(han+2) with the limits applied.
func (rules *Rules) basePoints(han, fu int) (int, string) {
	switch {
	case han >= 13:
		if rules.KazoeYakuman {
			return 8000, "yakuman"
		}
		return 6000, "sanbaiman"
	case han >= 11:
		return 6000, "sanbaiman"
	case han >= 8:
		return 4000, "baiman"
	case han >= 6:
		return 3000, "haneman"
	case han == 5:
		return 2000, "mangan"
	}
	if rules.KiriageMangan && ((han == 4 && fu == 30) || (han == 3 && fu == 60)) {
		return 2000, "mangan"
	}
	b := fu << (han + 2)
	if b >= 2000 {
		return 2000, "mangan"
	}
	return b, ""
}

func roundUp100(n int) int { return (n + 99) / 100 * 100 }

// payTotal is what the winner receives for basic points b, honba and
// riichi sticks included.
func (f *facts) payTotal(b int) int {
	total := 0
	for _, p := range f.payments(b, nil) {
		total += p.Amount
	}
	return total
}

// payments lists who pays the winner what. resp, when not nil, is the
// player responsible (pao) for the yakuman.
func (f *facts) payments(b int, resp *responsibility) []scoring.Payment {
	h := f.h
	dealer := h.Dealer()
	var out []scoring.Payment
	sticks := h.RiichiSticks * 1000
	if !h.Tsumo {
		mult := 4
		if dealer {
			mult = 6
		}
		amount := roundUp100(b*mult) + 300*h.Honba
		if resp != nil && resp.applies {
			half := roundUp100(b*mult) / 2
			out = append(out,
				scoring.Payment{From: "discarder", Amount: half + 300*h.Honba},
				scoring.Payment{From: resp.from, Amount: half, Note: "responsibility (pao)"})
		} else {
			out = append(out, scoring.Payment{From: "discarder", Amount: amount})
		}
	} else {
		seats := 4
		if f.rules.Sanma {
			seats = 3 // no North seat: the tsumo share of North is simply not paid
		}
		if resp != nil && resp.applies {
			mult := 4
			if dealer {
				mult = 6
			}
			out = append(out, scoring.Payment{From: resp.from, Amount: roundUp100(b*mult) + 100*h.Honba*(seats-1), Note: "responsibility (pao): pays the whole self-draw"})
		} else {
			for s := scoring.Wind(0); int(s) < seats; s++ {
				if s == h.Seat {
					continue
				}
				amount := roundUp100(b)
				if dealer || s == scoring.WindEast {
					amount = roundUp100(2 * b)
				}
				out = append(out, scoring.Payment{From: s.String(), Amount: amount + 100*h.Honba})
			}
		}
	}
	if sticks > 0 {
		out = append(out, scoring.Payment{From: "riichi sticks", Amount: sticks})
	}
	return out
}

// responsibility is a pao assignment for one win.
type responsibility struct {
	applies bool
	from    string
}
