// Package vietnamese scores Vietnamese mahjong as seed 000 describes it:
// the Chinese Classical table for the winner's hand only, kings and queens
// as bonus tiles with a double for each king and queen of one number, and
// eight jokers that each stand only for the tiles of their class.
package vietnamese

import (
	"mjscan/scoring"
	"mjscan/scoring/classical"
)

// Jokers in the seed's order (CONTRACT codes 1j–8j).
const (
	Emperor    = scoring.Joker1     // 1j: any tile, bonus tiles included
	DotsJoker  = scoring.Joker1 + 1 // 2j: any dots tile
	BambooJok  = scoring.Joker1 + 2 // 3j: any bamboo tile
	CharJoker  = scoring.Joker1 + 3 // 4j: any characters tile
	SuitJoker  = scoring.Joker1 + 4 // 5j: any suited tile
	WindJoker  = scoring.Joker1 + 5 // 6j: any wind
	DragJoker  = scoring.Joker1 + 6 // 7j: any dragon
	FlowerJokr = scoring.Joker1 + 7 // 8j: any bonus tile
)

// Stands reports whether joker may stand for tile inside a set (seed 000:
// "the Joker tiles in Vietnamese Mahjong have very specific purposes").
// The flower joker stands only for bonus tiles, so never inside a set.
func Stands(joker, tile scoring.Tile) bool {
	if !tile.Playing() {
		return false
	}
	t := tile.Kind()
	switch joker {
	case Emperor:
		return true
	case DotsJoker:
		return t.Suit() == scoring.Pin
	case BambooJok:
		return t.Suit() == scoring.Sou
	case CharJoker:
		return t.Suit() == scoring.Man
	case SuitJoker:
		return t.Suited()
	case WindJoker:
		return t.IsWind()
	case DragJoker:
		return t.IsDragon()
	}
	return false
}

// Presets are the Vietnamese rule sets: the classical table, only the
// winner scored, no "discard completes a pung" restriction (the seed lets a
// player win on a discarded bonus tile for any set), limit 500.
var Presets = scoring.Presets[classical.Rules]{
	"default": {
		Name: "default", PungOnlyDiscard: false, Limits: true, LimitValue: 500, BonusTiles: true,
		WinnerOnly: true, KingsQueens: true, JokersAsBonus: true, Jokers: Stands, BonusWinsDiscard: true,
		Source: "seed 000 (Vietnamese Mahjong, scored on the Chinese Classical table)",
	},
}

// Vietnamese is Vietnamese mahjong ("vietnamese"), scored on the classical
// table with the classical options.
var Vietnamese = scoring.NewEngine(scoring.RuleSet[classical.Rules, classical.Win]{
	Name: "vietnamese", Presets: Presets, Default: "default", Options: classical.Classical.Options(),
	WithOptions: classical.Rules.WithOptions, Read: classical.Read, Score: classical.Score,
})
