package mcr

import "mjscan/scoring"

// Payments settles a win of value points (flowers included) under seed
// 003: on a self-draw each other player pays value+8; on a discard the
// discarder pays value+8 and the two others 8 each. discarder is the
// discarder's seat wind when known ("" otherwise).
func Payments(rules *Rules, value int, selfDrawn bool, seat scoring.Wind, discarder string) (total int, out []scoring.Payment) {
	out = make([]scoring.Payment, 0, 3)
	full := value + rules.WinBonus
	if selfDrawn {
		for s := scoring.Wind(0); s < 4; s++ {
			if s != seat {
				out = append(out, scoring.Payment{From: s.String(), Amount: full})
			}
		}
		return 3 * full, out
	}
	d, err := scoring.WindEast, error(nil)
	if discarder != "" {
		d, err = scoring.ParseWind(discarder)
	}
	if discarder == "" || err != nil || d == seat {
		out = append(out,
			scoring.Payment{From: "discarder", Amount: full},
			scoring.Payment{From: "other player", Amount: rules.WinBonus},
			scoring.Payment{From: "other player", Amount: rules.WinBonus})
		return full + 2*rules.WinBonus, out
	}
	for s := scoring.Wind(0); s < 4; s++ {
		switch s {
		case seat:
		case d:
			out = append(out, scoring.Payment{From: s.String(), Amount: full, Note: "discarder"})
		default:
			out = append(out, scoring.Payment{From: s.String(), Amount: rules.WinBonus})
		}
	}
	return full + 2*rules.WinBonus, out
}

// FalseWin is why a declared win is refused.
type FalseWin uint8

const (
	// FalseWinBelowMinimum: a complete hand under the minimum points.
	FalseWinBelowMinimum FalseWin = iota + 1
	// FalseWinIllegalHand: not a winning hand at all (or the discard not
	// taken into the hand).
	FalseWinIllegalHand
)

// Penalty is what a false declaration costs (seed 000): the declarer pays
// each of the other three players, 10 points for a hand under 8 points and
// 20 for a hand that does not win. The declarer may not win again in that
// hand. seat is the declarer's seat wind.
func Penalty(rules *Rules, why FalseWin, seat scoring.Wind) (total int, out []scoring.Payment) {
	each := rules.PenaltyBelowMinimum
	note := "false win: under the minimum points"
	if why == FalseWinIllegalHand {
		each = rules.PenaltyIllegalHand
		note = "false win: not a winning hand"
	}
	out = make([]scoring.Payment, 0, 3)
	for s := scoring.Wind(0); s < 4; s++ {
		if s != seat {
			out = append(out, scoring.Payment{From: seat.String(), To: s.String(), Amount: each, Note: note})
		}
	}
	return 3 * each, out
}
