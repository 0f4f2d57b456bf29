package zungjung

import "mjscan/scoring"

// form is the overall shape of a winning hand: the regular hand of four
// sets and a pair, or one of the two irregular hands of category 10.
type form uint8

const (
	formRegular form = iota
	formSevenPairs
	formThirteen
)

// reading is one arrangement of the winning hand (freedom of count: the
// winner picks the one that scores most, and patterns of different
// arrangements never combine). Win is -1 for the pair or an irregular hand.
type reading struct {
	form  form
	pairs [7]scoring.Tile // seven pairs, in tile order
	scoring.Reading
}

// facts are what the whole hand shows, whatever the arrangement.
type facts struct {
	h      *scoring.Hand
	rules  *Rules
	win    scoring.Tile
	all    scoring.Counts // every tile, melds included
	melds  [4]scoring.Group
	nMelds int
	closed bool // no claimed meld (concealed kongs allowed)

	suits     uint8 // bit per number suit present
	honors    bool
	terminals bool
	simples   bool // every tile 2–8
	termHon   bool // every tile a terminal or an honor
	nineGates bool // 2.2: the 13 tiles before the winning tile are 1112345678999 of one suit

	// penalty counts the concealed tiles that are penalty tiles (seed 004:
	// tiles exposed illegally, or after a false win). They may form only
	// concealed sets: a claimed discard cannot complete a set or the pair
	// with them.
	penalty    scoring.Counts
	hasPenalty bool
}

func newFacts(h *scoring.Hand, rules *Rules) *facts {
	f := &facts{h: h, rules: rules, win: h.Win.Kind(), closed: h.Closed()}
	f.all = scoring.CountOf(h.Concealed)
	for i, m := range h.Melds {
		for _, t := range m.Tiles {
			f.all[t.Kind()]++
		}
		s := scoring.MeldGroup(i, m)
		f.melds[f.nMelds] = s
		f.nMelds++
	}
	f.simples, f.termHon = true, true
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if f.all[t] == 0 {
			continue
		}
		switch {
		case t.IsHonor():
			f.honors = true
			f.simples = false
		case t.IsTerminal():
			f.terminals = true
			f.simples = false
			f.suits |= 1 << (t / 9)
		default:
			f.termHon = false
			f.suits |= 1 << (t / 9)
		}
	}
	f.nineGates = f.nMelds == 0 && isNineGatesWait(h)
	return f
}

// isNineGatesWait reports whether the 13 tiles before the winning tile are
// exactly 1112345678999 of one suit: ZJ 2.2 asks for the nine-sided wait.
func isNineGatesWait(h *scoring.Hand) bool {
	c := scoring.CountOf(h.Concealed)
	w := h.Win.Kind()
	if !w.Suited() || c[w] == 0 {
		return false
	}
	c[w]--
	base := w / 9 * 9
	want := [9]uint8{3, 1, 1, 1, 1, 1, 1, 1, 3}
	for i := scoring.Tile(0); i < 9; i++ {
		if c[base+i] != want[i] {
			return false
		}
	}
	return c.Total() == 13
}

// readings calls fn for every arrangement of the winning hand.
func (f *facts) readings(fn func(r *reading)) {
	c := scoring.CountOf(f.h.Concealed)
	orig := c // Divisions takes tiles out of c while it works
	if f.nMelds == 0 {
		if scoring.IsThirteenOrphans(&c) && f.pairOK(&c) {
			fn(&reading{form: formThirteen, Reading: scoring.Reading{Win: -1}})
		}
		// Four alike may be two pairs, as long as they were not declared
		// as a kong (seed 000); a declared kong is a meld, so the hand
		// would not be fourteen concealed tiles.
		if scoring.IsSevenPairs(&c, true) && f.pairOK(&c) {
			r := reading{form: formSevenPairs, Reading: scoring.Reading{Win: -1}}
			n := 0
			for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
				for k := uint8(0); k < c[t]/2; k++ {
					r.pairs[n] = t
					n++
				}
			}
			fn(&r)
		}
	}
	r := reading{form: formRegular}
	// A triplet completed by a claimed discard is not concealed (ZJ 4.2),
	// but the winner may place the tile elsewhere; penalty tiles limit
	// where a claimed discard may go.
	scoring.StandardReadings(&c, f.melds[:f.nMelds], f.win, f.h.Tsumo, func(sr *scoring.Reading) {
		if sr.Win >= 0 && !f.setOK(&orig, sr.Sets[sr.Win]) || sr.Win < 0 && !f.pairOK(&orig) {
			return
		}
		r.Reading = *sr
		fn(&r)
	})
}

// free is how many tiles of kind k in the concealed counts c (winning tile
// included) are neither the winning discard itself nor penalty tiles.
func (f *facts) free(c *scoring.Counts, k scoring.Tile) int {
	n := int(c[k]) - int(f.penalty[k])
	if k == f.win {
		n--
	}
	return n
}

// setOK reports whether a claimed winning discard may complete set s:
// its other tiles must not be penalty tiles (seed 004: "penalty tiles …
// cannot be melded (including melding when winning on discard) into an
// exposed sequence, an exposed triplet").
func (f *facts) setOK(c *scoring.Counts, s scoring.Group) bool {
	if !f.hasPenalty || f.h.Tsumo {
		return true
	}
	if s.Kind == scoring.Chow {
		for t := s.Tile; t < s.Tile+3; t++ {
			if t != f.win && f.free(c, t) < 1 {
				return false
			}
		}
		return true
	}
	return f.free(c, f.win) >= 2
}

// pairOK reports whether a claimed winning discard may pair with a tile of
// the hand: "and may not form the pair of exposed eyes with a discarded
// tile when winning" (seed 004).
func (f *facts) pairOK(c *scoring.Counts) bool {
	if !f.hasPenalty || f.h.Tsumo || c[f.win] < 2 {
		return true
	}
	return f.free(c, f.win) >= 1
}
