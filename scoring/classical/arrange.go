package classical

import (
	"mjscan/scoring"
)

// slot is one tile of a set: the tile as held (a natural tile, a joker, or
// a bonus tile claimed as the winning discard) and the tile it counts as.
type slot struct {
	tile scoring.Tile
	as   scoring.Tile
}

// single marks the lone tiles of Thirteen Orphans (every other set has a
// scoring.SetKind).
const single scoring.SetKind = 0

// set is one set of an arrangement, with the tiles that fill it.
type set struct {
	kind  scoring.SetKind // Chow, Pung, Kong, Pair (or single, for Thirteen Orphans)
	tile  scoring.Tile    // lowest tile counted
	meld  int             // index of the meld, -1 for concealed tiles
	open  bool            // an exposed meld
	slots []slot
}

// arrangement is one way to read the whole hand: four sets and a pair
// (melds included) or the thirteen tiles of Thirteen Orphans.
type arrangement struct {
	sets    []set
	orphans bool
}

// wild is a tile that stands for another: a joker, or a bonus tile taken
// as the winning discard (which stands for anything).
type wild struct {
	tile scoring.Tile
	any  bool
	n    int
}

// searcher finds every arrangement of the concealed tiles around fixed
// meld sets, placing jokers where their class allows.
type searcher struct {
	c        scoring.Counts // natural tiles not yet placed
	wilds    []wild
	allow    JokerRule
	used     [scoring.NumKinds]uint8 // tiles counted so far (naturals, melds, jokers' stand-ins), at most 4 each
	need     int                     // sets still to place
	pairDone bool
	cur      []set
	melds    []set
	out      func(arrangement)
	budget   int // arrangements still allowed, against hostile joker counts
	steps    int // search steps still allowed
	// truncated: a budget ran out, so not every arrangement was seen.
	truncated bool
}

// maxArrangements and maxSteps bound the search: a hand stuffed with
// emperor jokers has astronomically many readings, and the first ones found
// are kept.
const (
	maxArrangements = 2_000
	maxSteps        = 100_000
)

func (s *searcher) canStand(w *wild, t scoring.Tile) bool {
	return w.n > 0 && s.used[t] < 4 && (w.any || (s.allow != nil && s.allow(w.tile, t)))
}

func (s *searcher) emit() {
	if s.budget <= 0 {
		return
	}
	s.budget--
	sets := make([]set, 0, len(s.cur)+len(s.melds))
	for _, st := range s.cur {
		st.slots = append([]slot(nil), st.slots...)
		sets = append(sets, st)
	}
	sets = append(sets, s.melds...)
	s.out(arrangement{sets: sets})
}

// place tries to fill the kinds of a set slot by slot: each slot takes a
// natural tile or a wild that may stand there. minWild keeps wilds in a
// non-decreasing order within sets of identical tiles, so each filling is
// found once.
func (s *searcher) place(kind scoring.SetKind, kinds []scoring.Tile, filled []slot, minWild int, identical bool, then func()) {
	k := len(filled)
	if k == len(kinds) {
		s.cur = append(s.cur, set{kind: kind, tile: kinds[0], meld: -1, slots: filled})
		then()
		s.cur = s.cur[:len(s.cur)-1]
		return
	}
	t := kinds[k]
	if s.c[t] > 0 && (!identical || minWild == 0) {
		s.c[t]--
		s.place(kind, kinds, append(filled, slot{t, t}), minWild, identical, then)
		s.c[t]++
	}
	start := 0
	if identical {
		start = max(minWild-1, 0)
	}
	for wi := start; wi < len(s.wilds); wi++ {
		w := &s.wilds[wi]
		if !s.canStand(w, t) {
			continue
		}
		w.n--
		s.used[t]++
		s.place(kind, kinds, append(filled, slot{w.tile, t}), wi+1, identical, then)
		s.used[t]--
		w.n++
	}
}

// run places the lowest natural tile left in every set that can hold it.
func (s *searcher) run() {
	if s.spent() {
		return
	}
	i := scoring.Tile(0)
	for i < scoring.NumKinds && s.c[i] == 0 {
		i++
	}
	if i == scoring.NumKinds {
		s.wildsOnly(0)
		return
	}
	// The lowest natural tile takes the first slot of its set (a chow may
	// start with jokers below it).
	s.c[i]--
	first := []slot{{i, i}}
	if !s.pairDone {
		s.pairDone = true
		s.place(scoring.Pair, []scoring.Tile{i, i}, first, 0, true, s.run)
		s.pairDone = false
	}
	if s.need > 0 {
		s.need--
		s.place(scoring.Pung, []scoring.Tile{i, i, i}, first, 0, true, s.run)
		if i < 27 {
			for p := 0; p < 3; p++ { // i at position p of the chow
				lo := int(i) - p
				if lo < int(i/9*9) || lo%9 > 6 {
					continue
				}
				s.chowAround(scoring.Tile(lo), p, i)
			}
		}
		s.need++
	}
	s.c[i]++
}

