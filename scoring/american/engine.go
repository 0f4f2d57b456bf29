package american

import (
	"fmt"
	"sort"

	"mjscan/scoring"
)

// American is American mahjong ("american"): one preset, the card chosen
// with option "card".
var American = scoring.NewEngine(scoring.RuleSet[Rules, win]{
	Name: "american", Presets: scoring.Presets[Rules]{"default": {}}, Default: "default", Options: []string{"card"},
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// Rules is the card a hand is matched against.
type Rules struct {
	Card *Card
}

// WithOptions reads option "card" (DefaultCard when absent).
func (rules Rules) WithOptions(opts map[string]any) (Rules, *scoring.Error) {
	c, err := cardFor(opts)
	if err != nil {
		return rules, scoring.Errorf(scoring.CodeBadRequest, "%v", err)
	}
	rules.Card = c
	return rules, nil
}

// win is a request as American reads it: the hand, and the seat of the
// discarder when the request names it (extra.discarder).
type win struct {
	hand      *scoring.Hand
	discarder string
}

func read(r *scoring.Request) (win, *scoring.Error) {
	h, err := scoring.ParseHand(r)
	if err != nil {
		return win{}, err
	}
	w := win{hand: h}
	if r.Extra != nil {
		w.discarder = r.Extra.Discarder
	}
	return w, nil
}

// Breakdown explains an American result.
type Breakdown struct {
	Card      string      `json:"card"`
	CardHand  string      `json:"card_hand"`
	Line      string      `json:"line"`
	Category  string      `json:"category"`
	Concealed bool        `json:"concealed"`
	Groups    []GroupView `json:"groups"`
	BaseValue int         `json:"base_value"`
	Jokers    int         `json:"jokers"`
	Jokerless bool        `json:"jokerless"`
	// JokerlessDouble says whether the jokerless bonus applied (not for
	// Singles and Pairs hands).
	JokerlessDouble bool     `json:"jokerless_double"`
	Value           int      `json:"value"`
	SelfDrawn       bool     `json:"self_drawn"`
	AlsoFits        []string `json:"also_fits,omitempty"`
}

// GroupView is one group of the matched line as the hand fills it.
type GroupView struct {
	Kind    GroupKind `json:"kind"`
	Printed string    `json:"printed"`
	Tiles   string    `json:"tiles"`
	Jokers  int       `json:"jokers,omitempty"`
	Exposed bool      `json:"exposed,omitempty"`
}

const (
	maxCopies       = 4
	maxFlowers      = 8
	maxJokersInGame = 8
)

func score(w win, rules *Rules) scoring.Result {
	res := Score(w.hand, rules.Card)
	if res.OK && w.discarder != "" && !w.hand.Tsumo {
		for i := range res.Points.Payments {
			if res.Points.Payments[i].From == "discarder" {
				res.Points.Payments[i].From = w.discarder
			}
		}
	}
	return res
}

// Score matches a parsed hand against the card and pays it.
func Score(h *scoring.Hand, card *Card) scoring.Result {
	conc, exps, err := check(h)
	if err != nil {
		return scoring.Result{Error: err}
	}
	var best *match
	var also []string
	for i := range card.Lines {
		l := &card.Lines[i]
		m := l.fit(conc, exps, matchOptions{})
		if m == nil {
			continue
		}
		also = append(also, l.ID)
		if best == nil || l.Value > best.line.Value {
			best = m
		}
	}
	if best == nil {
		return scoring.Result{Error: whyNot(card, conc, exps)}
	}
	jokers := conc[kindJoker]
	for _, x := range exps {
		jokers += x.jokers
	}
	l := best.line
	b := &Breakdown{Card: card.Name, CardHand: l.ID, Line: l.String(), Category: l.Category, Concealed: l.Concealed,
		BaseValue: l.Value, Jokers: jokers, Jokerless: jokers == 0, SelfDrawn: h.Tsumo}
	b.JokerlessDouble = b.Jokerless && !l.NoJokerlessDouble
	value := l.Value
	if b.JokerlessDouble {
		value *= 2
	}
	b.Value = value
	isExposed := map[int]bool{}
	for _, gi := range best.exposed {
		isExposed[gi] = true
	}
	for gi, g := range best.groups {
		b.Groups = append(b.Groups, GroupView{Kind: g.g.Kind, Printed: g.g.Printed(), Tiles: best.describe(gi),
			Jokers: best.jokers[gi], Exposed: isExposed[gi]})
	}
	for _, id := range also {
		if id != l.ID {
			b.AlsoFits = append(b.AlsoFits, id)
		}
	}
	res := scoring.Result{OK: true, Value: &value, Breakdown: b}
	res.Patterns = append(res.Patterns, scoring.Pattern{Name: "card hand " + l.ID, Points: l.Value, Detail: l.String()})
	if b.JokerlessDouble {
		res.Patterns = append(res.Patterns, scoring.Pattern{Name: "jokerless", Doubles: 1, Detail: "no jokers at the moment of winning"})
	}
	res.Points = payments(h, value)
	return res
}

// payments: seed 000, "If you self-pick a win, all three players pay you
// double the value of the hand. If you win off of a discarded tile, the
// player who discarded it pays you double, while the other two pay you
// its face value." There is no dealer multiplier.
func payments(h *scoring.Hand, value int) scoring.Points {
	var p scoring.Points
	if h.Tsumo {
		for w := scoring.Wind(0); w < 4; w++ {
			if w != h.Seat {
				p.Payments = append(p.Payments, scoring.Payment{From: w.String(), To: h.Seat.String(), Amount: 2 * value, Note: "self-drawn: everyone pays double"})
			}
		}
	} else {
		p.Payments = append(p.Payments,
			scoring.Payment{From: "discarder", To: h.Seat.String(), Amount: 2 * value, Note: "the discarder pays double"},
			scoring.Payment{From: "other", To: h.Seat.String(), Amount: value, Note: "face value"},
			scoring.Payment{From: "other", To: h.Seat.String(), Amount: value, Note: "face value"})
	}
	for _, x := range p.Payments {
		p.Total += x.Amount
	}
	return p
}

// check validates the tiles: American uses the 136 tiles, eight flowers
// and eight jokers; the hand holds 14 tiles less the exposed ones.
func check(h *scoring.Hand) (counts, []exposure, *scoring.Error) {
	var conc, all counts
	if len(h.Flowers) > 0 {
		return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "American flowers are tiles of the hand (used in groups): put them in \"hand\", not \"flowers\"")
	}
	for _, t := range h.Concealed {
		k, ok := kindOf(t)
		if !ok {
			return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "%s is not an American tile: the game uses 1-9m/p/s, 1z-7z, flowers 1f-8f and jokers 9j", t)
		}
		conc[k]++
		all[k]++
	}
	if h.Win == scoring.Joker1+8 && !h.Tsumo {
		return conc, nil, scoring.Errorf(scoring.CodeNotAWin, "a discarded joker is dead: it cannot be claimed for an exposure or a win (seed 000)")
	}
	var exps []exposure
	n := len(h.Concealed)
	for i, m := range h.Melds {
		if m.Type == scoring.Chi {
			return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: American mahjong has no chows", i)
		}
		if len(m.Tiles) < 3 || len(m.Tiles) > 6 {
			return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: an exposure is a pung, kong, quint or sextet (3 to 6 tiles), got %d", i, len(m.Tiles))
		}
		x := exposure{kind: -1, size: len(m.Tiles)}
		for _, t := range m.Tiles {
			k, ok := kindOf(t)
			if !ok {
				return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %s is not an American tile", i, t)
			}
			all[k]++
			if k == kindJoker {
				x.jokers++
				continue
			}
			if x.kind >= 0 && x.kind != k {
				return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: an exposure is one tile repeated (jokers may fill it), got %s", i, scoring.FormatTiles(m.Tiles))
			}
			x.kind = k
		}
		if x.kind < 0 {
			return conc, nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: an exposure holds at least the natural tile that was claimed", i)
		}
		exps = append(exps, x)
		n += len(m.Tiles)
	}
	if n != handTiles {
		return conc, nil, scoring.Errorf(scoring.CodeWrongTileCount, "the hand holds %d tiles with its exposures; a winning hand holds %d", n, handTiles)
	}
	for k := 0; k < scoring.NumKinds; k++ {
		if all[k] > maxCopies {
			return conc, nil, scoring.Errorf(scoring.CodeTooManyCopies, "%d copies of %s: a set has four", all[k], kindName(k))
		}
	}
	if all[kindFlower] > maxFlowers {
		return conc, nil, scoring.Errorf(scoring.CodeTooManyCopies, "%d flowers: a set has eight", all[kindFlower])
	}
	if all[kindJoker] > maxJokersInGame {
		return conc, nil, scoring.Errorf(scoring.CodeTooManyCopies, "%d jokers: a set has eight", all[kindJoker])
	}
	return conc, exps, nil
}

