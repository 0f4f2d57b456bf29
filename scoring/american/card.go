// Package american scores American (NMJL-style) mahjong: a winning hand is
// one line of a card, the card is data the user supplies (format
// "mjscan-card/1", see FORMAT.md), jokers stand only in pungs, kongs, quints
// and sextets, a jokerless hand scores double, and payments follow seed 000.
package american

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"mjscan/scoring"
)

// CardFormat is the format tag every card document carries.
const CardFormat = "mjscan-card/1"

// Limits on card documents, which come from outside.
const (
	maxCardBytes    = 1 << 20
	maxCardHands    = 500
	maxBindings     = 20_000  // variable bindings tried per card line
	maxCardBindings = 100_000 // and over the whole card, so a supplied card stays cheap to match
	handTiles       = 14
	maxGroupsInHand = 14
)

// GroupKind is the shape of one group of a card line.
type GroupKind string

const (
	Single  GroupKind = "single"
	Pair    GroupKind = "pair"
	Singles GroupKind = "singles" // a run of different single tiles, such as 2013 or NEWS
	Pung    GroupKind = "pung"
	Kong    GroupKind = "kong"
	Quint   GroupKind = "quint"
	Sextet  GroupKind = "sextet"
)

var groupSize = map[GroupKind]int{Single: 1, Pair: 2, Pung: 3, Kong: 4, Quint: 5, Sextet: 6}

// JokersAllowed reports whether jokers may fill the group: only groups of
// three or more identical tiles (seed 000: "a substitute in any meld, but
// not as a pair, or as a single tile").
func (k GroupKind) JokersAllowed() bool { return k == Pung || k == Kong || k == Quint || k == Sextet }

// Card is a parsed, validated card.
type Card struct {
	Name  string
	Title string
	Lines []Line
}

// Line is one hand printed on the card.
type Line struct {
	ID        string
	Category  string
	Value     int
	Concealed bool // "C": no exposures (the winning tile may still be a discard)
	Comment   string
	Groups    []Group
	Distinct  [][]string
	Numbers   map[string][2]int
	// NoJokerlessDouble marks the Singles and Pairs category: its hands
	// cannot hold jokers, so they do not double for having none.
	NoJokerlessDouble bool
	suitVars          []string
	dragonVars        []string
	numVars           []string
	nBindings         int
}

// Group is one group of a line.
type Group struct {
	Kind   GroupKind
	Tokens []Token
}

// TokenKind says what a card token names.
type TokenKind uint8

const (
	TokFlower       TokenKind = iota + 1 // F: any bonus tile
	TokZero                              // 0: the white dragon used as zero, suitless
	TokWind                              // N E W S
	TokDragon                            // D<v>: a dragon bound to dragon variable D<v>
	TokDragonOfSuit                      // D@<A>: the dragon of suit variable A (green bams, red craks, white dots)
	TokNumber                            // <digit><A> or <n>[+k|-k]<A>
)

// Token is one tile of a card line.
type Token struct {
	Kind   TokenKind
	Text   string
	Wind   scoring.Tile
	Var    string // dragon variable ("DX") or suit variable ("A")
	Num    int    // fixed number 1–9, 0 when NumVar is set
	NumVar string // number variable ("n")
	Offset int    // added to NumVar
}

type cardFile struct {
	Format string     `json:"format"`
	Card   string     `json:"card"`
	Source string     `json:"source,omitempty"`
	Notes  []string   `json:"notes,omitempty"`
	Hands  []lineFile `json:"hands"`
}

type lineFile struct {
	ID              string            `json:"id"`
	Category        string            `json:"category"`
	Value           int               `json:"value"`
	Concealed       bool              `json:"concealed"`
	Comment         string            `json:"comment,omitempty"`
	Note            string            `json:"note,omitempty"`
	Groups          []groupFile       `json:"groups"`
	Distinct        [][]string        `json:"distinct,omitempty"`
	Numbers         map[string][2]int `json:"numbers,omitempty"`
	SinglesAndPairs bool              `json:"singles_and_pairs,omitempty"`
}

type groupFile struct {
	Kind  GroupKind `json:"kind"`
	Tiles []string  `json:"tiles"`
}

