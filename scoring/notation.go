package scoring

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SyntaxError says where a tile string went wrong and what was expected
// there, so a player can fix their input.
type SyntaxError struct {
	Input  string
	Pos    int // byte offset into Input
	Reason string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%q at position %d: %s", e.Input, e.Pos+1, e.Reason)
}

// maxTileString bounds every tile string we parse: no hand, however exotic,
// needs more, and it keeps hostile input cheap.
const maxTileString = 256

// ParseTiles reads CONTRACT tile codes: digits before their suit letter,
// "123m0p55z" → 1m 2m 3m 0p 5z 5z. Spaces are ignored. The empty string is
// no tiles.
func ParseTiles(s string) ([]Tile, error) {
	return AppendTiles(nil, s)
}

// AppendTiles is ParseTiles appending to dst.
func AppendTiles(dst []Tile, s string) ([]Tile, error) {
	if len(s) > maxTileString {
		return dst, &SyntaxError{s[:32] + "…", 32, fmt.Sprintf("tile string is %d characters long; at most %d are accepted", len(s), maxTileString)}
	}
	start := len(dst)
	pending := 0 // digits waiting for their letter
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			dst = append(dst, Tile(c)) // placeholder: the digit, resolved at the letter
			pending++
		case c == ' ':
		case strings.IndexByte("mpszfkj", c) >= 0:
			if pending == 0 {
				return dst[:start], &SyntaxError{s, i, fmt.Sprintf("suit letter %q has no digits before it (write tiles as 123m, 55z)", c)}
			}
			for j := len(dst) - pending; j < len(dst); j++ {
				t, ok := MakeTile(byte(dst[j]), c)
				if !ok {
					return dst[:start], &SyntaxError{s, i, fmt.Sprintf("%c%c is not a tile (%s)", byte(dst[j]), c, suitRange(c))}
				}
				dst[j] = t
			}
			pending = 0
		default:
			return dst[:start], &SyntaxError{s, i, fmt.Sprintf("unexpected %s: want a digit or one of the suit letters m p s z f k j", QuoteCharAt(s, i))}
		}
	}
	if pending > 0 {
		return dst[:start], &SyntaxError{s, len(s), "digits at the end have no suit letter (m, p, s, z, f, k or j)"}
	}
	return dst, nil
}

func suitRange(letter byte) string {
	switch letter {
	case 'm', 'p', 's':
		return "suits take 1–9, and 0 for a red five"
	case 'z':
		return "honors are 1z–7z, and 0z for a face-down tile"
	case 'f':
		return "flowers and seasons are 1f–8f"
	case 'k':
		return "kings and queens are 1k–8k"
	case 'j':
		return "jokers are 1j–9j"
	}
	return ""
}

// ParseTile reads exactly one tile code.
func ParseTile(s string) (Tile, error) {
	ts, err := ParseTiles(s)
	if err != nil {
		return NoTile, err
	}
	if len(ts) != 1 {
		return NoTile, &SyntaxError{s, 0, fmt.Sprintf("want exactly one tile, found %d", len(ts))}
	}
	return ts[0], nil
}

// FormatTiles writes tiles as CONTRACT codes, grouping runs of one suit
// letter: 1m 2m 3m 5z 5z → "123m55z".
func FormatTiles(ts []Tile) string {
	var b strings.Builder
	for i, t := range ts {
		b.WriteByte(byte('0' + t.Num()))
		if i == len(ts)-1 || suitLetters[ts[i+1].Suit()] != suitLetters[t.Suit()] {
			b.WriteByte(suitLetters[t.Suit()])
		}
	}
	return b.String()
}

// ParseMPSZ reads a whole hand in MPSZ notation with majiang-style meld
// markers: the concealed tiles first, then one group per meld, separated by
// commas. Suit letters may stand before their digits (majiang: "m123p55")
// or after them (CONTRACT: "123m55p"). In a meld, a marker right after a
// digit says that tile was called and from whom: '-' left, '=' across,
// '+' right. Four tiles with no marker are a concealed kong; "m555=5" (a
// marked pon plus one more digit) is an added kong.
//
//	"m123p456s789z11,m1-23,z666=,p5555"
//
// The winning tile is the last concealed tile unless the caller says
// otherwise.
func ParseMPSZ(s string) (concealed []Tile, melds []Meld, err error) {
	if len(s) > maxTileString {
		return nil, nil, &SyntaxError{s[:32] + "…", 32, fmt.Sprintf("hand is %d characters long; at most %d are accepted", len(s), maxTileString)}
	}
	groups := strings.Split(s, ",")
	offset := 0
	for gi, g := range groups {
		if gi == 0 {
			concealed, err = parseMPSZGroup(s, offset, g)
			if err != nil {
				return nil, nil, err
			}
		} else {
			m, err := parseMeldGroup(s, offset, g)
			if err != nil {
				return nil, nil, err
			}
			melds = append(melds, m)
		}
		offset += len(g) + 1
	}
	return concealed, melds, nil
}

