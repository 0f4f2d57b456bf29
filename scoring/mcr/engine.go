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

// Engine scores "mcr" requests.
type Engine struct{}

// New returns the MCR engine.
func New() Engine { return Engine{} }

func (Engine) Name() string { return "mcr" }

func (Engine) Presets() []string { return Presets.Names() }

// Score scores one CONTRACT request.
func (Engine) Score(r *scoring.Request) scoring.Result {
	rules, err := RulesFor(r)
	if err != nil {
		return scoring.Fail(r, err)
	}
	var hi handInput
	if err := parseRequest(r, &hi); err != nil {
		return scoring.Fail(r, err)
	}
	if r.Extra != nil && r.Extra.Discarder != "" {
		if _, e := scoring.ParseWind(r.Extra.Discarder); e != nil {
			return scoring.Fail(r, scoring.Errorf(scoring.CodeBadRequest, "extra.discarder: %v", e))
		}
	}
	res := score(&hi, &rules, r, true)
	res.ID, res.Rules, res.Preset = r.ID, r.Rules, rules.Name
	return res
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

// Evaluate scores a request with no explanation built: the fan total
// (flowers included), the fans and the error, for batch use.
func Evaluate(r *scoring.Request) (scoring.Result, *scoring.Error) {
	rules, err := RulesFor(r)
	if err != nil {
		return scoring.Result{}, err
	}
	var hi handInput
	if err := parseRequest(r, &hi); err != nil {
		return scoring.Result{}, err
	}
	res := score(&hi, &rules, r, false)
	return res, res.Error
}

// score evaluates a checked hand and builds the result; explain adds the
// breakdown.
func score(hi *handInput, rules *Rules, r *scoring.Request, explain bool) scoring.Result {
	ev := evaluator{in: &hi.input, rules: rules}
	var best reading
	var seen []reading
	var collect *[]reading
	if explain {
		collect = &seen
	}
	if !ev.evaluate(&best, collect) {
		res := scoring.Result{Error: scoring.Errorf(scoring.CodeNotAWin,
			"not a winning hand: the tiles form neither four sets and a pair nor seven pairs, thirteen orphans, honors and knitted tiles or a knitted straight hand")}
		if explain {
			total, pays := Penalty(rules, FalseWinIllegalHand, scoring.Wind(hi.seat))
			res.Breakdown = &Breakdown{Notation: formatInput(hi), Flowers: hi.flowers, Minimum: rules.Minimum, Rules: *rules,
				FalseWin: &PenaltyView{Reason: "not a winning hand", Total: total, Payments: pays}}
		}
		return res
	}
	res := scoring.Result{OK: true}
	res.Fan = best.total + hi.flowers
	res.Fans = fanList(&best.fans, hi.flowers, rules)
	if best.total < rules.Minimum {
		res.OK = false
		res.Error = scoring.Errorf(scoring.CodeBelowMinimum,
			"the hand scores %d points without flowers; a win needs at least %d", best.total, rules.Minimum)
	} else if explain {
		res.Points.Total, res.Points.Payments = Payments(rules, res.Fan, hi.flags&flagSelfDrawn != 0, scoring.Wind(hi.seat), discarder(r))
	} else {
		res.Points.Total = PointsTotal(rules, res.Fan, hi.flags&flagSelfDrawn != 0)
	}
	if explain {
		res.Breakdown = explainReading(hi, rules, &ev, &best, seen)
	}
	return res
}

func discarder(r *scoring.Request) string {
	if r.Extra == nil {
		return ""
	}
	return r.Extra.Discarder
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
