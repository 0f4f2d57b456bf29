package riichi

import (
	"strings"

	"mjscan/scoring"
)

// Riichi is four-player riichi mahjong ("riichi").
var Riichi = scoring.NewEngine(scoring.RuleSet[Rules, win]{
	Name: "riichi", Presets: Presets, Default: "default", Options: options,
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// Sanma is three-player riichi ("sanma"): every preset played with three.
var Sanma = scoring.NewEngine(scoring.RuleSet[Rules, win]{
	Name: "sanma", Presets: sanmaPresets(), Default: "sanma", Options: options,
	WithOptions: Rules.WithOptions, Read: read, Score: score,
})

// win is a request as riichi reads it: the hand, and the seat responsible
// for a yakuman under rules.Responsibility (option pao, "" for none).
type win struct {
	hand *scoring.Hand
	pao  string
}

func read(r *scoring.Request) (win, *scoring.Error) {
	h, err := scoring.ParseHand(r)
	if err != nil {
		return win{}, err
	}
	pao, err := scoring.StringOption(r.Options, "pao", "")
	return win{h, pao}, err
}

// Check refuses a request whose tiles or flags cannot happen together.
func Check(h *scoring.Hand, rules *Rules) *scoring.Error {
	if e := h.CheckMeldShapes(); e != nil {
		return e
	}
	for _, t := range h.Concealed {
		if !t.Playing() {
			return scoring.Errorf(scoring.CodeBadRequest, "%s is not a riichi tile: riichi uses 1–9m/p/s, 0m/0p/0s and 1z–7z", t)
		}
	}
	n := len(h.Concealed) + 3*len(h.Melds)
	if n != 14 {
		return scoring.Errorf(scoring.CodeWrongTileCount, "the hand holds %d tiles counting each meld as three; a winning hand holds 14 (concealed tiles with the winning tile, plus 3 per meld)", n)
	}
	if e := h.CheckCopies(false); e != nil {
		return e
	}
	if len(h.Flowers) > 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "riichi has no flowers: leave \"flowers\" empty (sanma's north winds go in \"nuki\")")
	}
	if rules.Sanma {
		for _, t := range h.AllTiles() {
			if k := t.Kind(); k >= 1 && k <= 7 {
				return scoring.Errorf(scoring.CodeBadRequest, "%s is not in a sanma set: 2m–8m are taken out", t)
			}
		}
		for _, m := range h.Melds {
			if m.Type == scoring.Chi {
				return scoring.Errorf(scoring.CodeBadRequest, "sanma allows no open chi")
			}
		}
	} else if h.Nuki > 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "nuki dora (north winds set aside) exist only in sanma: use rules \"sanma\"")
	}
	closed := h.Closed()
	switch {
	case (h.Riichi || h.DoubleRiichi) && !closed:
		return scoring.Errorf(scoring.CodeBadRequest, "riichi needs a concealed hand, but the hand has an open meld")
	case h.Ippatsu && !h.Riichi && !h.DoubleRiichi:
		return scoring.Errorf(scoring.CodeBadRequest, "ippatsu needs riichi")
	case h.Chankan && h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "chankan (robbing a kong) is a win on another player's tile, not tsumo")
	case h.Rinshan && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "rinshan (kong replacement tile) is a self-draw: set tsumo")
	case h.Haitei && !h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "haitei is a self-draw of the last tile: set tsumo (houtei is the last discard)")
	case h.Houtei && h.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "houtei is a win on the last discard, not tsumo (haitei is the self-drawn last tile)")
	case h.Haitei && h.Rinshan:
		return scoring.Errorf(scoring.CodeBadRequest, "haitei and rinshan cannot happen together: a kong replacement tile is not the last wall tile")
	case h.Houtei && h.Chankan:
		return scoring.Errorf(scoring.CodeBadRequest, "houtei and chankan cannot happen together")
	case h.Tenhou && (!h.Dealer() || !h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "tenhou is the dealer's self-drawn win on the first draw, with no meld")
	case h.Chiihou && (h.Dealer() || !h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "chiihou is a non-dealer's self-drawn win on the first draw, with no meld")
	case h.Renhou && (h.Dealer() || h.Tsumo || len(h.Melds) > 0):
		return scoring.Errorf(scoring.CodeBadRequest, "renhou is a non-dealer's win on a discard before their first draw, with no meld")
	}
	return nil
}

