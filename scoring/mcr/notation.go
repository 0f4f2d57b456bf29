package mcr

import (
	"fmt"
	"strings"

	"mjscan/scoring"
)

// The MCR tools' bracket notation (ChineseOfficialMahjongHelper):
//
//	[123m,1][999s,3][EEEE]45m678pFF6m
//
// Suits are m (characters), s (bamboo) and p (dots), digits before their
// letter. Honors are letters: E S W N for the winds, C F P for the red,
// green and white dragons (in that order); 1z–7z also work, and then 5z is
// RED, 6z green, 7z white, unlike the CONTRACT codes. Melds stand in
// brackets with an optional ",digit": for a chow, which tile was taken
// from the left (default the first); for a pung, who discarded it (1 left,
// 2 across, 3 right; default left); for a kong, the same, with no digit a
// concealed kong and 5–7 a kong added to a pung claimed from 1–3. The
// tiles outside brackets are the concealed hand, the last one the winning
// tile. Because 5z differs, the engine reads this notation only when the
// request says "notation": "mcr".

// MCRHand is a hand read from bracket notation.
type MCRHand struct {
	Melds []scoring.Meld
	// Tiles are the concealed tiles as written; the last is the winning
	// tile when the hand is complete.
	Tiles []scoring.Tile
}

// maxNotation bounds the input a parser reads.
const maxNotation = 256

// maxMCRTiles bounds the tiles of one hand string (14 plus a kong's
// fourth tile per meld, with room for a wrong count to be reported).
const maxMCRTiles = 24

var mcrHonors = [7]scoring.Tile{scoring.East, scoring.South, scoring.West, scoring.North, scoring.Red, scoring.Green, scoring.White}

func mcrHonor(c byte) (scoring.Tile, bool) {
	if i := strings.IndexByte("ESWNCFP", c); i >= 0 {
		return mcrHonors[i], true
	}
	return scoring.NoTile, false
}

func syntaxErr(s string, pos int, format string, args ...any) error {
	in := s
	if len(in) > 40 {
		in = in[:40] + "…"
	}
	return &scoring.SyntaxError{Input: in, Pos: pos, Reason: fmt.Sprintf(format, args...)}
}

// tileScanner reads runs of tiles in the bracket notation.
type tileScanner struct {
	s       string
	digits  [maxMCRTiles]byte
	nDigits int
	digitAt int
}

// letter resolves pending digits with a suit letter.
func (sc *tileScanner) letter(i int, c byte, dst []scoring.Tile) ([]scoring.Tile, error) {
	if sc.nDigits == 0 {
		return dst, syntaxErr(sc.s, i, "suit letter %q has no digits before it (write 123m, 55p, 7z)", c)
	}
	for _, d := range sc.digits[:sc.nDigits] {
		var t scoring.Tile
		switch c {
		case 'm':
			t = scoring.Man1 + scoring.Tile(d-1)
		case 'p':
			t = scoring.Pin1 + scoring.Tile(d-1)
		case 's':
			t = scoring.Sou1 + scoring.Tile(d-1)
		case 'z':
			if d > 7 {
				return dst, syntaxErr(sc.s, i, "%dz is not a tile: honors are 1z–7z (1234z winds, 567z red, green, white dragons)", d)
			}
			t = mcrHonors[d-1]
		}
		if len(dst) >= maxMCRTiles {
			return dst, syntaxErr(sc.s, i, "more than %d tiles", maxMCRTiles)
		}
		dst = append(dst, t)
	}
	sc.nDigits = 0
	return dst, nil
}

func (sc *tileScanner) digit(i int, c byte) error {
	if c == '0' {
		return syntaxErr(sc.s, i, "0 is not a tile number in MCR notation (numbers are 1–9; there are no red fives)")
	}
	if sc.nDigits == len(sc.digits) {
		return syntaxErr(sc.s, i, "more than %d tiles", maxMCRTiles)
	}
	if sc.nDigits == 0 {
		sc.digitAt = i
	}
	sc.digits[sc.nDigits] = c - '0'
	sc.nDigits++
	return nil
}

// ParseMCRTiles reads tiles in bracket notation with no melds ("123m45pEE").
func ParseMCRTiles(s string) ([]scoring.Tile, error) {
	h, err := ParseMCR(s)
	if err != nil {
		return nil, err
	}
	if len(h.Melds) > 0 {
		return nil, syntaxErr(s, strings.IndexByte(s, '['), "brackets (melds) are not allowed here")
	}
	return h.Tiles, nil
}

