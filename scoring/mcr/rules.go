package mcr

import (
	"mjscan/scoring"
)

// Rules is one edition of the MCR rules. Presets are values of it; the
// request's options override single fields.
type Rules struct {
	Name string `json:"name"`
	// TwoConcealedKongs is the value of fan 53: 8 in the seed's table
	// (World Mahjong Organization, 2014), 6 in the 1998/2006 rule book.
	TwoConcealedKongs int `json:"two_concealed_kongs"`
	// Minimum is the points a hand needs, flowers not counted, to be
	// declared a win.
	Minimum int `json:"minimum"`
	// WinBonus is what every other player pays on top of the hand's value
	// (the discarder pays value+bonus, the others the bonus).
	WinBonus int `json:"win_bonus"`
	// MeldedHandAddedKong lets a hand with a kong added to a claimed pung
	// score Melded Hand, as the reference calculator and the corpora do.
	// Seed 003 says such a hand "is not valid for Melded Hand": set the
	// option melded_hand_added_kong to false for that reading.
	MeldedHandAddedKong bool `json:"melded_hand_added_kong"`
	// AllTerminalsDoublePung counts Double Pung beside All Terminals, as
	// seed 003's example does ("with two Mixed Double Pung"); the reference
	// calculator and the corpora follow the common practice of not
	// counting it (option all_terminals_double_pung, default false).
	AllTerminalsDoublePung bool `json:"all_terminals_double_pung"`
	// Penalties for a false declaration of a win (seed 000): paid to each
	// other player.
	PenaltyBelowMinimum int `json:"penalty_below_minimum"`
	PenaltyIllegalHand  int `json:"penalty_illegal_hand"`
}

// Presets are the named rule sets.
var Presets = scoring.Presets[Rules]{
	"default": {Name: "default", TwoConcealedKongs: 8, Minimum: 8, WinBonus: 8, MeldedHandAddedKong: true,
		PenaltyBelowMinimum: 10, PenaltyIllegalHand: 20},
	"mcr-2006": {Name: "mcr-2006", TwoConcealedKongs: 6, Minimum: 8, WinBonus: 8, MeldedHandAddedKong: true,
		PenaltyBelowMinimum: 10, PenaltyIllegalHand: 20},
}

// options are the options MCR reads.
var options = []string{"two_concealed_kongs", "minimum", "melded_hand_added_kong", "all_terminals_double_pung"}

// WithOptions applies a request's options to a copy of the rules.
func (rules Rules) WithOptions(opts map[string]any) (Rules, *scoring.Error) {
	if len(opts) == 0 {
		return rules, nil
	}
	var err *scoring.Error
	if rules.TwoConcealedKongs, err = scoring.IntOption(opts, "two_concealed_kongs", rules.TwoConcealedKongs); err != nil {
		return rules, err
	}
	if rules.TwoConcealedKongs != 6 && rules.TwoConcealedKongs != 8 {
		return rules, scoring.Errorf(scoring.CodeBadRequest, "option two_concealed_kongs: want 6 (1998/2006 rule book) or 8 (2014 table), got %d", rules.TwoConcealedKongs)
	}
	if rules.Minimum, err = scoring.IntOption(opts, "minimum", rules.Minimum); err != nil {
		return rules, err
	}
	if rules.Minimum < 0 || rules.Minimum > 88 {
		return rules, scoring.Errorf(scoring.CodeBadRequest, "option minimum: want 0–88 points, got %d", rules.Minimum)
	}
	if rules.MeldedHandAddedKong, err = scoring.BoolOption(opts, "melded_hand_added_kong", rules.MeldedHandAddedKong); err != nil {
		return rules, err
	}
	rules.AllTerminalsDoublePung, err = scoring.BoolOption(opts, "all_terminals_double_pung", rules.AllTerminalsDoublePung)
	return rules, err
}
