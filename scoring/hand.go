package scoring

import "fmt"

// MeldType says how a set was called or declared.
type MeldType uint8

const (
	Chi    MeldType = iota + 1 // a run called from the left
	Pon                        // a triplet called from a discard
	Minkan                     // an open kong from a discard
	Ankan                      // a concealed kong
	Kakan                      // a kong added to one's own pon
)

var meldTypeNames = [...]string{"", "chi", "pon", "minkan", "ankan", "kakan"}

func (t MeldType) String() string {
	if int(t) < len(meldTypeNames) {
		return meldTypeNames[t]
	}
	return fmt.Sprintf("MeldType(%d)", uint8(t))
}

// ParseMeldType reads a CONTRACT meld type.
func ParseMeldType(s string) (MeldType, error) {
	for i, n := range meldTypeNames {
		if i > 0 && n == s {
			return MeldType(i), nil
		}
	}
	switch s { // names players use in other rule sets
	case "chow":
		return Chi, nil
	case "pung":
		return Pon, nil
	case "kong":
		return Minkan, nil
	}
	return 0, fmt.Errorf("meld type %q: want chi, pon, minkan, ankan or kakan", s)
}

// From is the seat a called tile came from, relative to the caller.
type From uint8

const (
	FromNone From = iota
	FromLeft
	FromAcross
	FromRight
)

func (f From) String() string { return [...]string{"", "left", "across", "right"}[f&3] }

func (f From) marker() byte { return [...]byte{0, '-', '=', '+'}[f&3] }

// ParseFrom reads a CONTRACT "from" value; the empty string is FromNone.
func ParseFrom(s string) (From, error) {
	switch s {
	case "":
		return FromNone, nil
	case "left":
		return FromLeft, nil
	case "across":
		return FromAcross, nil
	case "right":
		return FromRight, nil
	}
	return 0, fmt.Errorf("meld from %q: want left, across or right", s)
}

// Meld is a called or declared set.
type Meld struct {
	Type   MeldType
	Tiles  []Tile
	From   From
	Called Tile // the tile taken from another player, when known (NoTile/0 otherwise)
}

// IsKong reports whether the meld holds four tiles.
func (m Meld) IsKong() bool { return m.Type == Minkan || m.Type == Ankan || m.Type == Kakan }

// Open reports whether the meld opens the hand (everything but a concealed kong).
func (m Meld) Open() bool { return m.Type != Ankan }

// Base is the lowest tile kind of the meld (the first tile of a chi).
func (m Meld) Base() Tile {
	b := NoTile
	for _, t := range m.Tiles {
		if k := t.Kind(); k < b {
			b = k
		}
	}
	return b
}

// Situation is how and when the hand was won.
type Situation struct {
	Tsumo          bool
	Riichi         bool
	DoubleRiichi   bool
	Ippatsu        bool
	Rinshan        bool
	DoubleKong     bool
	Chankan        bool
	Haitei         bool
	Houtei         bool
	Tenhou         bool
	Chiihou        bool
	Renhou         bool
	LastTileOfKind bool
	Seat, Round    Wind
	Honba          int
	RiichiSticks   int
}

// Dealer reports whether the winner sits East.
func (s Situation) Dealer() bool { return s.Seat == WindEast }

// Hand is a parsed hand request: the tiles and the situation, nothing about
// which rule set scores it.
type Hand struct {
	Concealed      []Tile // the concealed tiles, winning tile included
	Win            Tile
	Melds          []Meld
	Flowers        []Tile
	Nuki           int
	DoraIndicators []Tile
	UraIndicators  []Tile
	Situation
}

// Counts returns the histogram of the concealed tiles.
func (h *Hand) Counts() Counts { return CountOf(h.Concealed) }

// Closed reports whether no meld opens the hand.
func (h *Hand) Closed() bool {
	for _, m := range h.Melds {
		if m.Open() {
			return false
		}
	}
	return true
}

// AllTiles lists every playing tile of the hand: concealed then melds.
func (h *Hand) AllTiles() []Tile {
	out := make([]Tile, 0, 18)
	out = append(out, h.Concealed...)
	for _, m := range h.Melds {
		out = append(out, m.Tiles...)
	}
	return out
}

// CheckCopies refuses a hand holding more than four of a kind (melds
// included, and dora indicators when asked; red fives count as fives).
func (h *Hand) CheckCopies(withIndicators bool) *Error {
	var c [NumTiles]int
	add := func(ts []Tile) {
		for _, t := range ts {
			if t.Valid() {
				c[t]++
			}
		}
	}
	add(h.Concealed)
	for _, m := range h.Melds {
		add(m.Tiles)
	}
	if withIndicators {
		add(h.DoraIndicators)
		add(h.UraIndicators)
	}
	for k := Tile(0); k < NumKinds; k++ {
		n := c[k]
		if k.Suited() && k%9 == 4 {
			n += c[RedMan5+k/9]
		}
		if n > 4 {
			return Errorf(CodeTooManyCopies, "%d copies of %s: a set has four", n, k)
		}
	}
	return nil
}
