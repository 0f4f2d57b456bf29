package scoring

import "strings"

// Group is one set of a reading with what scoring needs to know of it.
type Group struct {
	Kind      SetKind // Chow, Pung or Kong
	Tile      Tile    // lowest tile kind
	Open      bool    // from a called meld
	Concealed bool    // a pung or kong neither called nor completed by a discard
	Meld      int8    // meld index, -1 for concealed tiles
}

// Triplet reports whether the group is a pung or a kong.
func (g Group) Triplet() bool { return g.Kind == Pung || g.Kind == Kong }

// Tiles lists the group's tiles (kinds, no red fives).
func (g Group) Tiles() []Tile {
	switch g.Kind {
	case Chow:
		return []Tile{g.Tile, g.Tile + 1, g.Tile + 2}
	case Kong:
		return []Tile{g.Tile, g.Tile, g.Tile, g.Tile}
	}
	return []Tile{g.Tile, g.Tile, g.Tile}
}

// String writes the group's tiles, in brackets when called: "123m", "(555z)".
func (g Group) String() string {
	s := FormatTiles(g.Tiles())
	if g.Open {
		return "(" + s + ")"
	}
	return s
}

// MeldGroup reads meld i of a hand as a group.
func MeldGroup(i int, m Meld) Group {
	g := Group{Tile: m.Base(), Open: m.Open(), Concealed: !m.Open(), Meld: int8(i)}
	switch {
	case m.Type == Chi:
		g.Kind, g.Concealed = Chow, false
	case m.IsKong():
		g.Kind = Kong
	default:
		g.Kind = Pung
	}
	return g
}

// Reading is one way to read a standard winning hand: four sets, a pair,
// and the set the winning tile completed.
type Reading struct {
	Sets [4]Group
	Pair Tile
	Win  int8 // index in Sets of the set the winning tile completed, -1 for the pair
	Wait WaitShape
}

// String writes the arrangement: "123m 456p (555z) 789s 11z".
func (r *Reading) String() string {
	parts := make([]string, 0, 5)
	for _, g := range r.Sets {
		parts = append(parts, g.String())
	}
	parts = append(parts, FormatTiles([]Tile{r.Pair, r.Pair}))
	return strings.Join(parts, " ")
}

// StandardReadings calls fn for every reading of a standard hand: each
// split of the concealed tiles c into sets and a pair that, with the melds,
// makes four sets, and each place the winning tile win may have taken in
// it. A pung completed by a discard (tsumo false) is not concealed.
// Placing the winning tile in either of two identical sets reads the same,
// so only the first is tried. fn must not keep r.
func StandardReadings(c *Counts, melds []Group, win Tile, tsumo bool, fn func(r *Reading)) {
	var r Reading
	Divisions(c, func(d *Division) {
		if d.N+len(melds) != 4 {
			return
		}
		for i := 0; i < d.N; i++ {
			s := d.Sets[i]
			r.Sets[i] = Group{Kind: s.Kind, Tile: s.Tile, Concealed: s.Kind == Pung, Meld: -1}
		}
		copy(r.Sets[d.N:], melds)
		r.Pair = d.Pair
		for i := 0; i < d.N; i++ {
			g := r.Sets[i]
			if !d.Sets[i].Contains(win) || sameBefore(&r, i) {
				continue
			}
			r.Win = int8(i)
			if g.Kind == Chow {
				r.Wait = ChowWait(d.Sets[i], win)
			} else {
				r.Wait = Shanpon
				r.Sets[i].Concealed = tsumo
			}
			fn(&r)
			r.Sets[i] = g
		}
		if d.Pair == win {
			r.Win, r.Wait = -1, Tanki
			fn(&r)
		}
	})
}

func sameBefore(r *Reading, i int) bool {
	for j := 0; j < i; j++ {
		if r.Sets[j].Kind == r.Sets[i].Kind && r.Sets[j].Tile == r.Sets[i].Tile {
			return true
		}
	}
	return false
}
