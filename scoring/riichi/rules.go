// Package riichi scores Japanese riichi mahjong: four players, three-player
// sanma, and tournament presets such as the McGill MSMC 2016 rules.
package riichi

import (
	"mjscan/scoring"
)

// Rules is one riichi rule set. Presets are values of it; the CONTRACT
// options override single fields.
type Rules struct {
	Name string

	OpenTanyao    bool // kuitan: tanyao counts in an open hand
	AkaDora       bool // red fives are dora
	DoubleYakuman bool // suuankou tanki, 13-sided kokushi, junsei chuuren, daisuushii count twice
	KazoeYakuman  bool // 13+ han is a yakuman (else sanbaiman)
	KiriageMangan bool // 4 han 30 fu and 3 han 60 fu round up to mangan
	DoubleWindFu  int  // fu for a pair that is both seat and round wind (2 or 4)
	Renhou        bool // renhou (win on a discard before one's first draw) is scored, at 5 han

	// Sanma: three players, 2m–8m removed, North set aside as nuki dora,
	// no open chi, tsumo paid by two players only.
	Sanma       bool
	StartPoints int

	// Responsibility (pao) applies to these yakuman ids: the player who fed
	// the last set pays as if it were a discard (for a self-draw) or shares
	// the payment with the discarder.
	Responsibility []int
}

// Presets are the named rule sets.
var Presets = scoring.Presets[Rules]{
	"default": {
		Name: "default", OpenTanyao: true, AkaDora: true, DoubleYakuman: true, KazoeYakuman: true,
		DoubleWindFu: 4, Renhou: true, StartPoints: 25000,
	},
	// McGill Students' Mahjong Club, April 2016 tournament (seed 000): no
	// red fives; Eight Dealer Keeps, Gift of Man and Chariot are not scored;
	// responsibility for Big Three Dragons, Big Four Winds, All Honors, All
	// Terminals, Perfect Green and Four Kans.
	"msmc-2016": {
		Name: "msmc-2016", OpenTanyao: true, AkaDora: false, DoubleYakuman: true, KazoeYakuman: true,
		DoubleWindFu: 4, Renhou: false, StartPoints: 25000, // 30,000 is the return: seed 000 subtracts it and gives first place the 20,000 difference
		Responsibility: []int{YakuDaisangen, YakuDaisuushii, YakuTsuuiisou, YakuChinroutou, YakuRyuuiisou, YakuSuukantsu},
	},
	// Three-player riichi as seed 000 describes it.
	"sanma": {
		Name: "sanma", OpenTanyao: true, AkaDora: true, DoubleYakuman: true, KazoeYakuman: true,
		DoubleWindFu: 4, Renhou: true, Sanma: true, StartPoints: 35000,
	},
}

// sanmaPresets are the presets played by three (the rules name "sanma"
// turns any preset into its three-player form).
func sanmaPresets() scoring.Presets[Rules] {
	out := scoring.Presets[Rules]{}
	for name, rules := range Presets {
		rules.Sanma, rules.StartPoints = true, 35000
		out[name] = rules
	}
	return out
}

// options are the CONTRACT options riichi reads: the rule switches, and
// pao (the seat that fed the last set of a yakuman under responsibility).
var options = []string{"open_tanyao", "aka_dora", "double_yakuman", "kazoe_yakuman", "kiriage_mangan", "renhou", "double_wind_fu", "pao"}

// WithOptions applies CONTRACT options to a copy of the rules.
func (rules Rules) WithOptions(opts map[string]any) (Rules, *scoring.Error) {
	if len(opts) == 0 {
		return rules, nil
	}
	o := scoring.OptionReader{Options: opts}
	o.Bool(&rules.OpenTanyao, "open_tanyao")
	o.Bool(&rules.AkaDora, "aka_dora")
	o.Bool(&rules.DoubleYakuman, "double_yakuman")
	o.Bool(&rules.KazoeYakuman, "kazoe_yakuman")
	o.Bool(&rules.KiriageMangan, "kiriage_mangan")
	o.Bool(&rules.Renhou, "renhou")
	o.Int(&rules.DoubleWindFu, "double_wind_fu")
	if o.Err == nil && rules.DoubleWindFu != 2 && rules.DoubleWindFu != 4 {
		o.Err = scoring.Errorf(scoring.CodeBadRequest, "option double_wind_fu: want 2 or 4, got %d", rules.DoubleWindFu)
	}
	return rules, o.Err
}