// score scores a read hand: the reading that pays most.
func score(w win, rules *Rules) scoring.Result {
	h := w.hand
	if e := Check(h, rules); e != nil {
		return scoring.Result{Error: e}
	}
	f := newFacts(h, rules)
	best := scoring.Best[eval]{Better: better}
	var cur eval
	f.readings(func(r *reading) {
		f.evaluate(r, &cur)
		best.Add(&cur)
	})
	e := best.Chosen()
	if e == nil {
		return scoring.NotAWin(h, "four sets and a pair, seven pairs or thirteen orphans", "")
	}
	if e.yakuman == 0 && e.yakuHan == 0 {
		return scoring.Result{Error: scoring.Errorf(scoring.CodeNoYaku,
			"the hand is complete but has no yaku (dora do not count): it needs riichi, a closed self-draw, a value set, tanyao or another yaku")}
	}
	return f.result(e, best.All(), w.pao)
}

// better orders readings: what the winner receives, then han, then fu,
// then fu from sets.
func better(a, b *eval) bool {
	if a.pay != b.pay {
		return a.pay > b.pay
	}
	if a.yakuman != b.yakuman {
		return a.yakuman > b.yakuman
	}
	if a.han != b.han {
		return a.han > b.han
	}
	if a.fu != b.fu {
		return a.fu > b.fu
	}
	return a.setFu > b.setFu
}

// Breakdown explains a riichi result.
type Breakdown struct {
	Arrangement  string          `json:"arrangement"`
	Wait         string          `json:"wait"`
	Sets         []SetView       `json:"sets,omitempty"`
	Fu           []FuView        `json:"fu,omitempty"`
	Dora         int             `json:"dora"`
	UraDora      int             `json:"ura_dora"`
	AkaDora      int             `json:"aka_dora"`
	NukiDora     int             `json:"nuki_dora,omitempty"`
	BasicPoints  int             `json:"basic_points"`
	Dealer       bool            `json:"dealer"`
	Alternatives []Alternative   `json:"alternatives,omitempty"`
	Rules        map[string]bool `json:"rules"`
}

// SetView is one set of the chosen reading.
type SetView struct {
	Tiles     string `json:"tiles"`
	Kind      string `json:"kind"`
	Open      bool   `json:"open"`
	Concealed bool   `json:"concealed"`
	Fu        int    `json:"fu"`
}

// FuView is one line of the fu table.
type FuView struct {
	Fu     int    `json:"fu"`
	Reason string `json:"reason"`
	Set    string `json:"set,omitempty"`
}

// Alternative is another reading of the same hand and what it would pay.
type Alternative struct {
	Arrangement string   `json:"arrangement"`
	Wait        string   `json:"wait"`
	Han         int      `json:"han"`
	Fu          int      `json:"fu"`
	Yakuman     int      `json:"yakuman"`
	Total       int      `json:"total"`
	Yaku        []string `json:"yaku"`
	Chosen      bool     `json:"chosen,omitempty"`
}

// Readings lists the readings weighed, with what each would pay, for a
// referee (scoring.Weighed).
func (b *Breakdown) Readings() []scoring.Alternative {
	out := make([]scoring.Alternative, len(b.Alternatives))
	for i := range b.Alternatives {
		a := &b.Alternatives[i]
		out[i] = scoring.Alternative{Shown: a, Arrangement: a.Arrangement, Chosen: a.Chosen,
			Worth: scoring.Worth{Han: &a.Han, Fu: &a.Fu, Yakuman: &a.Yakuman, Points: &a.Total}}
	}
	return out
}

