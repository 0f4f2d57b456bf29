package tournament

import (
	"fmt"
	"sort"
	"strings"

	"mjscan/scoring/rulebook"
)

// Settlement says how a game's raw points become its tournament score.
type Settlement string

const (
	// SettleMSMC is seed 000's final scoring: subtract 30,000, +20,000 to
	// first, divide by 1,000 towards zero, placement bonus +20/+10/−10/−20,
	// first place absorbs what does not add up to 0.
	SettleMSMC Settlement = "msmc-2016"
	// SettleTablePoints is MCR's: table points 4/2/1/0 by rank, tied players
	// share the points of the places they tie for; the raw points stay as
	// the tie-breaking score.
	SettleTablePoints Settlement = "table-points"
	// SettlePoints keeps the raw points as the score (Zung Jung, WSM: the
	// points won and lost at par 25 are the score).
	SettlePoints Settlement = "points"
)

// GameRules is one kind of tournament game: the rule set its hands are
// scored under and how the table plays and settles. Presets are values.
type GameRules struct {
	Name string `json:"name"`
	// Rules and Preset name the scoring engine (CONTRACT rules/preset).
	Rules  string `json:"rules"`
	Preset string `json:"preset,omitempty"`
	// StartPoints is each player's score at the start.
	StartPoints int `json:"start_points"`
	// Hands is the fixed number of hands of a game (the deal passes after
	// every hand); 0 means riichi's East and South rounds with dealer
	// repeats.
	Hands int `json:"hands,omitempty"`
	// Riichi turns on riichi bets, honba, tenpai payments at a draw and
	// dealer repeats.
	Riichi bool `json:"riichi,omitempty"`
	// WinBonus is MCR's 8 points every loser pays on top (the discarder
	// pays the hand's value plus the bonus, the others the bonus only).
	WinBonus int `json:"win_bonus,omitempty"`
	// FalseWinBelowMinimum and FalseWinNotAWin are what a false declaration
	// pays each other player (seed 000, MCR: 10 for a hand under 8 points,
	// 20 for a hand that is not a winning hand). Both 0: a false win pays
	// nothing and is recorded as penalty tiles (WSM, seed 004).
	FalseWinBelowMinimum int `json:"false_win_below_minimum,omitempty"`
	FalseWinNotAWin      int `json:"false_win_not_a_win,omitempty"`
	// Chombo is the riichi chombo payment: the dealer pays ChomboDealer to
	// each player; a non-dealer pays ChomboDealer to the dealer and
	// ChomboOther to the other two (seed 000: 4,000 and 2,000).
	ChomboDealer int `json:"chombo_dealer,omitempty"`
	ChomboOther  int `json:"chombo_other,omitempty"`
	// NotenPayment is the total paid by the players not ready at an
	// exhaustive draw to those ready (3,000 in riichi).
	NotenPayment int `json:"noten_payment,omitempty"`
	// LeftoverSticksToFirst: riichi sticks still on the table at the end go
	// to first place (seed 000).
	LeftoverSticksToFirst bool `json:"leftover_sticks_to_first,omitempty"`
	// EndOnBust ends a riichi game when a player's score falls below 0
	// (seed 000 speaks of a player who "busts out early").
	EndOnBust bool `json:"end_on_bust,omitempty"`
	// Settlement turns the final raw points into the game's score.
	Settlement Settlement `json:"settlement"`
}

// Presets are the tournament games this package knows.
var Presets = map[string]GameRules{
	// McGill Students' Mahjong Club April 2016 tournament (seed 000). The
	// seed does not print the starting score; its final scoring (subtract
	// 30,000, then +20,000 to first so that the four scores add up to 0)
	// only balances with the usual 25,000 start, so that is used here.
	"msmc-2016": {
		Name: "msmc-2016", Rules: "riichi", Preset: "msmc-2016",
		StartPoints: 25000, Riichi: true,
		ChomboDealer: 4000, ChomboOther: 2000, NotenPayment: 3000,
		LeftoverSticksToFirst: true, EndOnBust: true,
		Settlement: SettleMSMC,
	},
	// Mahjong Competition Rules (seeds 000, 003): 16 hands, no dealer
	// repeat, 8 points bonus for a win, false wins pay 10 or 20 to each.
	"mcr": {
		Name: "mcr", Rules: "mcr", StartPoints: 0, Hands: 16, WinBonus: 8,
		FalseWinBelowMinimum: 10, FalseWinNotAWin: 20,
		Settlement: SettleTablePoints,
	},
	// Zung Jung (seed 000): 16 hands, par-25 payments.
	"zung-jung": {
		Name: "zung-jung", Rules: "zung-jung", StartPoints: 0, Hands: 16,
		Settlement: SettlePoints,
	},
	// World Series of Mahjong (seeds 000 and 004): games of 8 hands, par
	// 25, 5-point minimum; a false win costs no points but makes the hand
	// penalty tiles (recorded as an entry).
	"wsm": {
		Name: "wsm", Rules: "wsm", StartPoints: 0, Hands: 8,
		Settlement: SettlePoints,
	},
}

// PresetNames lists the presets in a stable order.
func PresetNames() []string {
	out := make([]string, 0, len(Presets))
	for k := range Presets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// WithPreset is the rules with their hands scored under another preset of
// the same rule set; the scoring engine must know it.
func (r GameRules) WithPreset(preset string) (GameRules, error) {
	e, ok := rulebook.Lookup(r.Rules)
	if !ok {
		return r, fmt.Errorf("no engine scores %s", r.Rules)
	}
	var known []string
	for _, p := range e.Presets() {
		if p != "" {
			known = append(known, p)
		}
	}
	for _, p := range known {
		if p == preset {
			r.Preset = preset
			return r, nil
		}
	}
	return r, fmt.Errorf("preset %s: %s games are scored under %s rules, whose presets are %s", shown(preset), r.Name, r.Rules, strings.Join(known, ", "))
}

// LookupRules finds a preset by name.
func LookupRules(name string) (GameRules, error) {
	r, ok := Presets[name]
	if !ok {
		return r, fmt.Errorf("unknown tournament rules %s: choose one of %s", shown(name), strings.Join(PresetNames(), ", "))
	}
	return r, nil
}