// ParseCard reads and validates a card document. name is how requests
// refer to it. Every problem is reported with where it is.
func ParseCard(name string, data []byte) (*Card, error) {
	if len(data) > maxCardBytes {
		return nil, fmt.Errorf("card %s: %d bytes; at most %d are accepted", name, len(data), maxCardBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f cardFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("card %s: not a %s document: %v", name, CardFormat, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("card %s: extra data after the card document", name)
	}
	if f.Format != CardFormat {
		return nil, fmt.Errorf("card %s: format %q, want %q", name, f.Format, CardFormat)
	}
	if len(f.Hands) == 0 || len(f.Hands) > maxCardHands {
		return nil, fmt.Errorf("card %s: %d hands; a card has 1 to %d", name, len(f.Hands), maxCardHands)
	}
	c := &Card{Name: name, Title: f.Card}
	ids := map[string]bool{}
	bindings := 0
	for i, lf := range f.Hands {
		l, err := parseLine(lf)
		if err != nil {
			return nil, fmt.Errorf("card %s: hands[%d] (%s): %v", name, i, lf.ID, err)
		}
		if ids[l.ID] {
			return nil, fmt.Errorf("card %s: hands[%d]: id %q is used twice", name, i, l.ID)
		}
		ids[l.ID] = true
		if bindings += l.nBindings; bindings > maxCardBindings {
			return nil, fmt.Errorf("card %s: its lines bind their variables in more than %d ways in all", name, maxCardBindings)
		}
		c.Lines = append(c.Lines, *l)
	}
	return c, nil
}

func parseLine(lf lineFile) (*Line, error) {
	l := &Line{ID: lf.ID, Category: lf.Category, Value: lf.Value, Concealed: lf.Concealed, Comment: lf.Comment,
		Distinct: lf.Distinct, Numbers: lf.Numbers}
	if l.ID == "" || len(l.ID) > 64 {
		return nil, fmt.Errorf("id must be 1 to 64 characters")
	}
	if l.Value < 1 || l.Value > 1000 {
		return nil, fmt.Errorf("value %d: want 1 to 1000 points", l.Value)
	}
	l.NoJokerlessDouble = lf.SinglesAndPairs || isSinglesAndPairs(lf.Category)
	if len(lf.Groups) == 0 || len(lf.Groups) > maxGroupsInHand {
		return nil, fmt.Errorf("%d groups: want 1 to %d", len(lf.Groups), maxGroupsInHand)
	}
	total := 0
	vars := map[string]TokenKind{}
	for gi, gf := range lf.Groups {
		g := Group{Kind: gf.Kind}
		size, fixed := groupSize[gf.Kind]
		switch {
		case gf.Kind == Singles:
			if len(gf.Tiles) < 1 || len(gf.Tiles) > handTiles {
				return nil, fmt.Errorf("groups[%d]: singles hold 1 to %d tiles", gi, handTiles)
			}
		case !fixed:
			return nil, fmt.Errorf("groups[%d]: kind %q: want single, pair, singles, pung, kong, quint or sextet", gi, gf.Kind)
		case len(gf.Tiles) != size:
			return nil, fmt.Errorf("groups[%d]: a %s has %d tiles, got %d", gi, gf.Kind, size, len(gf.Tiles))
		}
		for ti, s := range gf.Tiles {
			t, err := ParseToken(s)
			if err != nil {
				return nil, fmt.Errorf("groups[%d].tiles[%d]: %v", gi, ti, err)
			}
			if fixed && size > 1 && s != gf.Tiles[0] {
				return nil, fmt.Errorf("groups[%d]: a %s is one tile repeated, got %q and %q", gi, gf.Kind, gf.Tiles[0], s)
			}
			switch t.Kind {
			case TokDragon:
				vars[t.Var] = TokDragon
			case TokDragonOfSuit, TokNumber:
				vars[t.Var] = TokNumber
				if t.NumVar != "" {
					vars[t.NumVar] = TokZero // marks a number variable
				}
			}
			g.Tokens = append(g.Tokens, t)
		}
		total += len(g.Tokens)
		l.Groups = append(l.Groups, g)
	}
	if total != handTiles {
		return nil, fmt.Errorf("the groups hold %d tiles; a hand holds %d", total, handTiles)
	}
	for v, k := range vars {
		switch k {
		case TokDragon:
			l.dragonVars = append(l.dragonVars, v)
		case TokNumber:
			l.suitVars = append(l.suitVars, v)
		default:
			l.numVars = append(l.numVars, v)
		}
	}
	sortStrings(l.dragonVars)
	sortStrings(l.suitVars)
	sortStrings(l.numVars)
	for di, d := range l.Distinct {
		var kind TokenKind
		for _, v := range d {
			k, ok := vars[v]
			if !ok || k == TokZero {
				return nil, fmt.Errorf("distinct[%d]: %q is not a suit or dragon variable of this hand", di, v)
			}
			if kind != 0 && k != kind {
				return nil, fmt.Errorf("distinct[%d]: mixes suit and dragon variables", di)
			}
			kind = k
		}
		if len(d) > 3 {
			return nil, fmt.Errorf("distinct[%d]: %d variables cannot all differ: there are three suits and three dragons", di, len(d))
		}
	}
	for _, v := range l.numVars {
		r, ok := l.Numbers[v]
		if !ok {
			return nil, fmt.Errorf("number variable %q has no range in \"numbers\"", v)
		}
		if r[0] < 1 || r[1] > 9 || r[0] > r[1] {
			return nil, fmt.Errorf("numbers[%q] = %v: want a range within 1..9", v, r)
		}
	}
	for v := range l.Numbers {
		if k, ok := vars[v]; !ok || k != TokZero {
			return nil, fmt.Errorf("numbers[%q]: no tile uses this number variable", v)
		}
	}
	n := 1 // ways to bind the variables, counted only up to the bound
	for range l.suitVars {
		n = min(n*3, maxBindings+1)
	}
	for range l.dragonVars {
		n = min(n*3, maxBindings+1)
	}
	for _, v := range l.numVars {
		r := l.Numbers[v]
		n = min(n*(r[1]-r[0]+1), maxBindings+1)
	}
	if n > maxBindings {
		return nil, fmt.Errorf("more than %d ways to bind its variables", maxBindings)
	}
	l.nBindings = n
	return l, nil
}

func isSinglesAndPairs(category string) bool {
	c := strings.ToLower(strings.NewReplacer("-", " ", "_", " ", "&", "and").Replace(category))
	return strings.Join(strings.Fields(c), " ") == "singles and pairs"
}

// ParseToken reads one card token: F, 0, N, E, W, S, D<X>, D@<A>, <1-9><A>,
// <n><A>, <n>+<k><A>, <n>-<k><A>.
func ParseToken(s string) (Token, error) {
	t := Token{Text: s}
	switch s {
	case "F":
		t.Kind = TokFlower
		return t, nil
	case "0":
		t.Kind = TokZero
		return t, nil
	case "E", "S", "W", "N":
		t.Kind = TokWind
		t.Wind = scoring.East + scoring.Tile(strings.Index("ESWN", s))
		return t, nil
	}
	upper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	bad := fmt.Errorf("token %q: want F, 0, N, E, W, S, D<X> (dragon variable), D@<A> (dragon of suit A), <1-9><A> or <n>[+k|-k]<A>", s)
	switch {
	case len(s) == 2 && s[0] == 'D' && upper(s[1]):
		t.Kind, t.Var = TokDragon, s
	case len(s) == 3 && s[0] == 'D' && s[1] == '@' && upper(s[2]):
		t.Kind, t.Var = TokDragonOfSuit, s[2:]
	case len(s) == 2 && s[0] >= '1' && s[0] <= '9' && upper(s[1]):
		t.Kind, t.Num, t.Var = TokNumber, int(s[0]-'0'), s[1:]
	case len(s) == 2 && lower(s[0]) && upper(s[1]):
		t.Kind, t.NumVar, t.Var = TokNumber, s[:1], s[1:]
	case len(s) == 4 && lower(s[0]) && (s[1] == '+' || s[1] == '-') && s[2] >= '0' && s[2] <= '8' && upper(s[3]):
		t.Kind, t.NumVar, t.Var = TokNumber, s[:1], s[3:]
		t.Offset = int(s[2] - '0')
		if s[1] == '-' {
			t.Offset = -t.Offset
		}
	default:
		return t, bad
	}
	if t.Kind == TokNumber && (t.Var == "D" || t.Var == "F" || len(t.Var) != 1) {
		return t, bad
	}
	return t, nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// String writes a line the way cards print it: "N EE WWW SSSS 2013".
func (l *Line) String() string {
	parts := make([]string, 0, len(l.Groups))
	for _, g := range l.Groups {
		parts = append(parts, g.Printed())
	}
	tag := "X"
	if l.Concealed {
		tag = "C"
	}
	return fmt.Sprintf("%s %s%d", strings.Join(parts, " "), tag, l.Value)
}

// Printed writes a group's tokens as the card shows them, with spaces
// between tokens that carry variables: "SSSS", "2A 0 1A 3A".
func (g *Group) Printed() string {
	sep := ""
	for _, t := range g.Tokens {
		if len(t.Text) > 1 {
			sep = " "
		}
	}
	texts := make([]string, len(g.Tokens))
	for i, t := range g.Tokens {
		texts[i] = t.Text
	}
	s := strings.Join(texts, sep)
	if sep != "" {
		s = "[" + s + "]"
	}
	return s
}
