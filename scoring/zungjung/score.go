package zungjung

import (
	"fmt"
	"strings"

	"mjscan/scoring"
)

// ZungJung is Zung Jung ("zung-jung").
var ZungJung = scoring.NewEngine(scoring.RuleSet[Rules, win]{
	Name: "zung-jung", Presets: Presets, Default: "zung-jung", Options: options,
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// WSM is the World Series of Mahjong ("wsm"): Zung Jung's table with a
// 5-point minimum.
var WSM = scoring.NewEngine(scoring.RuleSet[Rules, win]{
	Name: "wsm", Presets: Presets, Default: "wsm", Options: options,
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// win is a request as Zung Jung reads it: the hand and the facts of play.
type win struct {
	hand *scoring.Hand
	play Play
}

func read(r *scoring.Request) (win, *scoring.Error) {
	h, err := scoring.ParseHand(r)
	if err != nil {
		return win{}, err
	}
	p, err := playFor(r, h)
	return win{h, p}, err
}

// Check refuses a request whose tiles or flags cannot happen together.
func Check(h *scoring.Hand, rules *Rules) *scoring.Error {
	if e := h.CheckMeldShapes(); e != nil {
		return e
	}
	for _, t := range h.Concealed {
		if !t.Playing() {
			return scoring.Errorf(scoring.CodeBadRequest, "%s is not a Zung Jung tile: the game uses the 136 suit and honor tiles (1–9m/p/s, 1z–7z)", t)
		}
	}
	if len(h.Flowers) > 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "Zung Jung and the World Series use no bonus tiles: leave \"flowers\" empty")
	}
	if h.Nuki > 0 || len(h.DoraIndicators) > 0 || len(h.UraIndicators) > 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "Zung Jung has no dora and no nuki: leave those fields empty")
	}
	if n := len(h.Concealed) + 3*len(h.Melds); n != 14 {
		return scoring.Errorf(scoring.CodeWrongTileCount, "the hand holds %d tiles counting each meld as three; a winning hand holds 14 (concealed tiles with the winning tile, plus 3 per meld)", n)
	}
	if e := h.CheckCopies(false); e != nil {
		return e
	}
	switch {
	case h.Chankan && h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "robbing a kong (chankan) is a win on another player's tile, not a self-draw")
	case (h.Rinshan || h.DoubleKong) && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "win on kong (rinshan) is a self-draw of the supplement tile: set tsumo")
	case (h.Rinshan || h.DoubleKong) && !hasKong(h):
		return scoring.Errorf(scoring.CodeBadRequest, "win on kong (rinshan) needs a kong among the melds")
	case h.Haitei && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "Final Draw (haitei) is a self-drawn win on the last wall tile: set tsumo (Final Discard is houtei)")
	case h.Houtei && h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "Final Discard (houtei) is a win on the last discard, not a self-draw")
	case rules.SeabedNoKong && h.Haitei && (h.Rinshan || h.DoubleKong):
		return scoring.Errorf(scoring.CodeBadRequest, "in the World Series the player who draws the seabed tile may not declare a kong, and supplement tiles come from the dead wall: a win on a kong supplement cannot be a Final Draw (seed 004)")
	case h.Houtei && h.Chankan:
		return scoring.Errorf(scoring.CodeBadRequest, "Final Discard and Robbing a Kong cannot happen together")
	case h.Tenhou && (!h.Dealer() || !h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "Blessing of Heaven (tenhou) is East's win on the 14 dealt tiles: seat East, tsumo, no meld (a kong cancels it)")
	case h.Chiihou && (h.Dealer() || h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "Blessing of Earth (chiihou) is a non-East player's win on East's first discard: not East, not tsumo, no meld")
	}
	return nil
}

func hasKong(h *scoring.Hand) bool {
	for _, m := range h.Melds {
		if m.IsKong() {
			return true
		}
	}
	return false
}

