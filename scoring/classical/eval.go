package classical

import (
	"fmt"
	"strings"

	"mjscan/scoring"
)

// item is one line of the points table, tied to what earned it.
type item struct {
	Points int    `json:"points"`
	Reason string `json:"reason"`
	Set    string `json:"set,omitempty"`
}

// double is one doubling, tied to what earned it.
type double struct {
	Doubles int    `json:"doubles"`
	Reason  string `json:"reason"`
	Set     string `json:"set,omitempty"`
}

// reading is an arrangement with the set the winning tile completed.
type reading struct {
	a     *arrangement
	win   int          // index in a.sets of the set holding the winning tile
	winAs scoring.Tile // the tile the winning tile counts as
}

// eval is a scored reading.
type eval struct {
	r          reading
	items      []item
	doubles    []double
	base       int
	nDoubles   int
	raw        int // base doubled, before the limit
	score      int
	limitHands []string
	capped     bool // the limit cut the score (or a limit hand set it)
}

// facts are what the whole hand shows, whatever the reading.
type facts struct {
	h      *scoring.Hand
	rules  *Rules
	round  bool // the round wind is played
	bonus  []scoring.Tile
	waits  map[waitKey]int
	dealer bool
	// truncated: the joker search ran out of budget.
	truncated bool
}

// exposed reports whether set i of reading r counts as exposed: a meld
// other than a concealed kong, or a pung completed by a claimed discard
// (standard classical practice; CLASSICAL.md §2).
func (f *facts) exposed(r reading, i int) bool {
	s := &r.a.sets[i]
	if s.meld >= 0 {
		return s.open
	}
	return i == r.win && !f.h.Tsumo && s.kind == scoring.Pung
}

func orphan(t scoring.Tile) bool { return t.IsTerminalOrHonor() }

// setPoints is the seed 000 table for pungs and kongs.
func setPoints(kind scoring.SetKind, t scoring.Tile, exposed bool) int {
	p := 0
	switch kind {
	case scoring.Pung:
		p = 2
	case scoring.Kong:
		p = 8
	default:
		return 0
	}
	if orphan(t) {
		p *= 2
	}
	if !exposed {
		p *= 2
	}
	return p
}

func setName(kind scoring.SetKind, t scoring.Tile, exposed bool) string {
	var b strings.Builder
	if exposed {
		b.WriteString("exposed ")
	} else {
		b.WriteString("concealed ")
	}
	b.WriteString(kind.String())
	if orphan(t) {
		b.WriteString(" of orphans")
	} else {
		b.WriteString(" of simples")
	}
	return b.String()
}

// setTiles writes a set as the tiles it counts as, jokers marked:
// "555z" or "77z+7j".
func setTiles(s *set) string {
	var counted []scoring.Tile
	var jokers []string
	for _, sl := range s.slots {
		counted = append(counted, sl.as)
		if sl.tile != sl.as {
			jokers = append(jokers, sl.tile.String()+"="+sl.as.String())
		}
	}
	if len(jokers) == 0 {
		return scoring.FormatTiles(counted)
	}
	return scoring.FormatTiles(counted) + " (" + strings.Join(jokers, ", ") + ")"
}

// counted lists every tile of the reading as the tile it counts as.
func counted(a *arrangement) []scoring.Tile {
	var out []scoring.Tile
	for i := range a.sets {
		for _, sl := range a.sets[i].slots {
			out = append(out, sl.as)
		}
	}
	return out
}

// flush reports the suits and honours of the tiles.
func flush(ts []scoring.Tile) (suits int, honors bool) {
	var seen [3]bool
	for _, t := range ts {
		if t.IsHonor() {
			honors = true
		} else if t.Suited() {
			seen[t.Kind()/9] = true
		}
	}
	for _, s := range seen {
		if s {
			suits++
		}
	}
	return
}

// concealed13 is the concealed part of the hand before the winning tile,
// jokers fixed as the tiles they stand for.
func concealed13(r reading) scoring.Counts {
	var c scoring.Counts
	for i := range r.a.sets {
		s := &r.a.sets[i]
		if s.meld >= 0 {
			continue
		}
		for _, sl := range s.slots {
			c[sl.as]++
		}
	}
	c[r.winAs]--
	return c
}

// onlyTile reports whether exactly one tile kind completed the hand
// (seed 000: "only one possible type of tile you could win with"), judged
// on the hand before the win in any arrangement.
func (f *facts) onlyTile(r reading) bool {
	key := waitKey{hand: concealed13(r)}
	for i := range r.a.sets {
		if s := &r.a.sets[i]; s.meld >= 0 {
			for _, sl := range s.slots {
				key.melds[sl.as]++
			}
		}
	}
	if n, ok := f.waits[key]; ok {
		return n == 1
	}
	c := key.hand
	n := 0
	melds := len(f.h.Melds)
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if c[t]+key.melds[t] >= 4 { // all four already in the hand
			continue
		}
		c[t]++
		if scoring.IsStandardWin(&c) || (melds == 0 && scoring.IsThirteenOrphans(&c)) {
			n++
		}
		c[t]--
	}
	f.waits[key] = n
	return n == 1
}

