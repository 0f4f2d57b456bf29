package zungjung

import "mjscan/scoring"

// item is one counted pattern and the set that earned it (-1: the hand).
type item struct {
	p   Pattern
	set int8
}

// eval is a reading with its patterns and value.
type eval struct {
	r      reading
	items  [24]item
	n      int
	sum    int     // the patterns added, before the limit
	value  int     // after the limit
	single Pattern // a pattern of at least the limit that counts alone, or 0
	capped bool    // the sum exceeded the limit and was cut to it
}

func (e *eval) add(p Pattern, set int8) {
	if e.n < len(e.items) {
		e.items[e.n] = item{p, set}
		e.n++
	}
}

// evaluate finds every pattern of reading r, keeps the best of each series
// and applies the limit.
func (f *facts) evaluate(r *reading, e *eval) {
	*e = eval{r: *r}
	switch r.form {
	case formRegular:
		f.regularPatterns(r, e)
	case formSevenPairs:
		e.add(SevenPairs, -1)
	case formThirteen:
		e.add(ThirteenTerminals, -1)
	}
	f.tilePatterns(r, e)
	f.incidentals(e)
	e.keepBestOfSeries()
	if e.n == 0 && f.rules.ChickenHand {
		e.add(ChickenHand, -1)
	}
	f.applyLimit(e)
}

// tilePatterns are the ones that look only at the tiles, so they also
// apply to Seven Pairs (and to Thirteen Terminals where they can).
func (f *facts) tilePatterns(r *reading, e *eval) {
	if f.simples {
		e.add(NoTerminals, -1) // 1.3
	}
	if bits := f.suits; bits != 0 && bits&(bits-1) == 0 { // 2.1: one number suit
		if f.honors {
			e.add(MixedOneSuit, -1)
		} else {
			e.add(PureOneSuit, -1)
		}
	}
	if f.nineGates && (f.rules.NineGatesOnHeaven || !f.h.Tenhou) {
		e.add(NineGates, -1) // 2.2
	}
	if f.honors && f.suits == 0 {
		e.add(AllHonors, -1) // 3.4
	}
	if f.termHon && r.form != formThirteen { // 8.1.3 excludes Thirteen Terminals
		switch {
		case f.terminals && f.honors:
			e.add(MixedGreaterTerminals, -1)
		case f.terminals:
			e.add(PureGreaterTerminals, -1)
		}
	}
}

// regularPatterns are the patterns of the sets of a regular hand.
func (f *facts) regularPatterns(r *reading, e *eval) {
	seat := f.h.Seat.Tile()
	chows, triplets, kongs, concealed := 0, 0, 0, 0
	dragons, winds := 0, 0
	var chowAt, pungAt [3][10]uint8 // by suit and number
	for i := range r.Sets {
		s := &r.Sets[i]
		switch s.Kind {
		case scoring.Chow:
			chows++
			chowAt[s.Tile/9][s.Tile%9+1]++
			continue
		case scoring.Kong:
			kongs++
		}
		triplets++
		if s.Concealed {
			concealed++
		}
		switch {
		case s.Tile.IsDragon():
			dragons++
			e.add(ValueHonor, int8(i)) // 3.1: each dragon set
		case s.Tile.IsWind():
			winds++
			if s.Tile == seat {
				e.add(ValueHonor, int8(i)) // 3.1: the seat wind; there is no round wind
			}
		default:
			pungAt[s.Tile/9][s.Tile%9+1]++
		}
	}
	if chows == 4 {
		e.add(AllSequences, -1) // 1.1
	}
	if f.closed {
		e.add(ConcealedHand, -1) // 1.2: concealed kongs allowed, discard wins allowed
	}
	switch { // 3.2
	case dragons == 3:
		e.add(BigThreeDragons, -1)
	case dragons == 2 && r.Pair.IsDragon():
		e.add(SmallThreeDragons, -1)
	}
	switch { // 3.3
	case winds == 4:
		e.add(BigFourWinds, -1)
	case winds == 3 && r.Pair.IsWind():
		e.add(SmallFourWinds, -1)
	case winds == 3:
		e.add(BigThreeWinds, -1)
	case winds == 2 && r.Pair.IsWind():
		e.add(SmallThreeWinds, -1)
	}
	if triplets == 4 {
		e.add(AllTriplets, -1) // 4.1
	}
	if concealed >= 2 { // 4.2
		e.add([...]Pattern{TwoConcealedTriplets, ThreeConcealedTriplets, FourConcealedTriplets}[concealed-2], -1)
	}
	if kongs >= 1 { // 4.3
		e.add([...]Pattern{OneKong, TwoKongs, ThreeKongs, FourKongs}[kongs-1], -1)
	}
	f.identicalAndSimilar(r, e, &chowAt, &pungAt)
	f.terminalSets(r, e)
}

