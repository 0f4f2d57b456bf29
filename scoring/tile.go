// Package scoring holds the hand model every rule set shares: tiles and their
// codes, melds, the win situation, the CONTRACT request and result JSON, and
// the decomposition of a hand into sets, pairs and waits.
//
// The rule sets themselves live in sub-packages (scoring/riichi, …) and are
// reached by name through scoring/rulebook.
package scoring

import "fmt"

// Tile is one tile face. The 34 playing tiles come first, indexed as
// 1m–9m (0–8), 1p–9p (9–17), 1s–9s (18–26), 1z–7z (27–33), so that a
// [NumKinds]uint8 count array covers every tile a standard hand can hold.
// Red fives, bonus tiles, jokers and the face-down back follow.
type Tile uint8

// Suit is the letter of a tile code.
type Suit uint8

const (
	Man    Suit = iota // m: characters
	Pin                // p: dots
	Sou                // s: bamboo
	Honor              // z: winds and dragons
	Flower             // f: flowers and seasons
	King               // k: Vietnamese kings and queens
	Joker              // j: jokers
	NoSuit             // the face-down back
)

// NumKinds is the number of distinct playing tiles (9+9+9+7).
const NumKinds = 34

// Tiles beyond the 34 playing kinds.
const (
	Man1 Tile = 0
	Pin1 Tile = 9
	Sou1 Tile = 18

	East  Tile = 27
	South Tile = 28
	West  Tile = 29
	North Tile = 30
	White Tile = 31 // haku, 5z
	Green Tile = 32 // hatsu, 6z
	Red   Tile = 33 // chun, 7z

	RedMan5 Tile = 34 // 0m
	RedPin5 Tile = 35 // 0p
	RedSou5 Tile = 36 // 0s

	Flower1 Tile = 37 // 1f … 8f are 37 … 44
	King1   Tile = 45 // 1k … 8k are 45 … 52
	Joker1  Tile = 53 // 1j … 9j are 53 … 61
	Back    Tile = 62 // 0z

	// NoTile marks an absent tile (no winning tile given, for example).
	NoTile Tile = 255
)

// NumTiles is one past the largest valid Tile.
const NumTiles = 63

var suitLetters = [...]byte{'m', 'p', 's', 'z', 'f', 'k', 'j', 'z'}

// Suit reports the code letter group of t.
func (t Tile) Suit() Suit {
	switch {
	case t < 27:
		return Suit(t / 9)
	case t < 34:
		return Honor
	case t < 37:
		return Suit(t - 34)
	case t < 45:
		return Flower
	case t < 53:
		return King
	case t < 62:
		return Joker
	}
	return NoSuit
}

// Num is the digit of the tile code (0 for a red five or the back).
func (t Tile) Num() int {
	switch {
	case t < 27:
		return int(t%9) + 1
	case t < 34:
		return int(t-27) + 1
	case t < 37:
		return 0
	case t < 45:
		return int(t-Flower1) + 1
	case t < 53:
		return int(t-King1) + 1
	case t < 62:
		return int(t-Joker1) + 1
	}
	return 0
}

// Valid reports whether t is a real tile value.
func (t Tile) Valid() bool { return t < NumTiles }

// IsRed reports whether t is a red five.
func (t Tile) IsRed() bool { return t >= RedMan5 && t <= RedSou5 }

// Kind maps a red five to its plain five; every other tile is its own kind.
// Scoring compares kinds; only dora counting looks at redness.
func (t Tile) Kind() Tile {
	if t.IsRed() {
		return Tile(t-RedMan5)*9 + 4
	}
	return t
}

// Playing reports whether t is one of the 34 kinds (red fives included).
func (t Tile) Playing() bool { return t.Kind() < NumKinds }

// Suited reports whether t is a numbered tile (man, pin or sou).
func (t Tile) Suited() bool { return t.Kind() < 27 }

// IsHonor reports whether t is a wind or a dragon.
func (t Tile) IsHonor() bool { k := t.Kind(); return k >= 27 && k < 34 }