// whyNot explains a hand that fits no line: a joker where none may stand,
// exposures on a concealed line, or the closest line.
func whyNot(card *Card, conc counts, exps []exposure) *scoring.Error {
	for i := range card.Lines {
		l := &card.Lines[i]
		if l.fit(conc, exps, matchOptions{jokersAnywhere: true}) != nil {
			return scoring.Errorf(scoring.CodeNotAWin,
				"a joker cannot stand there: the hand would be %s (%s) only with a joker in a single, a pair or a run of singles, and jokers fill only pungs, kongs, quints and sextets",
				l.ID, l.String())
		}
	}
	for i := range card.Lines {
		l := &card.Lines[i]
		if l.Concealed && len(exps) > 0 && l.fit(conc, exps, matchOptions{ignoreConcealed: true}) != nil {
			return scoring.Errorf(scoring.CodeNotAWin,
				"%s (%s) is a concealed (C) hand: it cannot be won with exposures", l.ID, l.String())
		}
	}
	all := conc
	for _, x := range exps {
		all[x.kind] += x.size - x.jokers
		all[kindJoker] += x.jokers
	}
	type near struct {
		id  string
		off int
	}
	var ns []near
	for i := range card.Lines {
		ns = append(ns, near{card.Lines[i].ID + " (" + card.Lines[i].String() + ")", card.Lines[i].misfit(all)})
	}
	sort.SliceStable(ns, func(a, b int) bool { return ns[a].off < ns[b].off })
	hint := ""
	if len(ns) > 0 {
		hint = fmt.Sprintf("; closest: %s, with %d tile(s) that do not fit it", ns[0].id, ns[0].off)
	}
	return scoring.Errorf(scoring.CodeNotAWin, "the hand fits no line of the card %q%s", card.Name, hint)
}
