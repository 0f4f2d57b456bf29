package scoring

import (
	"errors"
	"strings"
	"testing"
)

func TestParseTilesContractCodes(t *testing.T) {
	ts, err := ParseTiles("123m0p55z1f9j0z")
	if err != nil {
		t.Fatal(err)
	}
	want := []Tile{Man1, Man1 + 1, Man1 + 2, RedPin5, White, White, Flower1, Joker1 + 8, Back}
	if len(ts) != len(want) {
		t.Fatalf("got %v, want %v", ts, want)
	}
	for i := range want {
		if ts[i] != want[i] {
			t.Errorf("tile %d = %s, want %s", i, ts[i], want[i])
		}
	}
	if got := FormatTiles(ts); got != "123m0p55z1f9j0z" {
		t.Errorf("FormatTiles = %q", got)
	}
	if RedPin5.Kind() != Pin1+4 || !RedPin5.IsRed() || !RedPin5.IsSimple() {
		t.Error("a red five must count as a plain five")
	}
}

func TestParseTilesErrorsNamePosition(t *testing.T) {
	cases := []struct {
		in   string
		pos  int
		frag string
	}{
		{"123", 4, "no suit letter"},
		{"12x3m", 3, "unexpected 'x'"},
		{"m123", 1, "no digits before"},
		{"89z", 3, "honors are 1z–7z"},
		{"9f", 2, "flowers and seasons are 1f–8f"},
	}
	for _, c := range cases {
		_, err := ParseTiles(c.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a SyntaxError", c.in, err)
			continue
		}
		if se.Pos+1 != c.pos || !strings.Contains(se.Error(), c.frag) {
			t.Errorf("%q: %v (pos %d), want position %d and %q", c.in, se, se.Pos+1, c.pos, c.frag)
		}
	}
	if _, err := ParseTiles(strings.Repeat("1m", 200)); err == nil {
		t.Error("a 400-character tile string must be refused")
	}
}

func TestParseMPSZMelds(t *testing.T) {
	concealed, melds, err := ParseMPSZ("m123p456s789z11,m1-23,z666=,p5555,s555=5,m7777+")
	if err != nil {
		t.Fatal(err)
	}
	if FormatTiles(concealed) != "123m456p789s11z" {
		t.Errorf("concealed = %s", FormatTiles(concealed))
	}
	want := []struct {
		typ  MeldType
		from From
		text string
	}{
		{Chi, FromLeft, "1-23m"}, {Pon, FromAcross, "666=z"}, {Ankan, FromNone, "5555p"},
		{Kakan, FromAcross, "555=5s"}, {Minkan, FromRight, "7777+m"},
	}
	if len(melds) != len(want) {
		t.Fatalf("got %d melds, want %d", len(melds), len(want))
	}
	for i, w := range want {
		m := melds[i]
		if m.Type != w.typ || m.From != w.from || m.MPSZ() != w.text {
			t.Errorf("meld %d = %s from %s (%s), want %s from %s (%s)", i, m.Type, m.From, m.MPSZ(), w.typ, w.from, w.text)
		}
	}
	// Suit letters after the digits read the same.
	c2, m2, err := ParseMPSZ("123m456p789s11z,1-23m,666=z,5555p,555=5s,7777+m")
	if err != nil || FormatMPSZ(c2, m2) != FormatMPSZ(concealed, melds) {
		t.Errorf("letter-last form: %v %s", err, FormatMPSZ(c2, m2))
	}
	for _, bad := range []string{"123m,", "123m,m12", "123m,m1-2-3", "123m,m123", "123m,-123m", "123m,m12345"} {
		if _, _, err := ParseMPSZ(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func FuzzParseTiles(f *testing.F) {
	for _, s := range []string{"123m0p55z", "19m19p19s1234567z", "0z9j8k", "", "m", "99999999m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := ParseTiles(s)
		if err != nil {
			return
		}
		for _, x := range ts {
			if !x.Valid() {
				t.Fatalf("%q gave invalid tile %d", s, x)
			}
		}
		// What parses prints back to something that parses the same.
		again, err := ParseTiles(FormatTiles(ts))
		if err != nil || FormatTiles(again) != FormatTiles(ts) {
			t.Fatalf("round trip of %q: %v", s, err)
		}
	})
}

func FuzzParseMPSZ(f *testing.F) {
	for _, s := range []string{"m123p456s789z11,m1-23,z666=,p5555", "123m,555=5s", "z1234567", ",,", "m1-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, melds, err := ParseMPSZ(s)
		if err != nil {
			return
		}
		c2, m2, err := ParseMPSZ(FormatMPSZ(c, melds))
		if err != nil {
			t.Fatalf("%q printed as %q does not parse: %v", s, FormatMPSZ(c, melds), err)
		}
		if FormatMPSZ(c2, m2) != FormatMPSZ(c, melds) {
			t.Fatalf("round trip of %q: %q then %q", s, FormatMPSZ(c, melds), FormatMPSZ(c2, m2))
		}
	})
}
