package scoring

import (
	"testing"
)

func counts(t *testing.T, s string) Counts {
	t.Helper()
	ts, err := ParseTiles(s)
	if err != nil {
		t.Fatal(err)
	}
	return CountOf(ts)
}

func TestDivisionsFindsEveryReading(t *testing.T) {
	c := counts(t, "111222333m789p55s")
	n := 0
	Divisions(&c, func(d *Division) { n++ })
	if n != 2 { // three pungs, or three 123m chows
		t.Fatalf("got %d divisions, want 2", n)
	}
	if c != counts(t, "111222333m789p55s") {
		t.Fatal("Divisions must leave the counts as they were")
	}
}

func TestWaitsAndShapes(t *testing.T) {
	cases := []struct{ hand, waits string }{
		{"1112345678999m", "123456789m"}, // nine gates
		{"19m19p19s1234567z", "19m19p19s1234567z"},
		{"113355m77p99s112z", "2z"},
		{"23456m11p123456s", "147m"},
		{"11m", ""},
	}
	for _, c := range cases {
		cnt := counts(t, c.hand)
		if got := FormatTiles(Waits(&cnt)); got != c.waits {
			t.Errorf("Waits(%s) = %q, want %q", c.hand, got, c.waits)
		}
	}
	chow := Set{Kind: Chow, Tile: 0} // 123m
	for win, want := range map[Tile]WaitShape{0: Ryanmen, 1: Kanchan, 2: Penchan} {
		if got := ChowWait(chow, win); got != want {
			t.Errorf("123m completed by %s: %s, want %s", win, got, want)
		}
	}
	if got := ChowWait(Set{Kind: Chow, Tile: 6}, 6); got != Penchan { // 789m by 7m
		t.Errorf("789m by 7m = %s, want edge", got)
	}
}

func TestShanten(t *testing.T) {
	cases := []struct {
		hand string
		want int
	}{
		{"123456789m12p11s", 0},
		{"123456789m1p11s5z", 1},
		{"19m19p19s1234567z", 0},
		{"1133557799m1133p", -1},
		{"147m258p369s1234z", 6},
		{"113355m77p99s112z", 0},
	}
	for _, c := range cases {
		cnt := counts(t, c.hand)
		if got := Shanten(&cnt, 0); got != c.want {
			t.Errorf("Shanten(%s) = %d, want %d", c.hand, got, c.want)
		}
	}
	cnt := counts(t, "123456789m1p11s5z") // improve: 1p's neighbours and pairs
	imp := FormatTiles(Improvements(&cnt, 0))
	if imp == "" {
		t.Error("a one-shanten hand has improving tiles")
	}
}

func TestSevenPairsAndOrphans(t *testing.T) {
	four := counts(t, "1111m3355p7799s22z")
	if IsSevenPairs(&four, false) || !IsSevenPairs(&four, true) {
		t.Error("four of a kind is two pairs only where allowed")
	}
	ko := counts(t, "19m19p19s12345677z")
	if !IsThirteenOrphans(&ko) {
		t.Error("thirteen orphans not found")
	}
}

func BenchmarkDivisions(b *testing.B) {
	ts, _ := ParseTiles("11122233344455m")
	c := CountOf(ts)
	for i := 0; i < b.N; i++ {
		Divisions(&c, func(d *Division) {})
	}
}

func TestWaitShapes(t *testing.T) {
	c := counts(t, "2344m")
	got := map[string][]WaitShape{}
	for _, w := range WaitShapes(&c) {
		got[w.Tile.String()] = w.Shapes
	}
	// 2344m: 1m makes 123m+44m; 4m makes 234m+44m read as the 44 pair
	// completed (single) or 23m completed (two-sided).
	want := map[string][]WaitShape{"1m": {Ryanmen}, "4m": {Tanki, Ryanmen}}
	if len(got) != len(want) {
		t.Fatalf("WaitShapes(2344m) = %v, want %v", got, want)
	}
	for tile, shapes := range want {
		if len(got[tile]) != len(shapes) {
			t.Errorf("%s: %v, want %v", tile, got[tile], shapes)
			continue
		}
		for _, s := range shapes {
			found := false
			for _, g := range got[tile] {
				found = found || g == s
			}
			if !found {
				t.Errorf("%s: %v lacks %s", tile, got[tile], s)
			}
		}
	}
	e := counts(t, "12m")
	if w := WaitShapes(&e); len(w) != 0 {
		t.Errorf("12m alone (no pair) waits on nothing, got %v", w)
	}
	p := counts(t, "12m55p")
	if w := WaitShapes(&p); len(w) != 1 || w[0].Tile != 2 || w[0].Shapes[0] != Penchan {
		t.Errorf("12m55p: %v, want 3m edge", w)
	}
}
