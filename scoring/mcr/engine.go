// Package mcr scores Mahjong Competition Rules (MCR, Chinese Official,
// Guobiao) hands: the 81 fans of seed 003 with the five scoring principles,
// the 8-point minimum, payments and false-win penalties.
//
// The fans are found the way ChineseOfficialMahjongHelper's calculator
// finds them (the reference the shared corpora come from): every
// arrangement of the hand is scored, fans implied by others are dropped
// (Non-Repeat), sets combine into chow and pung fans under the
// Non-Separation, Non-Identical and Account-Once principles, and the
// arrangement with the highest total is chosen. The others are listed in
// the breakdown for a referee.
package mcr

import (
	"mjscan/scoring"
)

// MCR is the Mahjong Competition Rules ("mcr").
var MCR = scoring.NewEngine(scoring.RuleSet[Rules, *handInput]{
	Name: "mcr", Presets: Presets, Default: "default", Options: options,
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// read reads a request's tiles in the notation it names, and who dealt in.
func read(r *scoring.Request) (*handInput, *scoring.Error) {
	hi := &handInput{}
	if err := parseRequest(r, hi); err != nil {
		return nil, err
	}
	if r.Extra != nil && r.Extra.Discarder != "" {
		if _, e := scoring.ParseWind(r.Extra.Discarder); e != nil {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "extra.discarder: %v", e)
		}
		hi.discarder = r.Extra.Discarder
	}
	return hi, nil
}

// parseRequest reads the request's tiles in the notation it names.
func parseRequest(r *scoring.Request, hi *handInput) *scoring.Error {
	switch r.Notation {
	case "", "contract":
		return parseContract(r, hi)
	case "mcr":
		return parseMCRRequest(r, hi)
	}
	return scoring.Errorf(scoring.CodeBadRequest, "unknown notation %q: MCR reads \"\" (CONTRACT tile codes) or \"mcr\" (the MCR tools' bracket notation)", r.Notation)
}

// score evaluates a checked hand: the reading with the highest total,
// explained with the others.
func score(hi *handInput, rules *Rules) scoring.Result {
	ev := evaluator{in: &hi.input, rules: rules}
	var best reading
	var seen []reading
	if !ev.evaluate(&best, &seen) {
		total, pays := Penalty(rules, FalseWinIllegalHand, scoring.Wind(hi.seat))
		return scoring.Result{
			Error: scoring.Errorf(scoring.CodeNotAWin,
				"not a winning hand: the tiles form neither four sets and a pair nor seven pairs, thirteen orphans, honors and knitted tiles or a knitted straight hand"),
			Breakdown: &Breakdown{Notation: formatInput(hi), Flowers: hi.flowers, Minimum: rules.Minimum, Rules: *rules,
				FalseWin: &PenaltyView{Reason: "not a winning hand", Total: total, Payments: pays}},
		}
	}
	res := scoring.Result{OK: true}
	res.Fan = best.total + hi.flowers
	res.Fans = fanList(&best.fans, hi.flowers, rules)
	if best.total < rules.Minimum {
		res.OK = false
		res.Error = scoring.Errorf(scoring.CodeBelowMinimum,
			"the hand scores %d points without flowers; a win needs at least %d", best.total, rules.Minimum)
	} else {
		res.Points.Total, res.Points.Payments = Payments(rules, res.Fan, hi.flags&flagSelfDrawn != 0, scoring.Wind(hi.seat), hi.discarder)
	}
	res.Breakdown = explainReading(hi, rules, &ev, &best, seen)
	return res
}

// fanList lists the fans of a table in official order, flowers last.
func fanList(ft *fanTable, flowers int, rules *Rules) []scoring.Fan {
	n := 0
	for i := 1; i < numFans; i++ {
		if ft[i] > 0 {
			n++
		}
	}
	if flowers > 0 {
		n++
	}
	out := make([]scoring.Fan, 0, n)
	for i := 1; i < numFans; i++ {
		if ft[i] > 0 {
			out = append(out, scoring.Fan{ID: i, Name: fanNames[i], Fan: fanValue(Fan(i), rules), Count: int(ft[i])})
		}
	}
	if flowers > 0 {
		out = append(out, scoring.Fan{ID: int(FlowerTiles), Name: fanNames[FlowerTiles], Fan: 1, Count: flowers})
	}
	return out
}

func fanValue(f Fan, rules *Rules) int {
	if f == TwoConcealedKongs {
		return rules.TwoConcealedKongs
	}
	return fanValues[f]
}
