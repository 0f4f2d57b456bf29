package hk

import (
	"fmt"
	"strings"

	"mjscan/scoring"
)

// HK is Hong Kong Old Style ("hk").
var HK = scoring.NewEngine(scoring.RuleSet[Rules, win]{
	Name: "hk", Presets: Presets, Default: "default", Options: options,
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// win is a request as HK reads it: the hand and what the CONTRACT hand
// does not say.
type win struct {
	hand *scoring.Hand
	s    Situation
}

func read(r *scoring.Request) (win, *scoring.Error) {
	h, err := scoring.ParseHand(r)
	if err != nil {
		return win{}, err
	}
	afterFlower, err := scoring.BoolOption(r.Options, "flower_replacement", false)
	if err != nil {
		return win{}, err
	}
	discarder := ""
	if r.Extra != nil && r.Extra.Discarder != "" {
		w, e := scoring.ParseWind(r.Extra.Discarder)
		if e != nil || w == h.Seat {
			return win{}, scoring.Errorf(scoring.CodeBadRequest, "extra.discarder %q: the seat wind of another player", r.Extra.Discarder)
		}
		discarder = w.String()
	}
	return win{h, Situation{AfterFlower: afterFlower, Discarder: discarder}}, nil
}

// Situation is what HK reads beyond the CONTRACT hand.
type Situation struct {
	AfterFlower bool   // self-drawn on a bonus-tile replacement
	Discarder   string // seat wind of the discarder, "" when unknown
}

// Check refuses a request whose tiles or flags cannot happen together.
func Check(h *scoring.Hand, s Situation) *scoring.Error {
	if e := h.CheckMeldShapes(); e != nil {
		return e
	}
	for _, t := range h.Concealed {
		if !t.Playing() {
			return scoring.Errorf(scoring.CodeBadRequest, "%s cannot be part of a hand: HK hands hold suit and honor tiles, bonus tiles go in \"flowers\"", t)
		}
	}
	seen := map[scoring.Tile]bool{}
	for _, t := range h.Flowers {
		if t.Suit() != scoring.Flower {
			return scoring.Errorf(scoring.CodeBadRequest, "flowers: %s is not a flower or season (1f–4f flowers, 5f–8f seasons)", t)
		}
		if seen[t] {
			return scoring.Errorf(scoring.CodeTooManyCopies, "flowers: %s twice, but each bonus tile exists once", t)
		}
		seen[t] = true
	}
	if h.Nuki > 0 || len(h.DoraIndicators) > 0 || len(h.UraIndicators) > 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "Hong Kong mahjong has no dora and no nuki: leave those fields empty")
	}
	if n := len(h.Concealed) + 3*len(h.Melds); n != 14 {
		return scoring.Errorf(scoring.CodeWrongTileCount, "the hand holds %d tiles counting each meld as three; a winning hand holds 14 (concealed tiles with the winning tile, plus 3 per meld)", n)
	}
	if e := h.CheckCopies(false); e != nil {
		return e
	}
	kong := false
	for _, m := range h.Melds {
		kong = kong || m.IsKong()
	}
	switch {
	case h.Chankan && h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "robbing a kong is a win on another player's tile, not a self-draw")
	case (h.Rinshan || h.DoubleKong) && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "a win after a kong is a self-draw of the replacement tile: set tsumo")
	case (h.Rinshan || h.DoubleKong) && !kong:
		return scoring.Errorf(scoring.CodeBadRequest, "a win after a kong needs a kong among the melds")
	case s.AfterFlower && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "a win after a flower is a self-draw of the replacement tile: set tsumo")
	case s.AfterFlower && len(h.Flowers) == 0:
		return scoring.Errorf(scoring.CodeBadRequest, "a win after a flower needs a bonus tile in \"flowers\"")
	case h.Haitei && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "haitei is the self-drawn last tile: set tsumo (houtei is the last discard)")
	case h.Houtei && h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "houtei is a win on the last discard, not a self-draw")
	case h.Tenhou && (!h.Dealer() || !h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "Blessing of Heaven is the dealer's win on the dealt hand: seat East, tsumo, no meld")
	case h.Chiihou && (h.Dealer() || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "Blessing of Earth is a non-dealer's win at the first turn: not East, no meld")
	case h.Renhou && (h.Dealer() || h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "Blessing of Man is a non-dealer's win on a discard before their first draw: not East, not tsumo, no meld")
	case (h.Tenhou && (h.Chiihou || h.Renhou)) || (h.Chiihou && h.Renhou):
		return scoring.Errorf(scoring.CodeBadRequest, "only one of tenhou, chiihou and renhou can hold")
	}
	return nil
}