// chowAround fills the chow starting at lo with natural i at position p;
// the slots below p can only be wilds (no natural below i is left).
func (s *searcher) chowAround(lo scoring.Tile, p int, i scoring.Tile) {
	kinds := []scoring.Tile{lo, lo + 1, lo + 2}
	var fill func(k int, filled []slot)
	fill = func(k int, filled []slot) {
		if k == 3 {
			s.cur = append(s.cur, set{kind: scoring.Chow, tile: lo, meld: -1, slots: filled})
			s.run()
			s.cur = s.cur[:len(s.cur)-1]
			return
		}
		t := kinds[k]
		if k == p {
			fill(k+1, append(filled, slot{i, i}))
			return
		}
		if s.c[t] > 0 {
			s.c[t]--
			fill(k+1, append(filled, slot{t, t}))
			s.c[t]++
		}
		for wi := range s.wilds {
			w := &s.wilds[wi]
			if !s.canStand(w, t) {
				continue
			}
			w.n--
			s.used[t]++
			fill(k+1, append(filled, slot{w.tile, t}))
			s.used[t]--
			w.n++
		}
	}
	fill(0, nil)
}

// wildsOnly builds the sets made of wilds alone, once every natural tile
// is placed. The sets are built in a canonical order (the pair first, then
// pungs and chows by key) so that each arrangement is found once.
func (s *searcher) wildsOnly(minKey int) {
	if s.spent() {
		return
	}
	left := 0
	for _, w := range s.wilds {
		left += w.n
	}
	want := 3 * s.need
	if !s.pairDone {
		want += 2
	}
	if left != want {
		return
	}
	if left == 0 {
		s.emit()
		return
	}
	if !s.pairDone {
		s.pairDone = true
		for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
			s.place(scoring.Pair, []scoring.Tile{t, t}, nil, 0, true, func() { s.wildsOnly(0) })
		}
		s.pairDone = false
		return
	}
	s.need--
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if key := int(t); key >= minKey {
			s.place(scoring.Pung, []scoring.Tile{t, t, t}, nil, 0, true, func() { s.wildsOnly(key) })
		}
	}
	for lo := scoring.Tile(0); lo < 27; lo++ {
		if key := scoring.NumKinds + int(lo); lo%9 <= 6 && key >= minKey {
			s.place(scoring.Chow, []scoring.Tile{lo, lo + 1, lo + 2}, nil, 0, false, func() { s.wildsOnly(key) })
		}
	}
	s.need++
}

// spent counts one search step and reports whether the search budget is
// used up (a hand stuffed with jokers has astronomically many readings;
// the best of those found is kept and the breakdown says so).
func (s *searcher) spent() bool {
	s.steps--
	if s.steps < 0 || s.budget <= 0 {
		s.truncated = true
		return true
	}
	return false
}

// orphanKinds are the thirteen terminal and honor kinds.
var orphanKinds = [13]scoring.Tile{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}

// thirteenOrphans emits every way the concealed tiles (no melds) read as
// Thirteen Orphans, jokers filling the missing kinds.
func (s *searcher) thirteenOrphans() {
	isOrphan := [scoring.NumKinds]bool{}
	for _, t := range orphanKinds {
		isOrphan[t] = true
	}
	for t, n := range s.c {
		if n > 0 && !isOrphan[t] {
			return
		}
	}
	for _, p := range orphanKinds {
		ok := true
		for _, t := range orphanKinds {
			need := uint8(1)
			if t == p {
				need = 2
			}
			if s.c[t] > need {
				ok = false
			}
		}
		if ok {
			s.fillOrphans(p, 0, nil)
		}
	}
}

func (s *searcher) fillOrphans(pair scoring.Tile, k int, sets []set) {
	if s.spent() {
		return
	}
	if k == len(orphanKinds) {
		for _, w := range s.wilds {
			if w.n > 0 {
				return
			}
		}
		if s.budget > 0 {
			s.budget--
			out := make([]set, len(sets))
			for i, st := range sets {
				st.slots = append([]slot(nil), st.slots...)
				out[i] = st
			}
			s.out(arrangement{sets: out, orphans: true})
		}
		return
	}
	t := orphanKinds[k]
	kind, need := single, 1
	if t == pair {
		kind, need = scoring.Pair, 2
	}
	nat := min(int(s.c[t]), need)
	var slots []slot
	for j := 0; j < nat; j++ {
		slots = append(slots, slot{t, t})
	}
	var fill func(slots []slot, minWild int)
	fill = func(slots []slot, minWild int) {
		if len(slots) == need {
			s.fillOrphans(pair, k+1, append(sets, set{kind: kind, tile: t, meld: -1, slots: slots}))
			return
		}
		for wi := minWild; wi < len(s.wilds); wi++ {
			w := &s.wilds[wi]
			if !s.canStand(w, t) {
				continue
			}
			w.n--
			s.used[t]++
			fill(append(slots, slot{w.tile, t}), wi)
			s.used[t]--
			w.n++
		}
	}
	fill(slots, 0)
}
