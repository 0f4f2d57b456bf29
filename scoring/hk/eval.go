package hk

import "mjscan/scoring"

// item is one counted pattern and the set that earned it (-1: the hand).
type item struct {
	f   Faan
	set int8
}

// eval is a reading with its faan.
type eval struct {
	r     reading
	items [24]item
	n     int
	raw   int // every faan, before the limit
	hand  int // faan not from bonus tiles (what the minimum looks at)
	faan  int // after the limit
}

func (e *eval) add(f Faan, set int8) {
	if e.n < len(e.items) {
		e.items[e.n] = item{f, set}
		e.n++
	}
}

func (e *eval) has(f Faan) bool {
	for i := 0; i < e.n; i++ {
		if e.items[i].f == f {
			return true
		}
	}
	return false
}

func (f *facts) evaluate(r *reading, e *eval) {
	*e = eval{r: *r}
	switch r.form {
	case formRegular:
		f.regular(r, e)
	case formSevenPairs:
		e.add(SevenPairs, -1)
	case formOrphans:
		e.add(ThirteenOrphans, -1)
	}
	f.tiles(e)
	f.situation(e)
	e.applyOverrides()
	hand := false
	for i := 0; i < e.n; i++ {
		if !e.items[i].f.Bonus() {
			hand = true
		}
	}
	if !hand {
		e.add(ChickenHand, -1)
	}
	f.bonusTiles(e)
	sortItems(e.items[:e.n])
	for i := 0; i < e.n; i++ {
		v := e.items[i].f.Value()
		e.raw += v
		if !e.items[i].f.Bonus() || f.rules.BonusTowardMinimum {
			e.hand += v
		}
	}
	e.faan = min(e.raw, f.rules.Limit)
}

// regular finds the patterns of the four sets and the pair.
func (f *facts) regular(r *reading, e *eval) {
	h := f.h
	chows, triplets, kongs, concealed, dragons, winds := 0, 0, 0, 0, 0, 0
	var chowAt [3][10]bool
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.Kind == scoring.Chow {
			chows++
			chowAt[s.Tile/9][s.Tile%9+1] = true
			continue
		}
		triplets++
		if s.Kind == scoring.Kong {
			kongs++
		}
		if s.Concealed {
			concealed++
		}
		switch {
		case s.Tile.IsDragon():
			dragons++
			e.add(WhiteDragon+Faan(s.Tile-scoring.White), int8(i))
		case s.Tile.IsWind():
			winds++
			if s.Tile == h.Seat.Tile() {
				e.add(SeatWind, int8(i))
			}
			if s.Tile == h.Round.Tile() {
				e.add(PrevalentWind, int8(i))
			}
		}
	}
	if chows == 4 {
		e.add(AllSequences, -1)
	}
	if triplets == 4 {
		e.add(AllTriplets, -1)
	}
	switch {
	case dragons == 3:
		e.add(BigThreeDragons, -1)
	case dragons == 2 && r.Pair.IsDragon():
		e.add(LittleThreeDragons, -1)
	}
	switch {
	case winds == 4:
		e.add(BigFourWinds, -1)
	case winds == 3 && r.Pair.IsWind():
		e.add(LittleFourWinds, -1)
	}
	if concealed == 4 {
		e.add(FourConcealedTriplets, -1)
	}
	if kongs == 4 {
		e.add(FourKongs, -1)
	}
	if f.rules.PureStraight {
		for s := 0; s < 3; s++ {
			if chowAt[s][1] && chowAt[s][4] && chowAt[s][7] {
				e.add(PureStraight, -1)
			}
		}
	}
}

// tiles finds the patterns of the tiles alone and of concealment.
func (f *facts) tiles(e *eval) {
	if f.closed {
		e.add(ConcealedHand, -1)
	}
	if bits := f.suits; bits != 0 && bits&(bits-1) == 0 {
		if f.honors {
			e.add(HalfFlush, -1)
		} else {
			e.add(FullFlush, -1)
		}
	}
	if f.honors && f.suits == 0 {
		e.add(AllHonours, -1)
	}
	if f.termHon && f.terminals {
		if f.honors {
			e.add(MixedTerminals, -1)
		} else {
			e.add(AllTerminals, -1)
		}
	}
	if f.nineGates {
		e.add(NineGates, -1)
	}
}

// situation finds the patterns of how the hand was won.
func (f *facts) situation(e *eval) {
	h := f.h
	if h.Tsumo {
		e.add(SelfDraw, -1)
	}
	if h.Chankan {
		e.add(RobbingAKong, -1)
	}
	switch {
	case h.DoubleKong:
		e.add(AfterMultipleKongs, -1)
	case h.Rinshan:
		e.add(AfterAKong, -1)
	}
	if f.afterFlower {
		e.add(AfterAFlower, -1)
	}
	if h.Haitei || h.Houtei {
		e.add(FinalTile, -1)
	}
	if h.Tenhou {
		e.add(BlessingOfHeaven, -1)
	}
	if h.Chiihou {
		e.add(BlessingOfEarth, -1)
	}
	if h.Renhou {
		e.add(BlessingOfMan, -1)
	}
}

// bonusTiles scores the flowers and seasons laid aside: the one of one's
// seat, all four of a kind, or none at all.
func (f *facts) bonusTiles(e *eval) {
	if len(f.h.Flowers) == 0 {
		e.add(NoFlowers, -1)
		return
	}
	seat := int(f.h.Seat) + 1
	var flowers, seasons int
	seatFlower, seatSeason := false, false
	for _, t := range f.h.Flowers {
		n := t.Num() // 1–4 flowers, 5–8 seasons
		if n <= 4 {
			flowers++
			seatFlower = seatFlower || n == seat
		} else {
			seasons++
			seatSeason = seatSeason || n-4 == seat
		}
	}
	switch {
	case flowers == 4:
		e.add(AllFlowers, -1)
	case seatFlower:
		e.add(SeatFlower, -1)
	}
	switch {
	case seasons == 4:
		e.add(AllSeasons, -1)
	case seatSeason:
		e.add(SeatSeason, -1)
	}
}

// applyOverrides drops the entries a bigger pattern already pays for.
func (e *eval) applyOverrides() {
	var drop [numFaan]bool
	for i := 0; i < e.n; i++ {
		for _, g := range overrides[e.items[i].f] {
			drop[g] = true
		}
	}
	out := e.items[:0]
	for i := 0; i < e.n; i++ {
		if !drop[e.items[i].f] {
			out = append(out, e.items[i])
		}
	}
	e.n = len(out)
}

func sortItems(items []item) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].f < items[j-1].f; j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// better orders arrangements: more faan before the limit, then more faan
// toward the minimum.
func better(a, b *eval) bool {
	if a.raw != b.raw {
		return a.raw > b.raw
	}
	return a.hand > b.hand
}
