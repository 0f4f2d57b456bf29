// Package zungjung scores Zung Jung (Alan Kwan's ZJ v3.3) and the World
// Series of Mahjong (seed 004), which plays Zung Jung's pattern table with a
// 5-point minimum. Both are values of Rules; the CONTRACT rules names
// "zung-jung" and "wsm" pick their default preset.
//
// Presets: "zung-jung", "wsm", "zung-jung-uniform" (Uniform Payoff Scheme).
// Options: minimum (points), chicken_hand, uniform_payoff,
// nine_gates_on_heaven; and facts of play a hand request does not carry:
// responsible (seat wind paying as the discarder under seed 000's
// same-turn rule; extra.discarder also names the discarder),
// passed_own_winning_tile (paid as a self-draw), penalty_tiles (seed 004).
//
// The result has value (after the limit), patterns (table names; a single
// pattern worth the 320 limit or more is listed alone), points.total
// (always 3 × value) with the payments, and a breakdown: the arrangement,
// every counted pattern with its table number and set, and the other
// arrangements considered (freedom of count).
package zungjung

import (
	"mjscan/scoring"
)

// Rules is one way to count a Zung Jung hand.
type Rules struct {
	Name string

	// Minimum is the least value a hand needs to win: 0 in Zung Jung (a
	// hand without pattern is a Chicken Hand worth 1), 5 in the World
	// Series (seed 004: "A hand must contain at least 5 points (i.e. any
	// one pattern) in order to win").
	Minimum int
	// ChickenHand scores a legal hand without pattern at 1 point (seed 000:
	// "Basic Zung Jung always allows chicken wins").
	ChickenHand bool
	// Limit caps a hand whose patterns together exceed it; a single pattern
	// worth more counts alone at its own value (seed 000; ZJ §"limit").
	Limit int
	// NineGatesOnHeaven counts Nine Gates in East's dealt hand. The World
	// Series does not: "East starts a hand with 14 dealt tiles, and no tile
	// is considered drawn. Thus Nine Gates cannot be counted for a Blessing
	// of Heaven hand" (seed 004).
	NineGatesOnHeaven bool
	// Par is the discard-win value up to which everyone pays the value;
	// above it the two other players pay Par each and the discarder the
	// rest of three times the value (seed 000, the "par 25" scheme).
	Par int
	// SeabedNoKong: "The player who draws the seabed tile may not declare
	// a kong" (seed 004), and supplements come from the dead wall, so a
	// win on a kong supplement is never a Final Draw in the World Series.
	// Zung Jung lets Win on Kong add to Final Draw when the supplement is
	// the last tile (ZJ 9.2).
	SeabedNoKong bool
	// UniformPayoff makes everyone pay the value on every win (Alan Kwan's
	// Uniform Payoff Scheme, an optional ZJ variant).
	UniformPayoff bool
}

// Presets are the named rule sets.
var Presets = scoring.Presets[Rules]{
	"zung-jung": {Name: "zung-jung", ChickenHand: true, Limit: 320, NineGatesOnHeaven: true, Par: 25},
	"wsm":       {Name: "wsm", Minimum: 5, Limit: 320, Par: 25, SeabedNoKong: true},
	// Zung Jung with the uniform payoff: the winner still receives three
	// times the value, but the discarder pays no more than the others.
	"zung-jung-uniform": {Name: "zung-jung-uniform", ChickenHand: true, Limit: 320, NineGatesOnHeaven: true, Par: 25, UniformPayoff: true},
}

// options are the options Zung Jung reads: the rule switches, then the
// facts of play a hand request does not carry (Play).
var options = []string{"minimum", "chicken_hand", "uniform_payoff", "nine_gates_on_heaven", "responsible", "passed_own_winning_tile", "penalty_tiles"}

// WithOptions applies CONTRACT options to a copy of the rules.
func (rules Rules) WithOptions(opts map[string]any) (Rules, *scoring.Error) {
	if len(opts) == 0 {
		return rules, nil
	}
	var err *scoring.Error
	if rules.Minimum, err = scoring.IntOption(opts, "minimum", rules.Minimum); err != nil {
		return rules, err
	}
	if rules.Minimum < 0 || rules.Minimum > 480 {
		return rules, scoring.Errorf(scoring.CodeBadRequest, "option minimum: want 0 to 480 points, got %d", rules.Minimum)
	}
	if rules.ChickenHand, err = scoring.BoolOption(opts, "chicken_hand", rules.ChickenHand); err != nil {
		return rules, err
	}
	if rules.UniformPayoff, err = scoring.BoolOption(opts, "uniform_payoff", rules.UniformPayoff); err != nil {
		return rules, err
	}
	if rules.NineGatesOnHeaven, err = scoring.BoolOption(opts, "nine_gates_on_heaven", rules.NineGatesOnHeaven); err != nil {
		return rules, err
	}
	return rules, nil
}