// score scores a read hand: the arrangement that counts most.
func score(w win, rules *Rules) scoring.Result {
	h, p := w.hand, w.play
	if e := Check(h, rules); e != nil {
		return scoring.Result{Error: e}
	}
	if e := checkPenalty(h, p.Penalty); e != nil {
		return scoring.Result{Error: e}
	}
	f := newFacts(h, rules)
	f.penalty, f.hasPenalty = scoring.CountOf(p.Penalty), len(p.Penalty) > 0
	best := scoring.Best[eval]{Better: better}
	var cur eval
	f.readings(func(r *reading) {
		f.evaluate(r, &cur)
		best.Add(&cur)
	})
	e := best.Chosen()
	if e == nil {
		if f.hasPenalty && !h.Tsumo {
			f.hasPenalty = false
			won := false
			f.readings(func(*reading) { won = true })
			if won {
				return scoring.Result{Error: scoring.Errorf(scoring.CodeNotAWin,
					"the hand would be complete, but the winning discard could only complete a set or the pair with penalty tiles, which may form only concealed sets (seed 004): claiming it is a false win")}
			}
		}
		return notAWin(h, rules)
	}
	res := f.result(e, best.All(), p)
	if e.value < rules.Minimum || e.n == 0 {
		// The value stays: it says how far the hand falls short.
		res.OK = false
		res.Points = scoring.Points{}
		res.Error = scoring.Errorf(scoring.CodeBelowMinimum,
			"the hand is complete but worth %d points; the %s rules need at least %d (any one pattern): a hand without pattern is a false win", e.value, rules.Name, max(rules.Minimum, 1))
	}
	return res
}

// Breakdown explains a Zung Jung result.
type Breakdown struct {
	Arrangement  string        `json:"arrangement"`
	Sets         []SetView     `json:"sets,omitempty"`
	Patterns     []PatternView `json:"patterns"`
	Sum          int           `json:"sum"`
	Limit        string        `json:"limit,omitempty"`
	Payment      string        `json:"payment"`
	Alternatives []Alternative `json:"alternatives,omitempty"`
	Rules        RulesView     `json:"rules"`
	Notes        []string      `json:"notes,omitempty"`
}

// SetView is one set of the chosen arrangement.
type SetView struct {
	Tiles     string `json:"tiles"`
	Kind      string `json:"kind"`
	Open      bool   `json:"open"`
	Concealed bool   `json:"concealed_triplet,omitempty"`
	Winning   bool   `json:"winning_tile,omitempty"`
}

// PatternView is one counted pattern with its table number and the set
// that earned it.
type PatternView struct {
	No     string `json:"no"`
	Name   string `json:"name"`
	Points int    `json:"points"`
	Set    string `json:"set,omitempty"`
}

// Alternative is another arrangement and its value.
type Alternative struct {
	Arrangement string   `json:"arrangement"`
	Value       int      `json:"value"`
	Sum         int      `json:"sum"`
	Patterns    []string `json:"patterns"`
	Chosen      bool     `json:"chosen,omitempty"`
}

// Readings lists the arrangements weighed, with their values, for a
// referee (scoring.Weighed).
func (b *Breakdown) Readings() []scoring.Alternative {
	out := make([]scoring.Alternative, len(b.Alternatives))
	for i := range b.Alternatives {
		a := &b.Alternatives[i]
		out[i] = scoring.Alternative{Shown: a, Arrangement: a.Arrangement, Chosen: a.Chosen, Worth: scoring.Worth{Value: &a.Value}}
	}
	return out
}

// RulesView names the rules applied.
type RulesView struct {
	Minimum       int  `json:"minimum"`
	ChickenHand   bool `json:"chicken_hand"`
	Limit         int  `json:"limit"`
	UniformPayoff bool `json:"uniform_payoff"`
}