// ParseMCR reads a hand in the MCR tools' bracket notation.
func ParseMCR(s string) (MCRHand, error) {
	var h MCRHand
	if len(s) > maxNotation {
		return h, syntaxErr(s, maxNotation, "the hand is %d characters long; at most %d are accepted", len(s), maxNotation)
	}
	sc := tileScanner{s: s}
	var tiles []scoring.Tile // the current run: concealed tiles or a meld's
	inMeld := false
	meldStart := 0
	offer := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		var err error
		switch {
		case c >= '0' && c <= '9':
			if offer >= 0 {
				return h, syntaxErr(s, i, "one digit after the comma names the caller (1–3, or 5–7 for an added kong)")
			}
			if offer == -3 { // right after ",": the source digit
				if c < '1' || c > '7' || c == '4' {
					return h, syntaxErr(s, i, "%c after the comma: want 1–3 (who discarded, or which chow tile was taken), or 5–7 for an added kong", c)
				}
				offer = int(c - '0')
				continue
			}
			err = sc.digit(i, c)
		case c == 'm' || c == 'p' || c == 's' || c == 'z':
			if offer >= 0 {
				return h, syntaxErr(s, i, "tiles after the meld's source digit")
			}
			tiles, err = sc.letter(i, c, tiles)
		case strings.IndexByte("ESWNCFP", c) >= 0:
			if sc.nDigits > 0 {
				return h, syntaxErr(s, sc.digitAt, "digits before %q have no suit letter (m, s, p or z)", c)
			}
			if offer >= 0 {
				return h, syntaxErr(s, i, "tiles after the meld's source digit")
			}
			if len(tiles) >= maxMCRTiles {
				return h, syntaxErr(s, i, "more than %d tiles", maxMCRTiles)
			}
			t, _ := mcrHonor(c)
			tiles = append(tiles, t)
		case c == ' ':
			if sc.nDigits > 0 {
				return h, syntaxErr(s, sc.digitAt, "digits without a suit letter (m, s, p or z)")
			}
		case c == '[':
			if inMeld {
				return h, syntaxErr(s, i, "a meld opened inside another: close it with ] first")
			}
			if sc.nDigits > 0 {
				return h, syntaxErr(s, sc.digitAt, "digits without a suit letter (m, s, p or z)")
			}
			if len(h.Melds) == 4 {
				return h, syntaxErr(s, i, "more than four melds")
			}
			h.Tiles = append(h.Tiles, tiles...)
			if len(h.Tiles) > maxMCRTiles {
				return h, syntaxErr(s, i, "more than %d tiles", maxMCRTiles)
			}
			tiles = tiles[:0:0]
			inMeld, meldStart, offer = true, i, -1
		case c == ',':
			if !inMeld || offer != -1 {
				return h, syntaxErr(s, i, "a comma belongs inside a meld, before its source digit: [999s,3]")
			}
			if sc.nDigits > 0 {
				return h, syntaxErr(s, sc.digitAt, "digits without a suit letter (m, s, p or z)")
			}
			offer = -3
		case c == ']':
			if !inMeld {
				return h, syntaxErr(s, i, "] closes no meld")
			}
			if offer == -3 {
				return h, syntaxErr(s, i, "the comma wants a source digit: [999s,3]")
			}
			if sc.nDigits == 1 && offer == -1 { // the helper's own output: [999s3]
				d := sc.digits[0]
				if d == 4 || d > 7 {
					return h, syntaxErr(s, sc.digitAt, "%d as the meld's source: want 1–3, or 5–7 for an added kong", d)
				}
				offer = int(d)
				sc.nDigits = 0
			}
			if sc.nDigits > 0 {
				return h, syntaxErr(s, sc.digitAt, "digits without a suit letter (m, s, p or z)")
			}
			m, err := mcrMeld(s, meldStart, tiles, offer)
			if err != nil {
				return h, err
			}
			h.Melds = append(h.Melds, m)
			tiles = tiles[:0:0]
			inMeld, offer = false, -1
		default:
			return h, syntaxErr(s, i, "unexpected %s: MCR notation uses digits with m s p z, the letters E S W N C F P, and [ , ] for melds", scoring.QuoteCharAt(s, i))
		}
		if err != nil {
			return h, err
		}
	}
	if inMeld {
		return h, syntaxErr(s, meldStart, "meld not closed: add ]")
	}
	if sc.nDigits > 0 {
		return h, syntaxErr(s, sc.digitAt, "digits at the end have no suit letter (m, s, p or z)")
	}
	h.Tiles = append(h.Tiles, tiles...)
	if len(h.Tiles) > maxMCRTiles {
		return h, syntaxErr(s, len(s), "more than %d tiles", maxMCRTiles)
	}
	return h, nil
}

