package mcr

import (
	"fmt"
	"sort"
	"testing"
	"unicode/utf8"

	"mjscan/scoring"
)

// The examples of the helper's own documentation (its README).
func TestParseMCRExamples(t *testing.T) {
	cases := []struct {
		in     string
		melds  []string // type/from, in order
		tiles  string   // CONTRACT codes of the concealed tiles, as written
		called string   // the chow's called tile, when one is given
	}{
		{"[EEEE][CCCC][FFFF][PPPP]NN", []string{"ankan/", "ankan/", "ankan/", "ankan/"}, "44z", ""},
		{"1112345678999s9s", nil, "11123456789999s", ""},
		{"[WWWW,1][444s]45m678pFF6m", []string{"minkan/left", "pon/left"}, "45m678p66z6m", ""},
		{"[EEEE]288s349pSCFF2p", []string{"ankan/"}, "288s349p2766z2p", ""},
		{"[123p,1][345s,2][999s,3]6m6pEW1m", []string{"chi/left", "chi/left", "pon/right"}, "6m6p13z1m", ""},
		{"356m18s1579pWNFF9p", nil, "356m18s1579p3466z9p", ""},
		{"[567m,2][1111s,6]567z", []string{"chi/left", "kakan/across"}, "765z", "6m"},
		{"[999s3] 123m", []string{"pon/right"}, "123m", ""},
	}
	for _, c := range cases {
		h, err := ParseMCR(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if len(h.Melds) != len(c.melds) {
			t.Errorf("%s: %d melds, want %d", c.in, len(h.Melds), len(c.melds))
			continue
		}
		for i, m := range h.Melds {
			if got := m.Type.String() + "/" + m.From.String(); got != c.melds[i] {
				t.Errorf("%s: meld %d is %s, want %s", c.in, i, got, c.melds[i])
			}
			if m.Type == scoring.Chi && c.called != "" && m.Called.String() != c.called {
				t.Errorf("%s: chow called %s, want %s", c.in, m.Called, c.called)
			}
		}
		want, _ := scoring.ParseTiles(c.tiles)
		if scoring.FormatTiles(h.Tiles) != scoring.FormatTiles(want) {
			t.Errorf("%s: tiles %s, want %s", c.in, scoring.FormatTiles(h.Tiles), scoring.FormatTiles(want))
		}
	}
}

func TestParseMCRErrors(t *testing.T) {
	for _, in := range []string{
		"[123m", "123m]", "12", "123x", "[1234m]", "[EEE,4]", "[124m]", "0m", "1E", "[[EEE]]",
		"[EEE][SSS][WWW][NNN][CCC]", "m", "8z", "[123m,]", "[123m,1,2]", "[123m,9]", "[EEE,11]",
	} {
		if _, err := ParseMCR(in); err == nil {
			t.Errorf("%q: want an error", in)
		} else if _, ok := err.(*scoring.SyntaxError); !ok {
			t.Errorf("%q: error %T, want *scoring.SyntaxError", in, err)
		}
	}
}

// A request in bracket notation scores like the same hand in CONTRACT
// codes (mcr-s3-00001 of the public corpus), and 5z is then the red dragon.
func TestMCRNotationRequest(t *testing.T) {
	contract := req("12356777p", "6p", "pon:777z", "chi:234p")
	contract.Flowers = "2f"
	want := MCR.Score(contract)

	r := &scoring.Request{Rules: "mcr", Notation: "mcr", Hand: "[CCC][234p]1235777p6p", Flowers: "2f"}
	got := MCR.Score(r)
	if got.Fan != 10 || got.Fan != want.Fan || fanMultiset(got.Fans) != fanMultiset(want.Fans) {
		t.Errorf("bracket notation: got %d %s, want %d %s (%v)", got.Fan, fanMultiset(got.Fans), want.Fan, fanMultiset(want.Fans), got.Error)
	}
	// Melds given separately, honors with the z suffix in Chinese order.
	r2 := &scoring.Request{Rules: "mcr", Notation: "mcr", Hand: "12356777p", WinTile: "6p", Flowers: "2f",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "555z", From: "left"}, {Type: "chi", Tiles: "234p", From: "left"}}}
	if got := MCR.Score(r2); got.Fan != want.Fan || fanMultiset(got.Fans) != fanMultiset(want.Fans) {
		t.Errorf("separate melds: got %d %s, want %d %s (%v)", got.Fan, fanMultiset(got.Fans), want.Fan, fanMultiset(want.Fans), got.Error)
	}
	if b := got.Breakdown.(*Breakdown); b.Notation != "[CCC][234p]1235777p6p" {
		t.Errorf("bracket notation out: %q", b.Notation)
	}
	bad := &scoring.Request{Rules: "mcr", Notation: "mcr", Hand: "[CCC][234p]1235777p6x"}
	if res := MCR.Score(bad); res.Error == nil || res.Error.Code != scoring.CodeBadRequest {
		t.Errorf("bad bracket notation: %+v", res.Error)
	}
}

func sameHand(a, b MCRHand) bool {
	if len(a.Melds) != len(b.Melds) || scoring.FormatTiles(a.Tiles) == "" != (scoring.FormatTiles(b.Tiles) == "") {
		return false
	}
	for i := range a.Melds {
		x, y := a.Melds[i], b.Melds[i]
		if x.Type != y.Type || x.From != y.From || x.Called != y.Called || scoring.FormatTiles(x.Tiles) != scoring.FormatTiles(y.Tiles) {
			return false
		}
	}
	if len(a.Tiles) != len(b.Tiles) {
		return false
	}
	if len(a.Tiles) > 0 && a.Tiles[len(a.Tiles)-1] != b.Tiles[len(b.Tiles)-1] {
		return false
	}
	return scoring.CountOf(a.Tiles) == scoring.CountOf(b.Tiles)
}

// FuzzParseMCR: the bracket parser never panics, accepts only what it can
// write back, and a request in that notation is scored or refused cleanly.
func FuzzParseMCR(f *testing.F) {
	for _, s := range []string{
		"[EEEE][CCCC][FFFF][PPPP]NN", "1112345678999s9s", "[WWWW,1][444s]45m678pFF6m",
		"[EEEE]288s349pSCFF2p", "[123p,1][345s,2][999s,3]6m6pEW1m", "356m18s1579pWNFF9p",
		"[567m,2][1111s,6]567z", "[999s3]123m", "[123m", "0m", "[EEE,4]", "11223344556677m",
	} {
		f.Add(s)
	}
	eng := MCR
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseMCR(s)
		if err != nil {
			if len(err.Error()) == 0 || !utf8.ValidString(err.Error()) && utf8.ValidString(s) {
				t.Fatalf("%q: empty or broken error message", s)
			}
			return
		}
		out := FormatMCR(h)
		h2, err := ParseMCR(out)
		if err != nil {
			t.Fatalf("%q wrote %q, which does not parse: %v", s, out, err)
		}
		if !sameHand(h, h2) {
			t.Fatalf("%q → %q reads back differently: %+v vs %+v", s, out, h, h2)
		}
		res := eng.Score(&scoring.Request{Rules: "mcr", Notation: "mcr", Hand: s})
		if !res.OK && res.Error == nil {
			t.Fatalf("%q: failed without an error", s)
		}
	})
}

// fanMultiset writes fans as a sorted "id×count" list for comparing.
func fanMultiset(fs []scoring.Fan) string {
	s := make([]string, 0, len(fs))
	for _, f := range fs {
		s = append(s, fmt.Sprintf("%d×%d", f.ID, f.Count))
	}
	sort.Strings(s)
	return fmt.Sprint(s)
}