func (f *facts) result(e *eval, all []eval, pay Play) scoring.Result {
	value := e.value
	res := scoring.Result{OK: true, Value: &value}
	b := &Breakdown{
		Arrangement: arrangement(&e.r), Sum: e.sum,
		Rules: RulesView{Minimum: f.rules.Minimum, ChickenHand: f.rules.ChickenHand, Limit: f.rules.Limit, UniformPayoff: f.rules.UniformPayoff},
	}
	for i := 0; i < e.n; i++ {
		it := e.items[i]
		v := PatternView{No: it.p.No(), Name: it.p.Name(), Points: it.p.Points()}
		if it.set >= 0 {
			v.Set = scoring.FormatTiles(e.r.Sets[it.set].Tiles())
		}
		b.Patterns = append(b.Patterns, v)
		if e.single == 0 || it.p == e.single {
			res.Patterns = append(res.Patterns, scoring.Pattern{Name: v.Name, Points: v.Points, Detail: v.Set})
		}
	}
	switch {
	case e.single != 0 && e.sum > e.single.Points():
		b.Limit = fmt.Sprintf("%s is worth %d on its own, at least the %d limit: it counts alone", e.single.Name(), e.single.Points(), f.rules.Limit)
	case e.capped:
		b.Limit = fmt.Sprintf("the patterns add up to %d, above the %d limit: the hand is worth %d", e.sum, f.rules.Limit, f.rules.Limit)
	}
	if e.r.form == formRegular {
		for i := range e.r.Sets {
			s := &e.r.Sets[i]
			b.Sets = append(b.Sets, SetView{Tiles: scoring.FormatTiles(s.Tiles()), Kind: s.Kind.String(), Open: s.Open, Concealed: s.Triplet() && s.Concealed, Winning: int(e.r.Win) == i})
		}
	}
	res.Points.Payments, b.Payment = f.payments(e.value, pay)
	for _, p := range res.Points.Payments {
		res.Points.Total += p.Amount
	}
	if len(all) > 1 {
		for i := range all {
			a := &all[i]
			alt := Alternative{Arrangement: arrangement(&a.r), Value: a.value, Sum: a.sum, Chosen: a.r == e.r}
			for j := 0; j < a.n; j++ {
				alt.Patterns = append(alt.Patterns, a.items[j].p.Name())
			}
			b.Alternatives = addAlternative(b.Alternatives, alt)
		}
		if len(b.Alternatives) == 1 {
			b.Alternatives = nil
		}
	}
	if len(pay.Penalty) > 0 {
		b.Notes = append(b.Notes, fmt.Sprintf("penalty tiles %s may form only concealed sets: the winning discard completes a set or pair without them (seed 004)", scoring.FormatTiles(pay.Penalty)))
	}
	if f.h.Renhou {
		b.Notes = append(b.Notes, "renhou (win before one's first draw) is not a Zung Jung pattern: not scored")
	}
	if f.nineGates && !f.rules.NineGatesOnHeaven && f.h.Tenhou {
		b.Notes = append(b.Notes, "Nine Gates is not counted in East's dealt hand: no tile was drawn (seed 004)")
	}
	res.Breakdown = b
	return res
}

func arrangement(r *reading) string {
	switch r.form {
	case formThirteen:
		return "thirteen terminals"
	case formSevenPairs:
		parts := make([]string, 0, 7)
		for _, p := range r.pairs {
			parts = append(parts, scoring.FormatTiles([]scoring.Tile{p, p}))
		}
		return "seven pairs: " + strings.Join(parts, " ")
	}
	return r.Reading.String()
}

// addAlternative lists an arrangement once: placing the winning tile in
// another set of the same arrangement often changes nothing.
func addAlternative(list []Alternative, alt Alternative) []Alternative {
	for i := range list {
		if list[i].Arrangement == alt.Arrangement && strings.Join(list[i].Patterns, ",") == strings.Join(alt.Patterns, ",") {
			list[i].Chosen = list[i].Chosen || alt.Chosen
			return list
		}
	}
	return append(list, alt)
}

func notAWin(h *scoring.Hand, rules *Rules) scoring.Result {
	note := ""
	if rules.Minimum > 0 {
		note = "in the World Series, declaring it is a false win: the exposed tiles become penalty tiles"
	}
	return scoring.NotAWin(h, "four sets and a pair, Seven Pairs or Thirteen Terminals", note)
}
