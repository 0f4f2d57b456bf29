package mcr

// form is the shape a reading takes.
type form uint8

const (
	formRegular form = iota + 1
	formSevenPairs
	formSevenShiftedPairs
	formHonorsKnitted // Lesser or Greater Honors and Knitted Tiles
	formThirteenOrphans
	formKnittedStraight // knitted straight + one set + pair
	formNineGates
)

func (f form) String() string {
	return [...]string{"", "four sets and a pair", "seven pairs", "seven shifted pairs",
		"honors and knitted tiles", "thirteen orphans", "knitted straight, a set and a pair", "nine gates"}[f&7]
}

// input is a hand ready to score, in the engine's tile codes. It holds no
// slices, so scoring it allocates nothing.
type input struct {
	standing   counts // concealed tiles, the winning tile included
	nStanding  int    // concealed tiles without the winning tile (13 less 3 per meld)
	fixed      [4]pack
	nFixed     int
	fixedTable counts // tiles of the melds
	win        tile
	flags      winFlag
	seat       int // 0 East … 3 North
	round      int
	flowers    int
	addedKongs int // kongs added to a claimed pung
}

// reading is one way to score the hand: its form, its groups (for four
// sets and a pair, and the set and pair beside a knitted straight) and the
// fans it earns, flowers not included.
type reading struct {
	form  form
	packs [5]pack
	fans  fanTable
	total int
}

// evaluator holds the scratch space of one scoring.
type evaluator struct {
	in      *input
	rules   *Rules
	flags   winFlag // the request's flags, corrected for what the tiles show
	stand   counts
	merged  counts
	unique  [18]tile
	nUnique int
	divs    divisions
	work    division
	wide    fanTable // the suit, tile and rank fans of the hand's tiles
}

func (ev *evaluator) value(ft *fanTable) int {
	v := 0
	for i := 1; i < numFans; i++ {
		if n := ft[i]; n != 0 {
			val := fanValues[i]
			if Fan(i) == TwoConcealedKongs {
				val = ev.rules.TwoConcealedKongs
			}
			v += val * int(n)
		}
	}
	return v
}

// evaluate finds the reading with the highest total (the principle of
// freedom to choose the highest). Ties between arrangements go the way of
// the reference calculator: the first found, unless a later one holds a
// Pure Triple Chow or a Triple Pung, or the hand is also seven pairs.
// seen, when not nil, receives every reading considered.
func (ev *evaluator) evaluate(best *reading, seen *[]reading) bool {
	in := ev.in
	ev.stand = in.standing
	ev.flags = in.flags
	win := in.win
	// Last Tile cannot be claimed while holding another copy; it must be
	// when the three others lie in one's own melds.
	if ev.stand[win] != 1 {
		ev.flags &^= flagLastTile
	}
	if in.fixedTable[win] == 3 {
		ev.flags |= flagLastTile
	}
	for i := range ev.merged {
		ev.merged[i] = ev.stand[i] + in.fixedTable[i]
	}
	ev.nUnique = 0
	for _, t := range allTiles {
		if ev.merged[t] != 0 {
			ev.unique[ev.nUnique] = t
			ev.nUnique++
		}
	}

	maxFan := 0
	var special reading
	found := false
	switch in.nFixed {
	case 0:
		if f := ev.specialForms(&special.fans); f != 0 {
			special.form = f
		} else if ev.knittedStraight(&special.fans, &special.packs) {
			special.form = formKnittedStraight
		} else if ev.nineGates(&special.fans) {
			special.form = formNineGates
		}
	case 1:
		if ev.knittedStraight(&special.fans, &special.packs) {
			special.form = formKnittedStraight
		}
	}
	if special.form != 0 {
		special.total = ev.value(&special.fans)
		maxFan = special.total
		*best = special
		found = true
		if seen != nil {
			*seen = append(*seen, special)
		}
	}
	if maxFan != 0 && special.fans[SevenPairs] == 0 {
		return found
	}

	// Seven pairs are also tried as four sets and a pair: in rare hands
	// the sets score more.
	unique := uniqueWait(&ev.stand, in.nStanding, win)
	if !hasPair(&ev.stand) {
		return found
	}
	ev.wide = fanTable{}
	uniq := ev.unique[:ev.nUnique]
	suitFans(uniq, &ev.wide)
	tileFans(uniq, &ev.wide)
	rankFans(uniq, &ev.wide)
	copy(ev.work.packs[:in.nFixed], in.fixed[:in.nFixed])
	divide(&ev.stand, in.nFixed, &ev.work, &ev.divs)
	var cur reading
	for i := 0; i < ev.divs.n; i++ {
		cur = reading{form: formRegular, packs: ev.divs.d[i].packs}
		ev.regularFans(&cur.packs, unique, &cur.fans)
		cur.total = ev.value(&cur.fans)
		if seen != nil {
			*seen = append(*seen, cur)
		}
		if cur.total > maxFan {
			maxFan = cur.total
			*best = cur
			found = true
		} else if cur.total == maxFan && (cur.fans[PureTripleChow] == 1 || special.fans[SevenPairs] == 1 || cur.fans[TriplePung] != 0) {
			*best = cur
			found = true
		}
	}
	return found
}

