package hk

import "mjscan/scoring"

// form is the overall shape of a winning hand.
type form uint8

const (
	formRegular    form = iota // four sets and a pair
	formSevenPairs             // optional house rule
	formOrphans                // Thirteen Orphans
)

// reading is one arrangement of the hand; the best one counts ("a hand may
// be arranged freely; the highest-scoring arrangement counts", HK.md §2).
// Win is -1 for the pair or an irregular hand.
type reading struct {
	form form
	scoring.Reading
}

// facts are what the whole hand shows, whatever the arrangement.
type facts struct {
	h      *scoring.Hand
	rules  *Rules
	win    scoring.Tile
	all    scoring.Counts
	melds  [4]scoring.Group
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
		s := scoring.MeldGroup(f.nMelds, m)
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
			fn(&reading{form: formOrphans, Reading: scoring.Reading{Win: -1}})
		}
		if f.rules.SevenPairs && scoring.IsSevenPairs(&c, false) {
			fn(&reading{form: formSevenPairs, Reading: scoring.Reading{Win: -1}})
		}
	}
	r := reading{form: formRegular}
	scoring.StandardReadings(&c, f.melds[:f.nMelds], f.win, f.h.Tsumo, func(sr *scoring.Reading) {
		r.Reading = *sr
		fn(&r)
	})
}