// mcrMeld builds the meld written at pos with its source digit (-1 none).
func mcrMeld(s string, pos int, tiles []scoring.Tile, offer int) (scoring.Meld, error) {
	m := scoring.Meld{Tiles: tiles, Called: scoring.NoTile}
	switch len(tiles) {
	case 3:
		if tiles[0] == tiles[1] && tiles[1] == tiles[2] {
			m.Type = scoring.Pon
			if offer > 3 {
				return m, syntaxErr(s, pos, "a pung's source is 1–3 (left, across, right)")
			}
			m.From = scoring.FromLeft
			if offer > 0 {
				m.From = scoring.From(offer)
			}
			return m, nil
		}
		lo := min(tiles[0], tiles[1], tiles[2])
		if !lo.Suited() || lo.Num() > 7 {
			return m, syntaxErr(s, pos, "%s is neither a pung nor a chow", scoring.FormatTiles(tiles))
		}
		var seen [3]bool
		for _, t := range tiles {
			d := int(t) - int(lo)
			if d < 0 || d > 2 || seen[d] {
				return m, syntaxErr(s, pos, "%s is neither a pung nor a chow", scoring.FormatTiles(tiles))
			}
			seen[d] = true
		}
		if offer > 3 {
			return m, syntaxErr(s, pos, "a chow's digit is 1–3: which of its tiles was taken from the left")
		}
		m.Type, m.From = scoring.Chi, scoring.FromLeft
		if offer < 1 {
			offer = 1
		}
		m.Called = tiles[offer-1]
		return m, nil
	case 4:
		if tiles[0] != tiles[1] || tiles[1] != tiles[2] || tiles[2] != tiles[3] {
			return m, syntaxErr(s, pos, "%s is not a kong: four tiles in brackets must be alike", scoring.FormatTiles(tiles))
		}
		switch {
		case offer <= 0:
			m.Type = scoring.Ankan
		case offer <= 3:
			m.Type, m.From = scoring.Minkan, scoring.From(offer)
		default:
			m.Type, m.From = scoring.Kakan, scoring.From(offer-4)
		}
		return m, nil
	}
	return m, syntaxErr(s, pos, "a meld holds 3 or 4 tiles, got %d", len(tiles))
}

// FormatMCR writes a hand in bracket notation: the melds, the concealed
// tiles but the last in order, then the last (the winning tile).
func FormatMCR(h MCRHand) string {
	var b strings.Builder
	for _, m := range h.Melds {
		b.WriteByte('[')
		writeRun(&b, m.Tiles)
		if d := meldDigit(m); d > 0 {
			b.WriteByte(',')
			b.WriteByte(byte('0' + d))
		}
		b.WriteByte(']')
	}
	if n := len(h.Tiles); n > 0 {
		rest := append([]scoring.Tile(nil), h.Tiles[:n-1]...)
		sortMCR(rest)
		writeRun(&b, rest)
		writeRun(&b, h.Tiles[n-1:])
	}
	return b.String()
}

// meldDigit is the source digit a meld is written with (0: none).
func meldDigit(m scoring.Meld) int {
	switch m.Type {
	case scoring.Chi:
		for i, t := range m.Tiles {
			if t == m.Called && i > 0 {
				return i + 1
			}
		}
	case scoring.Pon:
		if m.From > scoring.FromLeft {
			return int(m.From)
		}
	case scoring.Minkan:
		if m.From == scoring.FromNone {
			return 1
		}
		return int(m.From)
	case scoring.Kakan:
		if m.From == scoring.FromNone {
			return 5
		}
		return int(m.From) + 4
	}
	return 0
}

func mcrLetter(t scoring.Tile) byte {
	switch t.Suit() {
	case scoring.Man:
		return 'm'
	case scoring.Pin:
		return 'p'
	case scoring.Sou:
		return 's'
	}
	return 0
}