func hasPair(c *counts) bool {
	for _, t := range allTiles {
		if c[t] > 1 {
			return true
		}
	}
	return false
}

// specialForms tries seven pairs, seven shifted pairs, honors and knitted
// tiles and thirteen orphans.
func (ev *evaluator) specialForms(ft *fanTable) form {
	st := &ev.stand
	uniq := ev.unique[:ev.nUnique]
	if sevenPairs(st) {
		s := ev.in.win.suit()
		if sevenShiftedPairs(st, s) {
			ft[SevenShiftedPairs] = 1
			if st[mk(s, 1)] == 0 && st[mk(s, 9)] == 0 {
				ft[AllSimples] = 1
			}
			situationFans(ev.flags, ft)
			return formSevenShiftedPairs
		}
		ft[SevenPairs] = 1
		suitFans(uniq, ft)
		tileFans(uniq, ft)
		rankFans(uniq, ft)
		tileHogs(st, 0, ft) // four alike count as two pairs and a Tile Hog
		situationFans(ev.flags, ft)
		excludeImplied(ft, ev.rules)
		return formSevenPairs
	}
	if honorsAndKnitted(uniq, ft) {
		situationFans(ev.flags, ft)
		return formHonorsKnitted
	}
	if len(uniq) == 13 && [13]tile(uniq) == orphanTiles {
		ft[ThirteenOrphans] = 1
		situationFans(ev.flags, ft)
		return formThirteenOrphans
	}
	return 0
}

func sevenPairs(st *counts) bool {
	for _, t := range allTiles {
		if st[t]&1 != 0 {
			return false
		}
	}
	return true
}

// sevenShiftedPairs: pairs of seven consecutive ranks of one suit. Every
// such run holds 3–7.
func sevenShiftedPairs(st *counts, s int) bool {
	if s == suitHonors {
		return false
	}
	t3 := mk(s, 3)
	for i := tile(0); i < 5; i++ {
		if st[t3+i] != 2 {
			return false
		}
	}
	if st[t3-1] == 2 {
		return st[t3-2] == 2 || st[t3+5] == 2
	}
	return st[t3+5] == 2 && st[t3+6] == 2
}

// honorsAndKnitted: fourteen different tiles, the numbered ones from one
// knitted straight, the rest honors.
func honorsAndKnitted(uniq []tile, ft *fanTable) bool {
	if len(uniq) != 14 {
		return false
	}
	numbered := 0
	for numbered < 14 && uniq[numbered].numbered() {
		numbered++
	}
	if numbered > 9 || numbered < 7 {
		return false
	}
	inSome := false
	for k := range knittedStraights {
		if subset(uniq[:numbered], knittedStraights[k][:]) {
			inSome = true
			break
		}
	}
	if !inSome {
		return false
	}
	if numbered == 7 {
		ft[GreaterHonorsAndKnittedTiles] = 1
		return true
	}
	ft[LesserHonorsAndKnittedTiles] = 1
	if numbered == 9 {
		ft[KnittedStraight] = 1
	}
	return true
}

// subset: every tile of a (sorted) is in b (sorted).
func subset(a, b []tile) bool {
	j := 0
	for _, t := range a {
		for j < len(b) && b[j] < t {
			j++
		}
		if j == len(b) || b[j] != t {
			return false
		}
		j++
	}
	return true
}