// IsWind reports whether t is East, South, West or North.
func (t Tile) IsWind() bool { k := t.Kind(); return k >= East && k <= North }

// IsDragon reports whether t is a white, green or red dragon.
func (t Tile) IsDragon() bool { k := t.Kind(); return k >= White && k <= Red }

// IsTerminal reports whether t is a suited one or nine.
func (t Tile) IsTerminal() bool {
	k := t.Kind()
	return k < 27 && (k%9 == 0 || k%9 == 8)
}

// IsTerminalOrHonor reports whether t is a one, a nine or an honor.
func (t Tile) IsTerminalOrHonor() bool { return t.IsTerminal() || t.IsHonor() }

// IsSimple reports whether t is a suited 2–8.
func (t Tile) IsSimple() bool { k := t.Kind(); return k < 27 && k%9 != 0 && k%9 != 8 }

// IsBonus reports whether t is a flower, season, king or queen.
func (t Tile) IsBonus() bool { return t >= Flower1 && t < Joker1 }

// IsJoker reports whether t is any joker.
func (t Tile) IsJoker() bool { return t >= Joker1 && t < Back }

// String returns the CONTRACT code of t, such as "5p", "0m" or "7z".
func (t Tile) String() string {
	if !t.Valid() {
		return fmt.Sprintf("Tile(%d)", uint8(t))
	}
	return string([]byte{byte('0' + t.Num()), suitLetters[t.Suit()]})
}

// MakeTile builds a tile from a code digit and letter; ok is false when the
// pair names no tile.
func MakeTile(digit byte, letter byte) (Tile, bool) {
	if digit < '0' || digit > '9' {
		return NoTile, false
	}
	d := int(digit - '0')
	switch letter {
	case 'm', 'p', 's':
		s := Tile(0)
		if letter == 'p' {
			s = 1
		} else if letter == 's' {
			s = 2
		}
		if d == 0 {
			return RedMan5 + s, true
		}
		return s*9 + Tile(d-1), true
	case 'z':
		if d == 0 {
			return Back, true
		}
		if d <= 7 {
			return East + Tile(d-1), true
		}
	case 'f':
		if d >= 1 && d <= 8 {
			return Flower1 + Tile(d-1), true
		}
	case 'k':
		if d >= 1 && d <= 8 {
			return King1 + Tile(d-1), true
		}
	case 'j':
		if d >= 1 && d <= 9 {
			return Joker1 + Tile(d-1), true
		}
	}
	return NoTile, false
}

// Wind is a seat or round wind, 0 = East … 3 = North.
type Wind uint8

const (
	WindEast Wind = iota
	WindSouth
	WindWest
	WindNorth
)

// Tile returns the wind tile for w.
func (w Wind) Tile() Tile { return East + Tile(w) }

func (w Wind) String() string { return [...]string{"E", "S", "W", "N"}[w&3] }

// ParseWind reads "E", "S", "W", "N" (or "East", "1z", …).
func ParseWind(s string) (Wind, error) {
	switch s {
	case "E", "e", "East", "east", "1z":
		return WindEast, nil
	case "S", "s", "South", "south", "2z":
		return WindSouth, nil
	case "W", "w", "West", "west", "3z":
		return WindWest, nil
	case "N", "n", "North", "north", "4z":
		return WindNorth, nil
	}
	return 0, fmt.Errorf("wind %q: want one of E, S, W, N", s)
}

// Counts is a histogram over the 34 playing kinds (red fives counted as fives).
type Counts [NumKinds]uint8

// CountOf builds the histogram of the playing tiles in ts.
func CountOf(ts []Tile) Counts {
	var c Counts
	for _, t := range ts {
		if k := t.Kind(); k < NumKinds {
			c[k]++
		}
	}
	return c
}

// Total is the number of tiles counted.
func (c *Counts) Total() int {
	n := 0
	for _, v := range c {
		n += int(v)
	}
	return n
}