// score scores a read hand: the arrangement that counts most.
func score(w win, rules *Rules) scoring.Result {
	h, s := w.hand, w.s
	if e := Check(h, s); e != nil {
		return scoring.Result{Error: e}
	}
	f := newFacts(h, rules)
	f.afterFlower = s.AfterFlower
	weighed := scoring.Best[eval]{Better: better}
	var cur eval
	f.readings(func(r *reading) {
		f.evaluate(r, &cur)
		weighed.Add(&cur)
	})
	best := weighed.Chosen()
	if best == nil {
		return scoring.NotAWin(h, "four sets and a pair or Thirteen Orphans", "")
	}
	res := f.result(best, weighed.All(), s)
	if best.hand < rules.MinFaan {
		res.OK = false
		res.Points = scoring.Points{}
		what := "faan"
		if !rules.BonusTowardMinimum {
			what = "faan from the hand (bonus tiles do not count toward the minimum)"
		}
		res.Error = scoring.Errorf(scoring.CodeBelowMinimum, "the hand is complete but has %d %s; at least %d are needed to win (option min_faan)", best.hand, what, rules.MinFaan)
	}
	return res
}

// Breakdown explains an HK result.
type Breakdown struct {
	Arrangement  string        `json:"arrangement"`
	Sets         []SetView     `json:"sets,omitempty"`
	Faan         []FaanView    `json:"faan"`
	RawFaan      int           `json:"raw_faan"`
	HandFaan     int           `json:"hand_faan"`
	LimitReached bool          `json:"limit_reached"`
	BasePoints   int           `json:"base_points"`
	Payment      string        `json:"payment"`
	Alternatives []Alternative `json:"alternatives,omitempty"`
	Rules        RulesView     `json:"rules"`
}

// SetView is one set of the chosen arrangement.
type SetView struct {
	Tiles     string `json:"tiles"`
	Kind      string `json:"kind"`
	Open      bool   `json:"open"`
	Concealed bool   `json:"concealed_triplet,omitempty"`
	Winning   bool   `json:"winning_tile,omitempty"`
}

// FaanView is one counted pattern and the set that earned it.
type FaanView struct {
	Name  string `json:"name"`
	Faan  int    `json:"faan"`
	Bonus bool   `json:"bonus,omitempty"`
	Set   string `json:"set,omitempty"`
}

// Alternative is another arrangement and its faan.
type Alternative struct {
	Arrangement string   `json:"arrangement"`
	RawFaan     int      `json:"raw_faan"`
	Faan        []string `json:"faan"`
	Chosen      bool     `json:"chosen,omitempty"`
}

// Readings lists the arrangements weighed for a referee
// (scoring.Weighed). Their raw faan are before the limit, so they carry no
// fan to compare a claim with.
func (b *Breakdown) Readings() []scoring.Alternative {
	out := make([]scoring.Alternative, len(b.Alternatives))
	for i := range b.Alternatives {
		a := &b.Alternatives[i]
		out[i] = scoring.Alternative{Shown: a, Arrangement: a.Arrangement, Chosen: a.Chosen}
	}
	return out
}

// RulesView names the rules applied.
type RulesView struct {
	MinFaan      int    `json:"min_faan"`
	Limit        int    `json:"limit"`
	Table        string `json:"table"`
	Payment      string `json:"payment"`
	SevenPairs   bool   `json:"seven_pairs"`
	PureStraight bool   `json:"pure_straight"`
}

