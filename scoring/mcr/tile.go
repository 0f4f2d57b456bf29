package mcr

import "mjscan/scoring"

// tile is a tile as the MCR reference calculator numbers it: suit in the
// high nibble (1 characters, 2 bamboo, 3 dots, 4 honors), rank in the low
// one, honors ordered East South West North, then Red, Green, White (the
// Chinese order). Scoring follows the reference calculator's choices where
// the rules leave them open (which arrangement wins a tie, which three of
// four chows make a fan), and those choices depend on this order, so the
// engine works in it rather than in the CONTRACT's m-p-s order.
type tile uint8

const (
	suitChars  = 1
	suitBamboo = 2
	suitDots   = 3
	suitHonors = 4

	tEast  tile = 0x41
	tSouth tile = 0x42
	tWest  tile = 0x43
	tNorth tile = 0x44
	tRed   tile = 0x45
	tGreen tile = 0x46
	tWhite tile = 0x47

	// tableSize covers every tile code; the unused codes between suits
	// stay zero, which lets chow tests look at t+1 and t+2 safely.
	tableSize = 0x48
)

// counts is a histogram indexed by tile code.
type counts [tableSize]uint8

func mk(suit, rank int) tile { return tile(suit<<4 | rank) }

func (t tile) suit() int { return int(t >> 4) }
func (t tile) rank() int { return int(t & 0xF) }

func (t tile) numbered() bool { return t < 0x40 }
func (t tile) honor() bool    { return t > 0x40 && t < 0x48 }
func (t tile) wind() bool     { return t > 0x40 && t < 0x45 }
func (t tile) dragon() bool   { return t > 0x44 && t < 0x48 }
func (t tile) terminal() bool { return t.numbered() && (t.rank() == 1 || t.rank() == 9) }

func (t tile) terminalOrHonor() bool { return t.terminal() || t.honor() }

// green tiles: 2 3 4 6 8 bamboo and the green dragon.
func (t tile) green() bool {
	switch t {
	case 0x22, 0x23, 0x24, 0x26, 0x28, tGreen:
		return true
	}
	return false
}

// reversible tiles look the same upside down: 2 4 5 6 8 9 bamboo,
// 1 2 3 4 5 8 9 dots and the white dragon.
func (t tile) reversible() bool {
	switch t {
	case 0x22, 0x24, 0x25, 0x26, 0x28, 0x29,
		0x31, 0x32, 0x33, 0x34, 0x35, 0x38, 0x39, tWhite:
		return true
	}
	return false
}

// allTiles lists the 34 kinds in the reference order.
var allTiles = [34]tile{
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29,
	0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39,
	tEast, tSouth, tWest, tNorth, tRed, tGreen, tWhite,
}

var orphanTiles = [13]tile{0x11, 0x19, 0x21, 0x29, 0x31, 0x39, tEast, tSouth, tWest, tNorth, tRed, tGreen, tWhite}

// knittedStraights are the six ways to spread 147, 258 and 369 over the
// three suits, each listed in ascending tile order.
var knittedStraights = [6][9]tile{
	{0x11, 0x14, 0x17, 0x22, 0x25, 0x28, 0x33, 0x36, 0x39},
	{0x11, 0x14, 0x17, 0x23, 0x26, 0x29, 0x32, 0x35, 0x38},
	{0x12, 0x15, 0x18, 0x21, 0x24, 0x27, 0x33, 0x36, 0x39},
	{0x12, 0x15, 0x18, 0x23, 0x26, 0x29, 0x31, 0x34, 0x37},
	{0x13, 0x16, 0x19, 0x21, 0x24, 0x27, 0x32, 0x35, 0x38},
	{0x13, 0x16, 0x19, 0x22, 0x25, 0x28, 0x31, 0x34, 0x37},
}

// fromScoring converts a CONTRACT tile (red fives count as fives) to the
// engine's code; ok is false for tiles MCR does not play with.
func fromScoring(t scoring.Tile) (tile, bool) {
	k := t.Kind()
	switch {
	case k < 9:
		return mk(suitChars, int(k)+1), true
	case k < 18:
		return mk(suitDots, int(k-9)+1), true
	case k < 27:
		return mk(suitBamboo, int(k-18)+1), true
	case k >= scoring.East && k <= scoring.North:
		return tEast + tile(k-scoring.East), true
	case k == scoring.Red:
		return tRed, true
	case k == scoring.Green:
		return tGreen, true
	case k == scoring.White:
		return tWhite, true
	}
	return 0, false
}

// toScoring is the inverse of fromScoring.
func toScoring(t tile) scoring.Tile {
	r := scoring.Tile(t.rank() - 1)
	switch t.suit() {
	case suitChars:
		return scoring.Man1 + r
	case suitDots:
		return scoring.Pin1 + r
	case suitBamboo:
		return scoring.Sou1 + r
	}
	switch t {
	case tRed:
		return scoring.Red
	case tGreen:
		return scoring.Green
	case tWhite:
		return scoring.White
	}
	return scoring.East + scoring.Tile(t-tEast)
}

// String writes the CONTRACT code.
func (t tile) String() string { return toScoring(t).String() }