// identicalAndSimilar finds categories 5 (identical sequences), 6 (similar
// sets) and 7 (consecutive sets).
func (f *facts) identicalAndSimilar(r *reading, e *eval, chowAt, pungAt *[3][10]uint8) {
	doubles, best := 0, uint8(0)
	for s := 0; s < 3; s++ {
		for n := 1; n <= 7; n++ {
			c := chowAt[s][n]
			best = max(best, c)
			if c >= 2 {
				doubles++
			}
		}
	}
	switch { // 5.1
	case best == 4:
		e.add(FourIdenticalSequences, -1)
	case best == 3:
		e.add(ThreeIdenticalSequences, -1)
	case doubles == 2:
		e.add(TwoIdenticalSequencesTwice, -1)
	case doubles == 1:
		e.add(TwoIdenticalSequences, -1)
	}
	pairSuit, pairNum := -1, 0
	if r.Pair.Suited() {
		pairSuit, pairNum = int(r.Pair/9), int(r.Pair%9)+1
	}
	for n := 1; n <= 9; n++ {
		if n <= 7 && chowAt[0][n] > 0 && chowAt[1][n] > 0 && chowAt[2][n] > 0 {
			e.add(ThreeSimilarSequences, -1) // 6.1
		}
		suits := 0
		for s := 0; s < 3; s++ {
			if pungAt[s][n] > 0 {
				suits++
			}
		}
		switch { // 6.2
		case suits == 3:
			e.add(ThreeSimilarTriplets, -1)
		case suits == 2 && pairNum == n && pungAt[pairSuit][n] == 0:
			e.add(SmallThreeSimilarTriplets, -1)
		}
	}
	for s := 0; s < 3; s++ {
		if chowAt[s][1] > 0 && chowAt[s][4] > 0 && chowAt[s][7] > 0 {
			e.add(NineTileStraight, -1) // 7.1
		}
		run, longest := 0, 0
		for n := 1; n <= 9; n++ {
			if pungAt[s][n] > 0 {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		switch { // 7.2
		case longest >= 4:
			e.add(FourConsecutiveTriplets, -1)
		case longest == 3:
			e.add(ThreeConsecutiveTriplets, -1)
		}
	}
}

// terminalSets finds the lesser terminal patterns (8.1.1, 8.1.2): every set
// and the pair hold a terminal (or an honor).
func (f *facts) terminalSets(r *reading, e *eval) {
	if !f.terminals {
		return // "mixed" and "pure" both need terminals; All Honors is 3.4
	}
	if !r.Pair.IsTerminalOrHonor() {
		return
	}
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.Kind == scoring.Chow {
			if n := s.Tile % 9; n != 0 && n != 6 {
				return
			}
		} else if !s.Tile.IsTerminalOrHonor() {
			return
		}
	}
	if f.honors {
		e.add(MixedLesserTerminals, -1)
	} else {
		e.add(PureLesserTerminals, -1)
	}
}

// incidentals are category 9: how the hand was won.
func (f *facts) incidentals(e *eval) {
	h := f.h
	if h.Haitei {
		e.add(FinalDraw, -1)
	}
	if h.Houtei {
		e.add(FinalDiscard, -1)
	}
	if h.Rinshan || h.DoubleKong {
		e.add(WinOnKong, -1)
	}
	if h.Chankan {
		e.add(RobbingAKong, -1)
	}
	if h.Tenhou {
		e.add(BlessingOfHeaven, -1)
	}
	if h.Chiihou {
		e.add(BlessingOfEarth, -1)
	}
}

// keepBestOfSeries drops every pattern beaten by a better one of its
// series ("only the highest pattern of a series counts"); Value Honor
// counts once per set. The table order is kept.
func (e *eval) keepBestOfSeries() {
	best := map[string]int{}
	for i := 0; i < e.n; i++ {
		p := e.items[i].p
		if p == ValueHonor {
			continue
		}
		best[p.Series()] = max(best[p.Series()], p.Points())
	}
	out := e.items[:0]
	var seen [numPatterns]bool
	for i := 0; i < e.n; i++ {
		it := e.items[i]
		if it.p != ValueHonor && (it.p.Points() < best[it.p.Series()] || seen[it.p]) {
			continue
		}
		seen[it.p] = true
		out = append(out, it)
	}
	e.n = len(out)
	sortItems(e.items[:e.n])
}

// sortItems orders the patterns as the table does (a stable insertion sort:
// the list is short).
func sortItems(items []item) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].p < items[j-1].p; j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// applyLimit adds the patterns and caps the sum (seed 000): "If your hand
// uses two or more yaku to score over 320 points, it is treated as a hand
// worth 320 points", but "if you can score more than 320 points with a
// single yaku, your hand scores whatever its most valuable yaku is worth".
// A pattern worth the limit or more is reported alone.
func (f *facts) applyLimit(e *eval) {
	limit := f.rules.Limit
	top := Pattern(0)
	for i := 0; i < e.n; i++ {
		p := e.items[i].p
		e.sum += p.Points()
		if top == 0 || p.Points() > top.Points() {
			top = p
		}
	}
	switch {
	case top != 0 && top.Points() >= limit:
		e.single, e.value = top, top.Points()
	case e.sum > limit:
		e.value, e.capped = limit, true
	default:
		e.value = e.sum
	}
}

// better orders arrangements: the value, then the sum before the limit (the
// corpora list the larger one when both reach the limit).
func better(a, b *eval) bool {
	if a.value != b.value {
		return a.value > b.value
	}
	return a.sum > b.sum
}