// waitKey caches the waits of a hand before the win: its concealed tiles
// and the tiles of its melds (a tile all four of which are held cannot
// come).
type waitKey struct{ hand, melds scoring.Counts }

// nineGates reports the pure Nine Gates: the hand before the win is
// 1112345678999 of one suit, waiting on all nine tiles (seed 000: "only
// eligible by winning on a nine-way wait").
func (f *facts) nineGates(r reading) bool {
	if len(f.h.Melds) > 0 || r.a.orphans {
		return false
	}
	c := concealed13(r)
	want := [9]uint8{3, 1, 1, 1, 1, 1, 1, 1, 3}
	for suit := 0; suit < 3; suit++ {
		ok := true
		for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
			w := uint8(0)
			if int(t/9) == suit && t < 27 {
				w = want[t%9]
			}
			if c[t] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

var greenTiles = map[scoring.Tile]bool{19: true, 20: true, 21: true, 23: true, 25: true, scoring.Green: true}

// allowed reports whether the reading may win at all under the discard
// rule: a claimed discard must complete a pung, except when robbing a
// kong, for Nine Gates and for Thirteen Orphans.
func (f *facts) allowed(r reading) bool {
	if f.h.Chankan && f.rules.RobHiddenKongOnlyOrphans && f.rules.RobbedKongConcealed && !r.a.orphans {
		return false
	}
	if !f.rules.PungOnlyDiscard || f.h.Tsumo || f.h.Chankan || r.a.orphans {
		return true
	}
	if f.nineGates(r) {
		return true
	}
	return r.a.sets[r.win].kind == scoring.Pung
}

func (f *facts) pairItems(t scoring.Tile) (int, string) {
	seat, round := f.h.Seat.Tile(), f.h.Round.Tile()
	switch {
	case t.IsDragon():
		return 2, "pair of dragons"
	case f.round && t == seat && t == round:
		return 4, "pair of the seat wind that is also the round wind"
	case t == seat:
		return 2, "pair of the seat wind"
	case f.round && t == round:
		return 2, "pair of the round wind"
	}
	return 0, ""
}

// evaluate scores the winner's reading.
func (f *facts) evaluate(r reading) eval {
	e := eval{r: r}
	h := f.h
	a := r.a
	add := func(p int, reason, set string) {
		e.items = append(e.items, item{p, reason, set})
		e.base += p
	}
	dbl := func(n int, reason, set string) {
		e.doubles = append(e.doubles, double{n, reason, set})
		e.nDoubles += n
	}
	pungs, chows, kongs, concealedPungs := 0, 0, 0, 0
	dragonPungs, windPungs := 0, 0
	worthlessPair := true
	for i := range a.sets {
		s := &a.sets[i]
		switch s.kind {
		case scoring.Pung, scoring.Kong:
			x := f.exposed(r, i)
			add(setPoints(s.kind, s.tile, x), setName(s.kind, s.tile, x), setTiles(s))
			pungs++
			if s.kind == scoring.Kong {
				kongs++
			}
			if !x {
				concealedPungs++
			}
			f.setDoubles(s, dbl)
			if s.tile.IsDragon() {
				dragonPungs++
			}
			if s.tile.IsWind() {
				windPungs++
			}
		case scoring.Chow:
			chows++
		case scoring.Pair:
			if !a.orphans {
				if p, why := f.pairItems(s.tile); p > 0 {
					add(p, why, setTiles(s))
					worthlessPair = false
				}
			}
		}
	}
	for _, t := range f.bonus {
		add(4, "bonus tile", t.String())
	}
	add(20, "going out (Mahjong)", "")
	if h.Tsumo {
		add(2, "self-drawn win", "")
	}
	if f.onlyTile(r) {
		add(2, "only one possible tile", r.winAs.String())
	}
	if h.Rinshan {
		add(10, "won on a kong replacement tile", "")
	}
	if !a.orphans && pungs == 4 {
		add(10, "four pungs or kongs and a pair", "")
	}
	if !a.orphans && chows == 4 && worthlessPair && len(f.bonus) == 0 {
		add(10, "four chows, a worthless pair and no bonus tiles", "")
	}
	f.bonusDoubles(f.bonus, dbl)

	tiles := counted(a)
	suits, honors := flush(tiles)
	switch {
	case suits == 0:
		dbl(3, "all honours", "")
	case suits == 1 && honors:
		dbl(1, "half flush (one suit and honours)", "")
	case suits == 1:
		dbl(3, "full flush (one suit, no honours)", "")
	}
	if h.Tenhou {
		dbl(3, "Gift of Heaven", "")
	}
	if h.Chiihou && h.Tsumo {
		dbl(3, "Gift of Earth", "")
	}

	// Limit hands (seed 000 list).
	lim := func(name string) { e.limitHands = append(e.limitHands, name) }
	allTerm, allGreen := true, true
	for _, t := range tiles {
		if !t.IsTerminal() {
			allTerm = false
		}
		if !greenTiles[t] {
			allGreen = false
		}
	}
	if h.Tsumo && pungs == 4 && concealedPungs == 4 {
		lim("Self-Drawn Four Concealed Pungs")
	}
	if suits == 0 {
		lim("All Honours")
	}
	if allTerm {
		lim("All Terminals")
	}
	if allGreen {
		lim("Perfect Green")
	}
	if dragonPungs == 3 {
		lim("Big Three Dragons")
	}
	if windPungs == 4 {
		lim("Big Four Winds")
	}
	if f.nineGates(r) {
		lim("Nine Gates")
	}
	if a.orphans {
		lim("Thirteen Orphans")
	}
	if kongs == 4 {
		lim("Four Kongs")
	}
	if h.Tenhou {
		lim("Gift of Heaven")
	}
	if (h.Chiihou && !h.Tsumo) || h.Renhou {
		lim("Win on the Dealer's First Discard")
	}
	if h.Haitei && h.Tsumo && r.winAs == scoring.Pin1 {
		lim("Last Tile 1-Dots")
	}
	if h.Rinshan && r.winAs == scoring.Pin1+4 {
		lim("Replacement Tile 5-Dots")
	}
	if h.Chankan && r.winAs == scoring.Sou1+1 {
		lim("Robbing a Kong 2-Bamboo")
	}
	if h.DoubleKong {
		lim("Kong on Kong")
	}
	e.raw = doubled(e.base, e.nDoubles)
	e.score = f.rules.cap(e.raw, len(e.limitHands) > 0)
	e.capped = f.rules.Limits && (len(e.limitHands) > 0 || e.raw > f.rules.LimitValue)
	if !f.rules.Limits {
		e.limitHands = nil
	}
	return e
}

// setDoubles adds the doubles of a pung or kong: seat wind, round wind,
// dragons.
func (f *facts) setDoubles(s *set, dbl func(int, string, string)) {
	switch {
	case s.tile.IsDragon():
		dbl(1, "pung or kong of dragons", setTiles(s))
	case s.tile.IsWind():
		if s.tile == f.h.Seat.Tile() {
			dbl(1, "pung or kong of the seat wind", setTiles(s))
		}
		if f.round && s.tile == f.h.Round.Tile() {
			dbl(1, "pung or kong of the round wind", setTiles(s))
		}
	}
}

// bonusDoubles: one double per own flower or season; all four flowers (or
// seasons) triple-double instead; each king and queen of one number double
// (Vietnamese).
func (f *facts) bonusDoubles(bonus []scoring.Tile, dbl func(int, string, string)) {
	var has [scoring.NumTiles]bool
	for _, t := range bonus {
		has[t] = true
	}
	seat := scoring.Tile(f.h.Seat)
	for _, grp := range []struct {
		first scoring.Tile
		name  string
	}{{scoring.Flower1, "flowers"}, {scoring.Flower1 + 4, "seasons"}} {
		all := true
		for k := scoring.Tile(0); k < 4; k++ {
			all = all && has[grp.first+k]
		}
		own := grp.first + seat
		switch {
		case all:
			dbl(3, "all four "+grp.name, scoring.FormatTiles([]scoring.Tile{grp.first, grp.first + 1, grp.first + 2, grp.first + 3}))
		case has[own]:
			dbl(1, "own bonus tile", own.String())
		}
	}
	if f.rules.KingsQueens {
		for n := scoring.Tile(0); n < 4; n++ {
			if has[scoring.King1+n] && has[scoring.King1+4+n] {
				dbl(1, "king and queen of one number", scoring.FormatTiles([]scoring.Tile{scoring.King1 + n, scoring.King1 + 4 + n}))
			}
		}
	}
}

// maxDoubles keeps base×2^doubles far from overflow when limits are off.
const maxDoubles = 40

func doubled(base, n int) int {
	return base << min(n, maxDoubles)
}

// cap applies the limit: a limit hand is worth the limit outright; any
// other hand is worth at most the limit.
func (rules *Rules) cap(raw int, limitHand bool) int {
	if !rules.Limits {
		return raw
	}
	if limitHand || raw > rules.LimitValue {
		return rules.LimitValue
	}
	return raw
}

// better orders scored readings: the score, then the uncapped value, then
// the base points.
func better(a, b *eval) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.raw != b.raw {
		return a.raw > b.raw
	}
	return a.base > b.base
}

// arrangementText writes a reading for people: "123m 555z (777z) 66p".
func arrangementText(f *facts, r reading) string {
	parts := make([]string, 0, len(r.a.sets))
	for i := range r.a.sets {
		s := &r.a.sets[i]
		p := setTiles(s)
		if s.meld >= 0 && s.open {
			p = "(" + p + ")"
		} else if s.meld >= 0 {
			p = "[" + p + "]"
		}
		if i == r.win {
			p += "*"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func (e *eval) String() string {
	return fmt.Sprintf("base %d, %d doubles, score %d", e.base, e.nDoubles, e.score)
}