func (f *facts) result(e *eval, all []eval, s Situation) scoring.Result {
	rules := f.rules
	res := scoring.Result{OK: true, Fan: e.faan}
	b := &Breakdown{
		Arrangement: arrangement(&e.r), RawFaan: e.raw, HandFaan: e.hand, LimitReached: e.raw >= rules.Limit,
		BasePoints: rules.base(e.faan),
		Rules: RulesView{MinFaan: rules.MinFaan, Limit: rules.Limit, Table: rules.Table.String(), Payment: rules.Payment.String(),
			SevenPairs: rules.SevenPairs, PureStraight: rules.PureStraight},
	}
	if b.LimitReached {
		res.Limit = "limit"
	}
	for i := 0; i < e.n; i++ {
		it := e.items[i]
		v := FaanView{Name: it.f.Name(), Faan: it.f.Value(), Bonus: it.f.Bonus()}
		if it.set >= 0 {
			v.Set = scoring.FormatTiles(e.r.Sets[it.set].Tiles())
		}
		b.Faan = append(b.Faan, v)
		res.Fans = append(res.Fans, scoring.Fan{ID: it.f.ID(), Name: v.Name, Fan: v.Faan, Count: 1})
	}
	if e.r.form == formRegular {
		for i := range e.r.Sets {
			st := &e.r.Sets[i]
			b.Sets = append(b.Sets, SetView{Tiles: scoring.FormatTiles(st.Tiles()), Kind: st.Kind.String(), Open: st.Open, Concealed: st.Triplet() && st.Concealed, Winning: int(e.r.Win) == i})
		}
	}
	res.Points.Payments, b.Payment = f.payments(b.BasePoints, s.Discarder)
	for _, p := range res.Points.Payments {
		res.Points.Total += p.Amount
	}
	if len(all) > 1 {
		for i := range all {
			a := &all[i]
			alt := Alternative{Arrangement: arrangement(&a.r), RawFaan: a.raw, Chosen: a.r == e.r}
			for j := 0; j < a.n; j++ {
				alt.Faan = append(alt.Faan, a.items[j].f.Name())
			}
			b.Alternatives = addAlternative(b.Alternatives, alt)
		}
		if len(b.Alternatives) == 1 {
			b.Alternatives = nil
		}
	}
	res.Breakdown = b
	return res
}

// payments lists what each loser pays for base points b (HK.md §3).
func (f *facts) payments(b int, discarder string) ([]scoring.Payment, string) {
	h := f.h
	var others []string
	for w := scoring.Wind(0); w < 4; w++ {
		if w != h.Seat {
			others = append(others, w.String())
		}
	}
	each := func(amount int, why string) ([]scoring.Payment, string) {
		out := make([]scoring.Payment, 0, 3)
		for _, w := range others {
			out = append(out, scoring.Payment{From: w, Amount: amount})
		}
		return out, why
	}
	if h.Tsumo {
		if f.rules.Payment == DiscarderOnly {
			return each(b, fmt.Sprintf("self-draw: each player pays the base, %d", b))
		}
		return each(2*b, fmt.Sprintf("self-draw: each player pays double the base, 2 × %d", b))
	}
	var dis, other int
	var why string
	switch f.rules.Payment {
	case Shared:
		dis, other = 2*b, b
		why = fmt.Sprintf("discard win: the discarder pays double the base (%d), the other two the base (%d)", dis, other)
	case DiscarderOnly:
		dis = 2 * b
		why = fmt.Sprintf("discard win: the discarder alone pays double the base, %d", dis)
	case FullResponsibility:
		dis = 4 * b
		why = fmt.Sprintf("discard win, full responsibility: the discarder pays for the table, 2 × %d + %d + %d", b, b, b)
	}
	name := discarder
	if name == "" {
		name = "discarder"
	}
	out := []scoring.Payment{{From: name, Amount: dis, Note: "discarder"}}
	if other > 0 {
		if discarder == "" {
			out = append(out, scoring.Payment{From: "other player", Amount: other}, scoring.Payment{From: "other player", Amount: other})
		} else {
			for _, w := range others {
				if w != discarder {
					out = append(out, scoring.Payment{From: w, Amount: other})
				}
			}
		}
	}
	return out, why
}

func arrangement(r *reading) string {
	switch r.form {
	case formOrphans:
		return "thirteen orphans"
	case formSevenPairs:
		return "seven pairs"
	}
	return r.Reading.String()
}

// addAlternative lists an arrangement once: placing the winning tile in
// another set of the same arrangement often changes nothing.
func addAlternative(list []Alternative, alt Alternative) []Alternative {
	for i := range list {
		if list[i].Arrangement == alt.Arrangement && strings.Join(list[i].Faan, ",") == strings.Join(alt.Faan, ",") {
			list[i].Chosen = list[i].Chosen || alt.Chosen
			return list
		}
	}
	return append(list, alt)
}