// knittedStraight scores a knitted straight with one more set (concealed,
// or the one meld) and a pair.
func (ev *evaluator) knittedStraight(ft *fanTable, out *[5]pack) bool {
	in := ev.in
	st := &ev.stand
	if !hasPair(st) {
		return false
	}
	seq := -1
	for k := range knittedStraights {
		all := true
		for _, t := range knittedStraights[k] {
			if st[t] == 0 {
				all = false
				break
			}
		}
		if all {
			seq = k
			break
		}
	}
	if seq < 0 {
		return false
	}
	rest := *st
	for _, t := range knittedStraights[seq] {
		rest[t]--
	}
	var work division
	if in.nFixed == 1 {
		work.packs[3] = in.fixed[0]
	}
	var res divisions
	divideFrom(&rest, in.nFixed+3, 0, 0, true, 0, &work, &res)
	if res.n != 1 {
		return false
	}
	p := res.d[0].packs
	fourth := p[3]
	pair := p[4].tile
	ft[KnittedStraight] = 1
	if fourth.kind == kindChow {
		if pair.numbered() {
			ft[AllChows] = 1
		}
		if in.fixedTable[pair]+st[pair] == 4 {
			ft[TileHog] = 1
		}
	} else {
		t := fourth.tile
		switch {
		case t.wind():
			ft[PungOfTerminalsOrHonors] = 1
			windFans(t, in.round, in.seat, ft)
			if pair.dragon() {
				ft[AllTypes] = 1
			}
		case t.dragon():
			ft[DragonPung] = 1
			if pair.wind() {
				ft[AllTypes] = 1
			}
		default:
			if t.terminal() {
				ft[PungOfTerminalsOrHonors] = 1
			}
			if !pair.honor() {
				ft[NoHonors] = 1
			}
			if fourth.kind != kindKong && in.fixedTable[t]+st[t] == 4 {
				ft[TileHog] = 1
			}
		}
	}
	situationFans(ev.flags, ft)
	if fourth.melded {
		if fourth.kind == kindKong {
			ft[MeldedKong] = 1
		}
	} else {
		if fourth.kind == kindKong {
			ft[ConcealedKong] = 1
		}
		if ev.flags&flagSelfDrawn != 0 {
			ft[FullyConcealedHand] = 1
			ft[SelfDrawn] = 0
		} else {
			ft[ConcealedHand] = 1
		}
	}
	win := in.win
	if in.nFixed == 0 {
		// A wait inside the straight's body may also count as edge,
		// closed or single, if it was the only wait of the rest.
		if uniqueWait(&rest, 4, win) {
			waitFans(p[3:5], win, ft)
		}
	} else {
		inSeq := false
		for _, t := range knittedStraights[seq] {
			if t == win {
				inSeq = true
			}
		}
		// Off the straight the wait is the pair; on it, three copies
		// left in the hand mean the pair was waited on as well.
		if !inSeq || st[win] == 3 {
			ft[SingleWait] = 1
		}
	}
	excludeImplied(ft, ev.rules)
	*out = p
	return true
}

// nineGates: 1112345678999 of one suit, concealed, plus any tile of it.
func (ev *evaluator) nineGates(ft *fanTable) bool {
	st := &ev.stand
	win := ev.in.win
	if !win.numbered() {
		return false
	}
	s, r := win.suit(), win.rank()
	for i := 1; i <= 9; i++ {
		want := uint8(1)
		if i == 1 || i == 9 {
			want = 3
		}
		if i == r {
			want++
		}
		if st[mk(s, i)] != want {
			return false
		}
	}
	ft[NineGates] = 1
	// The extra tile adds what it makes of the rest.
	switch r {
	case 1, 9:
		ft[PureStraight] = 1
		ft[TileHog] = 1
	case 2, 8:
		ft[TwoConcealedPungs] = 1
		ft[ShortStraight] = 1
		ft[PungOfTerminalsOrHonors] = 1
	case 5:
		ft[TwoConcealedPungs] = 1
		ft[PungOfTerminalsOrHonors] = 1
	case 3, 4, 6, 7:
		ft[ShortStraight] = 1
	}
	situationFans(ev.flags, ft)
	return true
}
