package classical

import (
	"mjscan/scoring"
)

// Breakdown explains a classical (or Vietnamese) result.
type Breakdown struct {
	// Arrangement is the chosen reading; the set the winning tile
	// completed is starred, exposed melds are in (), concealed kongs in [].
	Arrangement string `json:"arrangement"`
	WinningTile string `json:"winning_tile"`
	// Jokers lists each joker (or claimed bonus tile) and what it stands for.
	Jokers       []Substitution `json:"jokers,omitempty"`
	Items        []item         `json:"items"`
	Doubles      []double       `json:"doubles,omitempty"`
	Base         int            `json:"base"`
	DoublesTotal int            `json:"doubles_total"`
	Unlimited    int            `json:"unlimited"` // base × 2^doubles before the limit
	LimitHands   []string       `json:"limit_hands,omitempty"`
	Limit        int            `json:"limit,omitempty"`
	LimitReached bool           `json:"limit_reached"`
	Score        int            `json:"score"`
	Dealer       bool           `json:"dealer"`
	// NextDealer says who deals next (seed 000 always rotates; seed 001
	// keeps East after an East win).
	NextDealer string `json:"next_dealer"`
	// Losers are the other hands scored for the settlement, when given.
	Losers       []loser        `json:"losers,omitempty"`
	Net          map[string]int `json:"net,omitempty"`
	Alternatives []Alternative  `json:"alternatives,omitempty"`
	// SearchTruncated: the hand holds so many jokers that not every
	// substitution was tried; the best one found is reported.
	SearchTruncated bool      `json:"search_truncated,omitempty"`
	Rules           RulesView `json:"rules"`
}

// Substitution is one joker and the tile it stands for.
type Substitution struct {
	Joker string `json:"joker"`
	As    string `json:"as"`
	Set   string `json:"set"`
}

// Alternative is another reading and what it scores.
type Alternative struct {
	Arrangement string `json:"arrangement"`
	Base        int    `json:"base"`
	Doubles     int    `json:"doubles"`
	Score       int    `json:"score"`
	Chosen      bool   `json:"chosen,omitempty"`
}

// Readings lists the readings weighed, with their scores, for a referee
// (scoring.Weighed).
func (b *Breakdown) Readings() []scoring.Alternative {
	out := make([]scoring.Alternative, len(b.Alternatives))
	for i := range b.Alternatives {
		a := &b.Alternatives[i]
		out[i] = scoring.Alternative{Shown: a, Arrangement: a.Arrangement, Chosen: a.Chosen, Worth: scoring.Worth{Score: &a.Score}}
	}
	return out
}

// RulesView shows the rules that were applied.
type RulesView struct {
	Preset             string `json:"preset"`
	Source             string `json:"source"`
	DiscardWinPungOnly bool   `json:"discard_win_pung_only"`
	Limits             bool   `json:"limits"`
	LimitValue         int    `json:"limit_value"`
	BonusTiles         bool   `json:"bonus_tiles"`
	WinnerOnly         bool   `json:"winner_only"`
	RoundWind          bool   `json:"round_wind"`
	DealerKeepsTheDeal bool   `json:"dealer_keeps_the_deal"`
}

// maxAlternatives keeps the breakdown readable for joker-rich hands.
const maxAlternatives = 12

func (f *facts) result(e *eval, all []eval, table []loser) scoring.Result {
	res := scoring.Result{OK: true, Score: e.score}
	if e.capped {
		res.Limit = "limit"
	}
	b := &Breakdown{
		Arrangement: arrangementText(f, e.r), WinningTile: f.h.Win.String() + " as " + e.r.winAs.String(),
		Items: e.items, Doubles: e.doubles, Base: e.base, DoublesTotal: e.nDoubles, Unlimited: e.raw,
		LimitHands: e.limitHands, LimitReached: e.capped, Score: e.score, Dealer: f.dealer,
		Losers: table, SearchTruncated: f.truncated,
		Rules: RulesView{Preset: f.rules.Name, Source: f.rules.Source, DiscardWinPungOnly: f.rules.PungOnlyDiscard,
			Limits: f.rules.Limits, LimitValue: f.rules.LimitValue, BonusTiles: f.rules.BonusTiles,
			WinnerOnly: f.rules.WinnerOnly, RoundWind: f.round, DealerKeepsTheDeal: f.rules.DealerKeeps},
	}
	if f.rules.Limits {
		b.Limit = f.rules.LimitValue
	}
	b.NextDealer = "the deal passes to South (winds rotate)"
	if f.rules.DealerKeeps && f.dealer {
		b.NextDealer = "East keeps the deal"
	}
	for i := range e.r.a.sets {
		s := &e.r.a.sets[i]
		for _, sl := range s.slots {
			if sl.tile != sl.as {
				b.Jokers = append(b.Jokers, Substitution{Joker: sl.tile.String(), As: sl.as.String(), Set: setTiles(s)})
			}
		}
	}
	for _, it := range e.items {
		res.Patterns = append(res.Patterns, scoring.Pattern{Name: it.Reason, Points: it.Points, Detail: it.Set})
	}
	for _, d := range e.doubles {
		res.Patterns = append(res.Patterns, scoring.Pattern{Name: d.Reason, Doubles: d.Doubles, Detail: d.Set})
	}
	for _, l := range e.limitHands {
		res.Patterns = append(res.Patterns, scoring.Pattern{Name: "limit hand: " + l})
	}
	pay, total := f.settle(e.score, table)
	res.Points = scoring.Points{Total: total, Payments: pay}
	if len(table) > 0 {
		b.Net = map[string]int{}
		for _, p := range pay {
			b.Net[p.From] -= p.Amount
			b.Net[p.To] += p.Amount
		}
	}
	if len(all) > 1 {
		// The first readings found, and always the chosen one.
		for i := range all {
			a := &all[i]
			if len(b.Alternatives) >= maxAlternatives-1 && a != e {
				continue
			}
			b.Alternatives = append(b.Alternatives, Alternative{Arrangement: arrangementText(f, a.r), Base: a.base,
				Doubles: a.nDoubles, Score: a.score, Chosen: a == e})
		}
	}
	res.Breakdown = b
	return res
}
