package mcr

// packKind is the shape of one group of an arrangement.
type packKind uint8

const (
	kindChow packKind = iota + 1
	kindPung
	kindKong
	kindPair
)

func (k packKind) String() string {
	return [...]string{"", "chow", "pung", "kong", "pair"}[k&7]
}

// pack is one group: a chow (tile is its middle tile, as in the reference
// calculator), a pung, a kong or the pair. melded marks a group claimed
// from a discard (chow, pung, open or added kong); a concealed kong and
// every group formed in the hand are not melded.
type pack struct {
	kind   packKind
	tile   tile
	melded bool
}

func (p pack) key() uint16 {
	k := uint16(p.kind)<<8 | uint16(p.tile)
	if p.melded {
		k |= 1 << 12
	}
	return k
}

// first is the lowest tile of the group.
func (p pack) first() tile {
	if p.kind == kindChow {
		return p.tile - 1
	}
	return p.tile
}

// maxDivisions bounds the arrangements of one hand; the most a 14-tile
// hand has is far below it.
const maxDivisions = 32

// division is one arrangement: four sets (melds first) and the pair in
// packs[4].
type division struct {
	packs [5]pack
}

type divisions struct {
	d [maxDivisions]division
	n int
}

// divide finds every way to split the concealed tiles into the sets the
// melds leave open plus a pair. Sets are taken in ascending order (a pung
// before the chow starting on the same tile), so each arrangement is found
// once. tab is restored before divide returns.
func divide(tab *counts, fixed int, work *division, out *divisions) {
	out.n = 0
	divideFrom(tab, fixed, 0, 0, true, 0, work, out)
}

// divideFrom places set number fixed+step. Sets go in ascending order:
// the next set starts at allTiles[from] or later, and a pung on that same
// tile is allowed only before any set has been placed there (pungOK).
// Tiles passed over can never join a later set, so they must end up as
// the pair: stranded counts them, and the search stops as soon as they
// cannot be one. That only cuts dead branches; arrangements still come
// out in the reference order.
func divideFrom(tab *counts, fixed, step, from int, pungOK bool, stranded int, work *division, out *divisions) {
	idx := fixed + step
	if idx == 4 {
		// What is left must be the pair.
		for _, t := range allTiles {
			if tab[t] == 2 {
				work.packs[4] = pack{kind: kindPair, tile: t}
				out.add(fixed, work)
				return
			}
		}
		return
	}
	for i := from; i < len(allTiles); i++ {
		t := allTiles[i]
		n := tab[t]
		if n == 0 {
			continue
		}
		if n > 2 && (i > from || pungOK) {
			work.packs[idx] = pack{kind: kindPung, tile: t}
			tab[t] -= 3
			divideFrom(tab, fixed, step+1, i, false, stranded, work, out)
			tab[t] += 3
		}
		if i < 27 && t.rank() < 8 && tab[t+1] > 0 && tab[t+2] > 0 {
			work.packs[idx] = pack{kind: kindChow, tile: t + 1}
			tab[t]--
			tab[t+1]--
			tab[t+2]--
			divideFrom(tab, fixed, step+1, i, false, stranded, work, out)
			tab[t]++
			tab[t+1]++
			tab[t+2]++
		}
		// Moving on strands every copy of t.
		if stranded != 0 || n != 2 {
			return
		}
		stranded = 2
	}
}

// add records an arrangement with its concealed sets sorted (chows, then
// pungs, each by tile), unless the same sets are already recorded.
func (out *divisions) add(fixed int, work *division) {
	if out.n == maxDivisions {
		return
	}
	d := *work
	s := d.packs[fixed:4]
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].key() < s[j-1].key(); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	for i := 0; i < out.n; i++ {
		if out.d[i].packs == d.packs {
			return
		}
	}
	out.d[out.n] = d
	out.n++
}
