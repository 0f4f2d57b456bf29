package hk

import "mjscan/scoring"

// form is the overall shape of a winning hand.
type form uint8

const (
	formRegular    form = iota // four sets and a pair
	formSevenPairs             // optional house rule
	formOrphans                // Thirteen Orphans
)

// set is one of the four sets of a reading.
type set struct {
	kind      scoring.SetKind // Chow, Pung or Kong
	tile      scoring.Tile    // lowest tile kind
	open      bool            // from a claimed meld
	concealed bool            // a pung or kong neither claimed nor completed by a discard
}

func (s *set) triplet() bool { return s.kind == scoring.Pung || s.kind == scoring.Kong }

// reading is one arrangement of the hand; the best one counts ("a hand may
// be arranged freely; the highest-scoring arrangement counts", HK.md §2).
type reading struct {
	form form
	sets [4]set
	pair scoring.Tile
	win  int8 // set the winning tile completed; -1 the pair or an irregular hand
}

// facts are what the whole hand shows, whatever the arrangement.
type facts struct {
	h      *scoring.Hand
	rules  *Rules
	win    scoring.Tile
	all    scoring.Counts
	melds  [4]set
	nMelds int
	closed bool

	suits     uint8 // bit per number suit present
	honors    bool
	terminals bool
	termHon   bool // only terminals and honours
	nineGates bool
	// afterFlower: self-drawn on a bonus-tile replacement (option
	// flower_replacement: the CONTRACT has no field for it).
	afterFlower bool
}

func newFacts(h *scoring.Hand, rules *Rules) *facts {
	f := &facts{h: h, rules: rules, win: h.Win.Kind(), closed: h.Closed()}
	f.all = scoring.CountOf(h.Concealed)
	for _, m := range h.Melds {
		for _, t := range m.Tiles {
			f.all[t.Kind()]++
		}
		s := set{tile: m.Base(), open: m.Open(), concealed: m.Type == scoring.Ankan}
		switch {
		case m.Type == scoring.Chi:
			s.kind = scoring.Chow
		case m.IsKong():
			s.kind = scoring.Kong
		default:
			s.kind = scoring.Pung
		}
		f.melds[f.nMelds] = s
		f.nMelds++
	}
	f.termHon = true
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if f.all[t] == 0 {
			continue
		}
		switch {
		case t.IsHonor():
			f.honors = true
		case t.IsTerminal():
			f.terminals = true
			f.suits |= 1 << (t / 9)
		default:
			f.termHon = false
			f.suits |= 1 << (t / 9)
		}
	}
	f.nineGates = f.nMelds == 0 && isNineGates(&f.all)
	return f
}

// isNineGates reports whether the fourteen tiles are 1112345678999 of one
// suit plus any tile of it; unlike Zung Jung, HK asks for no nine-sided wait.
func isNineGates(c *scoring.Counts) bool {
	want := [9]uint8{3, 1, 1, 1, 1, 1, 1, 1, 3}
	for s := scoring.Tile(0); s < 3; s++ {
		extra := 0
		ok := true
		for i := scoring.Tile(0); i < 9; i++ {
			n := c[s*9+i]
			if n < want[i] {
				ok = false
				break
			}
			extra += int(n - want[i])
		}
		if ok && extra == 1 {
			return c.Total() == 14
		}
	}
	return false
}

// readings calls fn for every arrangement of the winning hand.
func (f *facts) readings(fn func(r *reading)) {
	c := scoring.CountOf(f.h.Concealed)
	if f.nMelds == 0 {
		if scoring.IsThirteenOrphans(&c) {
			fn(&reading{form: formOrphans, win: -1})
		}
		if f.rules.SevenPairs && scoring.IsSevenPairs(&c, false) {
			fn(&reading{form: formSevenPairs, win: -1})
		}
	}
	var r reading
	tsumo := f.h.Tsumo
	scoring.Divisions(&c, func(d *scoring.Division) {
		if d.N+f.nMelds != 4 {
			return
		}
		n := 0
		for i := 0; i < d.N; i++ {
			s := d.Sets[i]
			r.sets[n] = set{kind: s.Kind, tile: s.Tile, concealed: s.Kind == scoring.Pung}
			n++
		}
		for i := 0; i < f.nMelds; i++ {
			r.sets[n] = f.melds[i]
			n++
		}
		r.form = formRegular
		r.pair = d.Pair
		// A pung completed by a discard is not concealed; the winner may
		// place the winning tile in any concealed set or the pair.
		for i := 0; i < d.N; i++ {
			if !d.Sets[i].Contains(f.win) || seenBefore(&r, i) {
				continue
			}
			keep := r.sets[i].concealed
			if r.sets[i].kind == scoring.Pung && !tsumo {
				r.sets[i].concealed = false
			}
			r.win = int8(i)
			fn(&r)
			r.sets[i].concealed = keep
		}
		if d.Pair == f.win {
			r.win = -1
			fn(&r)
		}
	})
}

func seenBefore(r *reading, i int) bool {
	for j := 0; j < i; j++ {
		if r.sets[j].kind == r.sets[i].kind && r.sets[j].tile == r.sets[i].tile {
			return true
		}
	}
	return false
}