// parseMPSZGroup reads tiles in either letter order.
func parseMPSZGroup(full string, offset int, g string) ([]Tile, error) {
	g = strings.TrimSpace(g)
	if g == "" {
		return nil, nil
	}
	if c := g[0]; c >= '0' && c <= '9' {
		ts, err := ParseTiles(g)
		if se, ok := err.(*SyntaxError); ok {
			se.Input, se.Pos = full, se.Pos+offset
		}
		return ts, err
	}
	var out []Tile
	letter := byte(0)
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.IndexByte("mpszfkj", c) >= 0:
			letter = c
		case c >= '0' && c <= '9':
			if letter == 0 {
				return nil, &SyntaxError{full, offset + i, "digit before any suit letter"}
			}
			t, ok := MakeTile(c, letter)
			if !ok {
				return nil, &SyntaxError{full, offset + i, fmt.Sprintf("%c%c is not a tile (%s)", c, letter, suitRange(letter))}
			}
			out = append(out, t)
		case c == ' ':
		default:
			return nil, &SyntaxError{full, offset + i, fmt.Sprintf("unexpected %s: want a digit or a suit letter", QuoteCharAt(g, i))}
		}
	}
	return out, nil
}

func parseMeldGroup(full string, offset int, g string) (Meld, error) {
	bad := func(pos int, why string) (Meld, error) {
		return Meld{}, &SyntaxError{full, offset + pos, why}
	}
	g = strings.TrimSpace(g)
	if g == "" {
		return bad(0, "empty meld between commas")
	}
	letter := byte(0)
	var digits []byte
	marker, markerAt := byte(0), -1
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.IndexByte("mpsz", c) >= 0:
			if letter != 0 {
				return bad(i, "a meld has one suit letter")
			}
			letter = c
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == '-' || c == '=' || c == '+':
			if marker != 0 {
				return bad(i, "a meld has at most one marker (- left, = across, + right)")
			}
			if len(digits) == 0 {
				return bad(i, "a marker follows the called tile's digit")
			}
			marker, markerAt = c, len(digits)
		default:
			return bad(i, fmt.Sprintf("unexpected %s in a meld: want digits, one suit letter and a marker - = +", QuoteCharAt(g, i)))
		}
	}
	if letter == 0 {
		return bad(0, "meld has no suit letter")
	}
	tiles := make([]Tile, len(digits))
	for i, d := range digits {
		t, ok := MakeTile(d, letter)
		if !ok {
			return bad(0, fmt.Sprintf("%c%c is not a tile (%s)", d, letter, suitRange(letter)))
		}
		tiles[i] = t
	}
	m := Meld{Tiles: tiles}
	switch marker {
	case '-':
		m.From = FromLeft
	case '=':
		m.From = FromAcross
	case '+':
		m.From = FromRight
	}
	if marker != 0 {
		m.Called = tiles[markerAt-1]
	}
	switch len(tiles) {
	case 3:
		if marker == 0 {
			return bad(0, "a three-tile meld needs a marker for the called tile (- left, = across, + right)")
		}
		if isRun(tiles) {
			m.Type = Chi
		} else {
			m.Type = Pon
		}
	case 4:
		switch {
		case marker == 0:
			m.Type = Ankan
		case markerAt == 3:
			m.Type = Kakan
		default:
			m.Type = Minkan
		}
	default:
		return bad(0, fmt.Sprintf("a meld has 3 or 4 tiles, this one has %d", len(tiles)))
	}
	return m, nil
}

func isRun(ts []Tile) bool {
	if len(ts) != 3 || !ts[0].Suited() {
		return false
	}
	a, b, c := ts[0].Kind(), ts[1].Kind(), ts[2].Kind()
	lo, hi := min(a, b, c), max(a, b, c)
	return a.Suit() == b.Suit() && b.Suit() == c.Suit() && hi-lo == 2 && a != b && b != c && a != c
}

// FormatMPSZ writes a hand the way ParseMPSZ reads it, suit letters after
// their digits: "123m55z,1-23m,666=z".
func FormatMPSZ(concealed []Tile, melds []Meld) string {
	var b strings.Builder
	b.WriteString(FormatTiles(concealed))
	for _, m := range melds {
		b.WriteByte(',')
		b.WriteString(m.MPSZ())
	}
	return b.String()
}

// MPSZ writes one meld with its marker, suit letter last: "1-23m", "666=z".
func (m Meld) MPSZ() string {
	var b strings.Builder
	calledAt := 0 // a chi whose called tile is unknown marks its first tile
	for i, t := range m.Tiles {
		if t == m.Called {
			calledAt = i
			break
		}
	}
	for i, t := range m.Tiles {
		b.WriteByte(byte('0' + t.Num()))
		// The marker follows the called tile of a chi; a pon or open kong
		// carries it at the end, an added kong after the original pon.
		var mark bool
		switch m.Type {
		case Chi:
			mark = i == calledAt
		case Pon, Minkan:
			mark = i == len(m.Tiles)-1
		case Kakan:
			mark = i == 2
		}
		if mark {
			b.WriteByte(m.From.marker())
		}
	}
	if len(m.Tiles) > 0 {
		b.WriteByte(suitLetters[m.Tiles[0].Suit()])
	}
	return b.String()
}

// QuoteCharAt quotes, for a message, the character that starts at byte i
// of s: the whole character ('🀄', not the 'ð' of its first byte), and a
// byte that is not UTF-8 as what it is.
func QuoteCharAt(s string, i int) string {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return fmt.Sprintf("byte %#x (not UTF-8 text)", s[i])
	}
	return strconv.QuoteRune(r)
}
