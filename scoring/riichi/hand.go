package riichi

import (
	"mjscan/scoring"
)

// form is the overall shape of a winning hand.
type form uint8

const (
	formStandard form = iota
	formSevenPairs
	formOrphans
)

// reading is one way to read the winning hand: seven pairs, thirteen
// orphans, or a standard reading with its sets, pair and wait.
type reading struct {
	form form
	scoring.Reading
}

// facts are what the whole hand shows, whatever the reading.
type facts struct {
	h       *scoring.Hand
	rules   *Rules
	closed  bool
	win     scoring.Tile // kind of the winning tile
	all     scoring.Counts
	melds   [4]scoring.Group
	nMelds  int
	kongs   int
	suits   uint8 // bit per suit present (man, pin, sou)
	honors  bool
	simples bool // every tile 2–8
	termHon bool // every tile a terminal or honor
	honOnly bool
	termOnl bool
	green   bool
	dora    int
	ura     int
	aka     int
	nuki    int
}

var greenTiles = func() (g [scoring.NumKinds]bool) {
	for _, t := range []scoring.Tile{19, 20, 21, 23, 25, scoring.Green} { // 2s 3s 4s 6s 8s 6z
		g[t] = true
	}
	return
}()

func newFacts(h *scoring.Hand, rules *Rules) *facts {
	f := &facts{h: h, rules: rules, closed: h.Closed(), win: h.Win.Kind()}
	f.all = scoring.CountOf(h.Concealed)
	for i, m := range h.Melds {
		for _, t := range m.Tiles {
			f.all[t.Kind()]++
		}
		s := scoring.MeldGroup(i, m)
		if s.Kind == scoring.Kong {
			f.kongs++
		}
		f.melds[f.nMelds] = s
		f.nMelds++
	}
	f.simples, f.termHon, f.honOnly, f.termOnl, f.green = true, true, true, true, true
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if f.all[t] == 0 {
			continue
		}
		if t < 27 {
			f.suits |= 1 << (t / 9)
			f.honOnly = false
		} else {
			f.honors = true
			f.termOnl = false
		}
		if t.IsSimple() {
			f.termHon, f.termOnl = false, false
		} else {
			f.simples = false
		}
		if !greenTiles[t] {
			f.green = false
		}
	}
	f.countDora()
	return f
}

// doraOf maps an indicator to the dora it shows.
func doraOf(ind scoring.Tile, sanma bool) scoring.Tile {
	k := ind.Kind()
	switch {
	case k < 27:
		if sanma && k == 0 { // 1m shows 9m: 2m–8m are not in a sanma set
			return 8
		}
		if k%9 == 8 {
			return k - 8
		}
		return k + 1
	case k <= scoring.North:
		if k == scoring.North {
			return scoring.East
		}
		return k + 1
	case k < scoring.NumKinds:
		if k == scoring.Red {
			return scoring.White
		}
		return k + 1
	}
	return scoring.NoTile
}

func (f *facts) countDora() {
	h := f.h
	count := func(inds []scoring.Tile) (n int) {
		for _, ind := range inds {
			d := doraOf(ind, f.rules.Sanma)
			if d < scoring.NumKinds {
				n += int(f.all[d])
				if d == scoring.North {
					f.nuki += h.Nuki
				}
			}
		}
		return n
	}
	f.dora = count(h.DoraIndicators)
	if h.Riichi || h.DoubleRiichi {
		f.ura = count(h.UraIndicators)
	}
	f.nuki += h.Nuki
	if f.rules.AkaDora {
		for _, t := range h.Concealed {
			if t.IsRed() {
				f.aka++
			}
		}
		for _, m := range h.Melds {
			for _, t := range m.Tiles {
				if t.IsRed() {
					f.aka++
				}
			}
		}
	}
}

// readings calls fn for every reading of the winning hand.
func (f *facts) readings(fn func(r *reading)) {
	c := scoring.CountOf(f.h.Concealed)
	if f.nMelds == 0 {
		if scoring.IsThirteenOrphans(&c) {
			fn(&reading{form: formOrphans, Reading: scoring.Reading{Win: -1, Wait: scoring.Tanki}})
			return
		}
		if scoring.IsSevenPairs(&c, false) {
			fn(&reading{form: formSevenPairs, Reading: scoring.Reading{Win: -1, Wait: scoring.Tanki}})
		}
	}
	r := reading{form: formStandard}
	scoring.StandardReadings(&c, f.melds[:f.nMelds], f.win, f.h.Tsumo, func(sr *scoring.Reading) {
		r.Reading = *sr
		fn(&r)
	})
}