func (f *facts) result(e *eval, all []eval, pao string) scoring.Result {
	res := scoring.Result{OK: true, Limit: e.limit, Yakuman: e.yakuman}
	if e.yakuman == 0 {
		res.Han, res.Fu = e.han, e.fu
	}
	for i := 0; i < e.nYaku; i++ {
		y := e.yaku[i]
		res.Yaku = append(res.Yaku, scoring.Yaku{ID: int(y.id), Name: YakuName(int(y.id)), Han: int(y.han), Yakuman: int(y.yakuman)})
	}
	resp := f.responsibility(e, pao)
	res.Points.Payments = f.payments(e.base, resp)
	for _, p := range res.Points.Payments {
		res.Points.Total += p.Amount
	}
	b := &Breakdown{
		Arrangement: arrangement(&e.r), Wait: waitName(&e.r),
		Dora: f.dora, UraDora: f.ura, AkaDora: f.aka, NukiDora: f.nuki,
		BasicPoints: e.base, Dealer: f.h.Dealer(),
		Rules: map[string]bool{
			"open_tanyao": f.rules.OpenTanyao, "aka_dora": f.rules.AkaDora, "double_yakuman": f.rules.DoubleYakuman,
			"kazoe_yakuman": f.rules.KazoeYakuman, "kiriage_mangan": f.rules.KiriageMangan, "sanma": f.rules.Sanma,
		},
	}
	if e.r.form == formStandard {
		for i := range e.r.Sets {
			s := &e.r.Sets[i]
			fu := 0
			for j := 0; j < e.nFu; j++ {
				if e.fuItems[j].reason == fuSet && int(e.fuItems[j].set) == i {
					fu = int(e.fuItems[j].fu)
				}
			}
			b.Sets = append(b.Sets, SetView{Tiles: scoring.FormatTiles(s.Tiles()), Kind: s.Kind.String(), Open: s.Open, Concealed: s.Concealed, Fu: fu})
		}
	}
	if e.yakuman == 0 {
		for i := 0; i < e.nFu; i++ {
			it := e.fuItems[i]
			v := FuView{Fu: int(it.fu), Reason: fuReasons[it.reason]}
			switch {
			case it.reason == fuSet:
				v.Set = scoring.FormatTiles(e.r.Sets[it.set].Tiles())
				v.Reason = fuSetReason(&e.r.Sets[it.set])
			case it.reason == fuPair:
				v.Set = scoring.FormatTiles([]scoring.Tile{e.r.Pair, e.r.Pair})
				v.Reason = "value pair (dragon, seat or round wind)"
			case it.reason == fuWait:
				v.Reason = waitName(&e.r) + " wait"
			}
			b.Fu = append(b.Fu, v)
		}
	}
	if len(all) > 1 {
		for i := range all {
			a := &all[i]
			alt := Alternative{Arrangement: arrangement(&a.r), Wait: waitName(&a.r), Han: a.han, Fu: a.fu, Yakuman: a.yakuman, Total: a.pay}
			if a.yakuman == 0 && a.yakuHan == 0 {
				alt.Total = 0
			}
			for j := 0; j < a.nYaku; j++ {
				alt.Yaku = append(alt.Yaku, YakuName(int(a.yaku[j].id)))
			}
			alt.Chosen = a.r == e.r
			b.Alternatives = append(b.Alternatives, alt)
		}
	}
	res.Breakdown = b
	return res
}

func (f *facts) responsibility(e *eval, pao string) *responsibility {
	if pao == "" {
		return nil
	}
	for i := 0; i < e.nYaku; i++ {
		for _, id := range f.rules.Responsibility {
			if int(e.yaku[i].id) == id {
				return &responsibility{applies: true, from: pao}
			}
		}
	}
	return nil
}

func fuSetReason(s *scoring.Group) string {
	var b strings.Builder
	if s.Concealed {
		b.WriteString("concealed ")
	} else {
		b.WriteString("open ")
	}
	if s.Tile.IsTerminalOrHonor() {
		b.WriteString("terminal/honor ")
	} else {
		b.WriteString("simple ")
	}
	b.WriteString(s.Kind.String())
	return b.String()
}

func arrangement(r *reading) string {
	switch r.form {
	case formSevenPairs:
		return "seven pairs"
	case formOrphans:
		return "thirteen orphans"
	}
	return r.Reading.String()
}

func waitName(r *reading) string { return r.Wait.String() }