// writeRun writes tiles, grouping digits of one suit before its letter.
func writeRun(b *strings.Builder, ts []scoring.Tile) {
	var pend byte
	for _, t := range ts {
		t = t.Kind()
		l := mcrLetter(t)
		if pend != 0 && l != pend {
			b.WriteByte(pend)
		}
		pend = l
		if l == 0 {
			for i, h := range mcrHonors {
				if h == t {
					b.WriteByte("ESWNCFP"[i])
				}
			}
			continue
		}
		b.WriteByte(byte('0' + t.Num()))
	}
	if pend != 0 {
		b.WriteByte(pend)
	}
}

// sortMCR orders tiles as the MCR tools do: characters, bamboo, dots,
// then winds and dragons.
func sortMCR(ts []scoring.Tile) {
	key := func(t scoring.Tile) tile { c, _ := fromScoring(t); return c }
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && key(ts[j]) < key(ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// formatInput writes a checked hand in bracket notation.
func formatInput(hi *handInput) string {
	var h MCRHand
	for i := 0; i < hi.nFixed; i++ {
		p := hi.fixed[i]
		v := hi.melds[i]
		m := scoring.Meld{From: scoring.From(v.from), Called: scoring.NoTile}
		switch p.kind {
		case kindChow:
			m.Type = scoring.Chi
			m.Tiles = []scoring.Tile{toScoring(p.tile - 1), toScoring(p.tile), toScoring(p.tile + 1)}
			if v.called > 0 {
				m.Called = m.Tiles[v.called-1]
			}
		case kindPung:
			m.Type = scoring.Pon
			t := toScoring(p.tile)
			m.Tiles = []scoring.Tile{t, t, t}
		case kindKong:
			t := toScoring(p.tile)
			m.Tiles = []scoring.Tile{t, t, t, t}
			switch {
			case !p.melded:
				m.Type = scoring.Ankan
			case v.added:
				m.Type = scoring.Kakan
			default:
				m.Type = scoring.Minkan
			}
		}
		h.Melds = append(h.Melds, m)
	}
	st := hi.standing
	st[hi.win]--
	for _, t := range allTiles {
		for k := uint8(0); k < st[t]; k++ {
			h.Tiles = append(h.Tiles, toScoring(t))
		}
	}
	h.Tiles = append(h.Tiles, toScoring(hi.win))
	return FormatMCR(h)
}

// parseMCRRequest reads a request whose tiles are in bracket notation.
func parseMCRRequest(r *scoring.Request, hi *handInput) *scoring.Error {
	h, err := ParseMCR(r.Hand)
	if err != nil {
		return scoring.Errorf(scoring.CodeBadRequest, "hand (mcr notation): %v", err)
	}
	if len(h.Tiles) == 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "the hand is empty: give the concealed tiles in \"hand\"")
	}
	if len(h.Melds)+len(r.Melds) > 4 {
		return scoring.Errorf(scoring.CodeBadRequest, "%d melds: a hand has at most four sets", len(h.Melds)+len(r.Melds))
	}
	for i, ms := range r.Melds {
		var m scoring.Meld
		var e error
		if m.Type, e = scoring.ParseMeldType(ms.Type); e != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %v", i, e)
		}
		if m.Tiles, e = ParseMCRTiles(ms.Tiles); e != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "melds[%d] (mcr notation): %v", i, e)
		}
		if m.From, e = scoring.ParseFrom(ms.From); e != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %v", i, e)
		}
		m.Called = scoring.NoTile
		h.Melds = append(h.Melds, m)
	}
	win := h.Tiles[len(h.Tiles)-1]
	if r.WinTile != "" {
		w, e := ParseMCRTiles(r.WinTile)
		if e != nil || len(w) != 1 {
			if e == nil {
				e = fmt.Errorf("want one tile, got %d", len(w))
			}
			return scoring.Errorf(scoring.CodeBadRequest, "win_tile (mcr notation): %v", e)
		}
		win = w[0]
	}
	flowers, e := scoring.ParseTiles(r.Flowers)
	if e != nil {
		return scoring.Errorf(scoring.CodeBadRequest, "flowers (CONTRACT codes 1f–8f): %v", e)
	}
	return buildInput(hi, h.Tiles, win, h.Melds, flowers, r)
}
