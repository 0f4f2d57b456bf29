// Package classical scores Chinese Classical mahjong as seed 000 tabulates
// it (points for sets and bonus tiles, the winner's extra points, doubles,
// limit hands, a limit, and the settlement in which every hand at the table
// is scored), with the old Chinese rules of seed 001 as presets.
//
// The scorer is exported (Score) so that rule sets built on the classical
// table, such as Vietnamese mahjong with its jokers, kings and queens, reuse
// it with their own Rules value.
package classical

import (
	"mjscan/scoring"
)

// JokerRule says whether joker may stand for tile (one of the 34 playing
// kinds). A nil JokerRule means the rule set has no jokers.
type JokerRule func(joker, tile scoring.Tile) bool

// Rules is one classical rule set. Presets are values of it; CONTRACT
// options override single fields.
type Rules struct {
	Name string

	// PungOnlyDiscard is seed 000's rule that a discard may be claimed to
	// win only when it completes a pung. Robbing a kong, Nine Gates and
	// Thirteen Orphans are exempt (seed 000 allows Nine Gates off a discard
	// and lists robbing a kong among the limit hands).
	PungOnlyDiscard bool
	// Limits: limit hands exist and a hand is capped at LimitValue.
	Limits     bool
	LimitValue int
	// BonusTiles: flowers and seasons are played (seed 000: optional;
	// seed 001: not used).
	BonusTiles bool
	// WinnerOnly: only the winner's hand is scored and losers do not settle
	// among themselves (Vietnamese).
	WinnerOnly bool
	// DealerKeeps: East keeps the deal after winning (seed 001); seed 000
	// always rotates. It changes no score, only the next hand's dealer.
	DealerKeeps bool
	// RobHiddenKongOnlyOrphans: a concealed kong may be robbed only to
	// complete Thirteen Orphans (seed 001). Whether the robbed kong was
	// concealed comes with option robbed_kong_concealed.
	RobHiddenKongOnlyOrphans bool
	// RobbedKongConcealed: the robbed kong was a concealed one (option).
	RobbedKongConcealed bool

	// Vietnamese additions (seed 000, Vietnamese section).
	KingsQueens   bool      // 1k–8k are bonus tiles; a king and queen of one number double
	JokersAsBonus bool      // jokers laid aside count as bonus tiles (4 points, no double)
	Jokers        JokerRule // jokers inside sets
	// BonusWinsDiscard: a discarded bonus tile (or the flower joker, 8j)
	// may be claimed as the winning tile, standing for whatever tile the
	// winner needs.
	BonusWinsDiscard bool

	// Source names the rule document the preset follows.
	Source string
}

// Presets are the named classical rule sets.
var Presets = scoring.Presets[Rules]{
	// Seed 000: "A Quick Look at Mahjong around the World: Chinese Classical".
	"default": {
		Name: "default", PungOnlyDiscard: true, Limits: true, LimitValue: 500, BonusTiles: true,
		Source: "seed 000 (Chinese Classical)",
	},
	// Seed 001 ("Mahjong Rules - Chinese Version"): East keeps the deal,
	// any discard may be claimed to go Mahjong (robbing an exposed kong
	// included), flowers and seasons are not used, limit 2000 (England).
	"old-chinese": {
		Name: "old-chinese", PungOnlyDiscard: false, Limits: true, LimitValue: 2000, BonusTiles: false,
		DealerKeeps: true, RobHiddenKongOnlyOrphans: true, Source: "seed 001 (Chinese version), English limit",
	},
	// Seed 001 with the tournament limit of 1000.
	"old-chinese-tournament": {
		Name: "old-chinese-tournament", PungOnlyDiscard: false, Limits: true, LimitValue: 1000, BonusTiles: false,
		DealerKeeps: true, RobHiddenKongOnlyOrphans: true, Source: "seed 001 (Chinese version), tournament limit",
	},
}

// options are the options the classical table reads.
var options = []string{"discard_win_pung_only", "limits", "limit_value", "bonus_tiles", "robbed_kong_concealed"}

// maxLimit bounds option limit_value so that payments stay far from
// overflow whatever the doubles.
const maxLimit = 1_000_000

// WithOptions applies CONTRACT options to a copy of the rules:
// discard_win_pung_only, limits, limit_value, bonus_tiles,
// robbed_kong_concealed.
func (rules Rules) WithOptions(opts map[string]any) (Rules, *scoring.Error) {
	if len(opts) == 0 {
		return rules, nil
	}
	o := scoring.OptionReader{Options: opts}
	o.Bool(&rules.PungOnlyDiscard, "discard_win_pung_only")
	o.Bool(&rules.Limits, "limits")
	o.Bool(&rules.BonusTiles, "bonus_tiles")
	o.Bool(&rules.RobbedKongConcealed, "robbed_kong_concealed")
	o.Int(&rules.LimitValue, "limit_value")
	if o.Err == nil && (rules.LimitValue < 1 || rules.LimitValue > maxLimit) {
		o.Err = scoring.Errorf(scoring.CodeBadRequest, "option limit_value: want a limit between 1 and %d (seed 000: 500; seed 001: 1000 or 2000), got %d", maxLimit, rules.LimitValue)
	}
	return rules, o.Err
}
