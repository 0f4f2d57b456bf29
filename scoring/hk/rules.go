// Package hk scores Hong Kong Old Style mahjong: faan from the default table
// of shared/spec/rules/HK.md, a minimum faan, a limit, and the payment
// schemes clubs use. No seed fixes HK scoring, so the table and the presets
// name their sources.
//
// Presets: "default" (= "half-spicy"), "full-spicy", "riichi-advanced".
// Options: min_faan (default 3; bonus-tile faan do not count toward it
// unless bonus_toward_minimum), limit (faan, 1–13, default 13), table
// ("half-spicy" or "full-spicy"), payment ("shared", "discarder-only",
// "full-responsibility"), seven_pairs, pure_straight, and
// flower_replacement (won on a bonus-tile replacement: the CONTRACT has
// no field for it). extra.discarder names the discarder's seat.
//
// The result has fan (faan after the limit), fans (id = this package's
// table order, 1 Chicken Hand … 38 Seven Pairs; count 1 each; dragon and
// wind pungs are separate entries), limit "limit" when the limit is
// reached, points.total with the payments, and a breakdown with the raw
// faan, the faan toward the minimum and the arrangement.
package hk

import (
	"mjscan/scoring"
)

// Table turns faan into base points.
type Table uint8

const (
	// HalfSpicy (半辣上) doubles up to 4 faan, then grows by half and by a
	// third in turn: 1 2 4 8 16 24 32 48 64 96 128 192 256 384.
	HalfSpicy Table = iota
	// FullSpicy (全辣上) doubles with every faan up to the limit.
	FullSpicy
)

var tableNames = [...]string{"half-spicy", "full-spicy"}

func (t Table) String() string { return tableNames[t] }

// Payment says who pays the base points.
type Payment uint8

const (
	// Shared: the discarder pays double, the other two single; on a
	// self-draw each player pays double (Wikipedia's "common modifiers").
	Shared Payment = iota
	// DiscarderOnly: the discarder alone pays double; on a self-draw each
	// player pays single (riichi_advanced's default, its chicken-hand test
	// pays +2/−2/0/0).
	DiscarderOnly
	// FullResponsibility (包): the discarder pays the whole table's share,
	// four times the base; a self-draw is as in Shared.
	FullResponsibility
)

var paymentNames = [...]string{"shared", "discarder-only", "full-responsibility"}

func (p Payment) String() string { return paymentNames[p] }

// halfSpicyBase is the base points for 0–13 faan.
var halfSpicyBase = [14]int{1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384}

// maxLimit is the highest limit offered: the half-spicy table ends at 13.
const maxLimit = 13

// Rules is one way to count and pay an HK hand.
type Rules struct {
	Name string
	// MinFaan is the least faan a hand needs to win (0 disables it). Faan
	// from bonus tiles do not count toward it unless BonusTowardMinimum.
	MinFaan            int
	BonusTowardMinimum bool
	// Limit caps the faan counted for payment.
	Limit   int
	Table   Table
	Payment Payment
	// SevenPairs allows seven different pairs as a winning hand (4 faan),
	// an optional house rule.
	SevenPairs bool
	// PureStraight scores 123 456 789 of one suit (8 faan, riichi_advanced's
	// table; rare in HK tables).
	PureStraight bool
}

// Presets are the named rule sets. Every one counts faan the same way; they
// differ in how faan turn into money.
var Presets = scoring.Presets[Rules]{
	"default":    {Name: "default", MinFaan: 3, Limit: 13, Table: HalfSpicy, Payment: Shared, PureStraight: true},
	"half-spicy": {Name: "half-spicy", MinFaan: 3, Limit: 13, Table: HalfSpicy, Payment: Shared, PureStraight: true},
	"full-spicy": {Name: "full-spicy", MinFaan: 3, Limit: 13, Table: FullSpicy, Payment: Shared, PureStraight: true},
	// riichi_advanced's HK: half-spicy, the discarder alone pays.
	"riichi-advanced": {Name: "riichi-advanced", MinFaan: 3, Limit: 13, Table: HalfSpicy, Payment: DiscarderOnly, PureStraight: true},
}

// options are the options HK reads: the rule switches, and
// flower_replacement (the hand was won on a bonus tile's replacement).
var options = []string{"min_faan", "bonus_toward_minimum", "limit", "table", "payment", "seven_pairs", "pure_straight", "flower_replacement"}

// WithOptions applies CONTRACT options to a copy of the rules: min_faan
// (0, 1 or 3 are the usual ones), limit, table, payment, seven_pairs,
// pure_straight, bonus_toward_minimum.
func (rules Rules) WithOptions(opts map[string]any) (Rules, *scoring.Error) {
	if len(opts) == 0 {
		return rules, nil
	}
	var err *scoring.Error
	if rules.Limit, err = scoring.IntOption(opts, "limit", rules.Limit); err != nil {
		return rules, err
	}
	if rules.Limit < 1 || rules.Limit > maxLimit {
		return rules, scoring.Errorf(scoring.CodeBadRequest, "option limit: want 1 to %d faan, got %d", maxLimit, rules.Limit)
	}
	if rules.MinFaan, err = scoring.IntOption(opts, "min_faan", rules.MinFaan); err != nil {
		return rules, err
	}
	if rules.MinFaan < 0 || rules.MinFaan > rules.Limit {
		return rules, scoring.Errorf(scoring.CodeBadRequest, "option min_faan: want 0 to the limit (%d), usually 0, 1 or 3; got %d", rules.Limit, rules.MinFaan)
	}
	for _, b := range []struct {
		p    *bool
		name string
	}{{&rules.SevenPairs, "seven_pairs"}, {&rules.PureStraight, "pure_straight"}, {&rules.BonusTowardMinimum, "bonus_toward_minimum"}} {
		if *b.p, err = scoring.BoolOption(opts, b.name, *b.p); err != nil {
			return rules, err
		}
	}
	s, err := scoring.StringOption(opts, "table", rules.Table.String())
	if err != nil {
		return rules, err
	}
	if rules.Table, err = pick[Table](s, tableNames[:], "table"); err != nil {
		return rules, err
	}
	s, err = scoring.StringOption(opts, "payment", rules.Payment.String())
	if err != nil {
		return rules, err
	}
	if rules.Payment, err = pick[Payment](s, paymentNames[:], "payment"); err != nil {
		return rules, err
	}
	return rules, nil
}

func pick[T ~uint8](s string, names []string, option string) (T, *scoring.Error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, scoring.Errorf(scoring.CodeBadRequest, "option %s: want one of %v, got %q", option, names, s)
}

// base is the base points for faan already capped at the limit.
func (rules *Rules) base(faan int) int {
	if rules.Table == FullSpicy {
		return 1 << faan
	}
	return halfSpicyBase[faan]
}
