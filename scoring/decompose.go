package scoring

// SetKind is the shape of one group of a decomposed hand.
type SetKind uint8

const (
	Chow SetKind = iota + 1 // three in a row
	Pung                    // three alike
	Kong                    // four alike (only from melds)
	Pair                    // two alike
)

func (k SetKind) String() string {
	return [...]string{"", "chow", "pung", "kong", "pair"}[k&7]
}

// Set is one group of a decomposed hand. Tile is the lowest tile (the first
// of a chow). Open marks a set from a called meld; Meld is the meld's
// index, or -1 for a set formed by concealed tiles.
type Set struct {
	Kind SetKind
	Tile Tile
	Open bool
	Meld int8
}

// Contains reports whether the set holds a tile of kind t.
func (s Set) Contains(t Tile) bool {
	if s.Kind == Chow {
		return t >= s.Tile && t <= s.Tile+2
	}
	return t == s.Tile
}

// Division is one way to split the concealed tiles into sets and a pair.
type Division struct {
	Pair Tile
	Sets [4]Set
	N    int
}

// Divisions calls fn for every way to split c (3n+2 tiles, n ≤ 4) into n
// sets and a pair. c is restored before it returns. fn must not keep d.
func Divisions(c *Counts, fn func(d *Division)) {
	var d Division
	for p := Tile(0); p < NumKinds; p++ {
		if c[p] < 2 {
			continue
		}
		c[p] -= 2
		d.Pair = p
		d.N = 0
		splitSets(c, 0, &d, fn)
		c[p] += 2
	}
}

// splitSets places the lowest remaining tile in a pung or a chow, both
// tried, so every division is found once.
func splitSets(c *Counts, from Tile, d *Division, fn func(d *Division)) {
	i := from
	for i < NumKinds && c[i] == 0 {
		i++
	}
	if i == NumKinds {
		fn(d)
		return
	}
	if d.N == 4 {
		return
	}
	if c[i] >= 3 {
		c[i] -= 3
		d.Sets[d.N] = Set{Kind: Pung, Tile: i, Meld: -1}
		d.N++
		splitSets(c, i, d, fn)
		d.N--
		c[i] += 3
	}
	if i < 27 && i%9 <= 6 && c[i+1] > 0 && c[i+2] > 0 {
		c[i]--
		c[i+1]--
		c[i+2]--
		d.Sets[d.N] = Set{Kind: Chow, Tile: i, Meld: -1}
		d.N++
		splitSets(c, i, d, fn)
		d.N--
		c[i]++
		c[i+1]++
		c[i+2]++
	}
}

// IsStandardWin reports whether c (3n+2 tiles) splits into sets and a pair.
func IsStandardWin(c *Counts) bool {
	for p := Tile(0); p < NumKinds; p++ {
		if c[p] < 2 {
			continue
		}
		c[p] -= 2
		ok := allSets(c, 0)
		c[p] += 2
		if ok {
			return true
		}
	}
	return false
}

func allSets(c *Counts, i Tile) bool {
	for i < NumKinds && c[i] == 0 {
		i++
	}
	if i == NumKinds {
		return true
	}
	ok := false
	if c[i] >= 3 {
		c[i] -= 3
		ok = allSets(c, i)
		c[i] += 3
	}
	if !ok && i < 27 && i%9 <= 6 && c[i+1] > 0 && c[i+2] > 0 {
		c[i]--
		c[i+1]--
		c[i+2]--
		ok = allSets(c, i)
		c[i]++
		c[i+1]++
		c[i+2]++
	}
	return ok
}

// IsSevenPairs reports whether c is seven different pairs (a riichi
// chiitoitsu). allowFour lets a four of a kind count as two pairs, as MCR
// and Zung Jung do.
func IsSevenPairs(c *Counts, allowFour bool) bool {
	pairs := 0
	for _, n := range c {
		switch n {
		case 0:
		case 2:
			pairs++
		case 4:
			if !allowFour {
				return false
			}
			pairs += 2
		default:
			return false
		}
	}
	return pairs == 7
}

// orphans are the thirteen terminal and honor kinds.
var orphans = [13]Tile{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}

// IsThirteenOrphans reports whether c is one of each terminal and honor plus
// one more of them.
func IsThirteenOrphans(c *Counts) bool {
	if c.Total() != 14 {
		return false
	}
	pair := false
	for _, t := range orphans {
		switch c[t] {
		case 1:
		case 2:
			if pair {
				return false
			}
			pair = true
		default:
			return false
		}
	}
	return pair
}

// WaitShape is how a winning tile completed its set.
type WaitShape uint8

const (
	Ryanmen WaitShape = iota + 1 // two-sided: 45 waiting on 3 or 6
	Kanchan                      // closed: 46 waiting on 5
	Penchan                      // edge: 12 waiting on 3, 89 on 7
	Tanki                        // single: waiting on the pair
	Shanpon                      // dual pung: two pairs, one becomes a pung
)

func (w WaitShape) String() string {
	return [...]string{"", "two-sided", "closed", "edge", "single", "dual-pung"}[w&7]
}

// ChowWait is the wait shape of chow s completed by tile t.
func ChowWait(s Set, t Tile) WaitShape {
	switch t - s.Tile {
	case 1:
		return Kanchan
	case 0:
		if s.Tile%9 == 6 { // 789 completed by 7
			return Penchan
		}
	case 2:
		if s.Tile%9 == 0 { // 123 completed by 3
			return Penchan
		}
	}
	return Ryanmen
}

// Waits lists the kinds that complete c (3n+1 tiles) into a standard hand,
// seven pairs or thirteen orphans (when c holds 13 tiles).
func Waits(c *Counts) []Tile {
	var out []Tile
	n := c.Total()
	for t := Tile(0); t < NumKinds; t++ {
		if c[t] >= 4 {
			continue
		}
		c[t]++
		if IsStandardWin(c) || (n == 13 && (IsSevenPairs(c, false) || IsThirteenOrphans(c))) {
			out = append(out, t)
		}
		c[t]--
	}
	return out
}

// Wait is one tile a ready hand waits on, with every shape it completes.
type Wait struct {
	Tile   Tile
	Shapes []WaitShape
}

// WaitShapes lists the waits of a ready hand c (3n+1 tiles) with their
// shapes: 23m waits on 1m and 4m two-sided; 11m 55p waits on each
// dual-pung; a tile may complete several shapes (2344m: 4m single or
// two-sided). Seven pairs and thirteen orphans waits are single waits.
func WaitShapes(c *Counts) []Wait {
	var out []Wait
	n := c.Total()
	for _, t := range Waits(c) {
		var shapes []WaitShape
		add := func(s WaitShape) {
			for _, x := range shapes {
				if x == s {
					return
				}
			}
			shapes = append(shapes, s)
		}
		c[t]++
		Divisions(c, func(d *Division) {
			if d.Pair == t {
				add(Tanki)
			}
			for i := 0; i < d.N; i++ {
				s := d.Sets[i]
				if !s.Contains(t) {
					continue
				}
				if s.Kind == Chow {
					add(ChowWait(s, t))
				} else {
					add(Shanpon)
				}
			}
		})
		if len(shapes) == 0 && n == 13 { // seven pairs or thirteen orphans
			add(Tanki)
		}
		c[t]--
		out = append(out, Wait{Tile: t, Shapes: shapes})
	}
	return out
}
