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

// set is one of the four sets of a reading, with what fu and yaku need.
type set struct {
	kind      scoring.SetKind // Chow, Pung or Kong
	tile      scoring.Tile    // lowest tile kind
	open      bool            // from a called meld
	concealed bool            // counts as concealed (ankou): not called and not completed by a discard
	meld      int8            // meld index, -1 for concealed tiles
}

// reading is one way to read the winning hand: its sets, pair and wait.
type reading struct {
	form form
	sets [4]set
	pair scoring.Tile
	win  int8 // index in sets of the set the winning tile completed, -1 for the pair
	wait scoring.WaitShape
}

// facts are what the whole hand shows, whatever the reading.
type facts struct {
	h       *scoring.Hand
	rules   *Rules
	closed  bool
	win     scoring.Tile // kind of the winning tile
	all     scoring.Counts
	melds   [4]set
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
		s := set{tile: m.Base(), open: m.Open(), concealed: !m.Open(), meld: int8(i)}
		switch {
		case m.Type == scoring.Chi:
			s.kind = scoring.Chow
		case m.IsKong():
			s.kind = scoring.Kong
			f.kongs++
		default:
			s.kind = scoring.Pung
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
			fn(&reading{form: formOrphans, win: -1, wait: scoring.Tanki})
			return
		}
		if scoring.IsSevenPairs(&c, false) {
			fn(&reading{form: formSevenPairs, win: -1, wait: scoring.Tanki})
		}
	}
	var r reading
	tsumo := f.h.Tsumo
	scoring.Divisions(&c, func(d *scoring.Division) {
		n := 0
		for i := 0; i < d.N; i++ {
			s := d.Sets[i]
			r.sets[n] = set{kind: s.Kind, tile: s.Tile, concealed: s.Kind == scoring.Pung, meld: -1}
			n++
		}
		for i := 0; i < f.nMelds; i++ {
			r.sets[n] = f.melds[i]
			n++
		}
		r.form = formStandard
		r.pair = d.Pair
		// The winning tile may have completed any concealed set holding it,
		// or the pair; each choice is a reading of its own.
		for i := 0; i < d.N; i++ {
			s := r.sets[i]
			if !d.Sets[i].Contains(f.win) {
				continue
			}
			key := uint16(s.kind)<<8 | uint16(s.tile)
			if alreadySeen(&r, i, key) {
				continue
			}
			r.win = int8(i)
			if s.kind == scoring.Chow {
				r.wait = scoring.ChowWait(d.Sets[i], f.win)
			} else {
				r.wait = scoring.Shanpon
				if !tsumo {
					r.sets[i].concealed = false // a pung completed by a discard is open
				}
			}
			fn(&r)
			r.sets[i].concealed = s.concealed
		}
		if d.Pair == f.win {
			r.win = -1
			r.wait = scoring.Tanki
			fn(&r)
		}
	})
}

// alreadySeen skips a second identical set (two 234m chows): completing
// either reads the same.
func alreadySeen(r *reading, i int, key uint16) bool {
	for j := 0; j < i; j++ {
		if uint16(r.sets[j].kind)<<8|uint16(r.sets[j].tile) == key {
			return true
		}
	}
	return false
}
