package classical_test

import (
	"fmt"
	"strings"
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/classical"
)

// hand is a compact request: tiles, winning tile, seat and round, and
// flags written as words ("tsumo", "rinshan", "pon:999m", "ankan:2222m",
// "flowers:12f", "preset:old-chinese", "opt:limits=false").
func hand(tiles, win, seat, round string, flags ...string) *scoring.Request {
	r := &scoring.Request{ID: "t", Rules: "classical", Hand: tiles, WinTile: win, SeatWind: seat, RoundWind: round, Options: map[string]any{}}
	for _, f := range flags {
		k, v, _ := strings.Cut(f, ":")
		switch k {
		case "tsumo":
			r.Tsumo = true
		case "rinshan":
			r.Rinshan = true
		case "double_kong":
			r.DoubleKong = true
		case "chankan":
			r.Chankan = true
		case "haitei":
			r.Haitei = true
		case "tenhou":
			r.Tenhou = true
		case "chiihou":
			r.Chiihou = true
		case "flowers":
			r.Flowers = v
		case "preset":
			r.Preset = v
		case "opt":
			name, val, _ := strings.Cut(v, "=")
			switch val {
			case "true":
				r.Options[name] = true
			case "false":
				r.Options[name] = false
			default:
				var n float64
				fmt.Sscan(val, &n)
				r.Options[name] = n
			}
		case "pon", "chi", "minkan", "ankan", "kakan":
			from := "left"
			if k == "ankan" {
				from = ""
			}
			r.Melds = append(r.Melds, scoring.MeldSpec{Type: k, Tiles: v, From: from})
		default:
			panic("unknown flag " + f)
		}
	}
	return r
}

type want struct {
	base, doubles, score, total int
	items                       []string // "reason=points" or "reason×doubles", reason may be a prefix
	limit                       string   // a limit hand that must be listed
}

func check(t *testing.T, name string, r *scoring.Request, w want) *classical.Breakdown {
	t.Helper()
	res := classical.Classical.Score(r)
	if !res.OK {
		t.Fatalf("%s: %s: want a win, got %v", name, r.Hand, res.Error)
	}
	b := res.Breakdown.(*classical.Breakdown)
	if (w.base != 0 && b.Base != w.base) || b.DoublesTotal != w.doubles || res.Score != w.score || (w.total != 0 && res.Points.Total != w.total) {
		t.Fatalf("%s: want base %d doubles %d score %d total %d, got base %d doubles %d score %d total %d\n%s\nitems %+v\ndoubles %+v",
			name, w.base, w.doubles, w.score, w.total, b.Base, b.DoublesTotal, res.Score, res.Points.Total, b.Arrangement, b.Items, b.Doubles)
	}
	for _, it := range w.items {
		if !hasItem(b, it) {
			t.Fatalf("%s: want item %q in %+v %+v", name, it, b.Items, b.Doubles)
		}
	}
	if w.limit != "" && !contains(b.LimitHands, w.limit) {
		t.Fatalf("%s: want limit hand %q, got %v", name, w.limit, b.LimitHands)
	}
	return b
}

func hasItem(b *classical.Breakdown, it string) bool {
	if reason, pts, ok := strings.Cut(it, "="); ok {
		for _, x := range b.Items {
			if strings.HasPrefix(x.Reason, reason) && fmt.Sprint(x.Points) == pts {
				return true
			}
		}
		return false
	}
	reason, n, _ := strings.Cut(it, "×")
	for _, x := range b.Doubles {
		if strings.HasPrefix(x.Reason, reason) && fmt.Sprint(x.Doubles) == n {
			return true
		}
	}
	return false
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func fail(t *testing.T, name string, r *scoring.Request, code, msg string) {
	t.Helper()
	res := classical.Classical.Score(r)
	if res.OK || res.Error.Code != code || !strings.Contains(res.Error.Message, msg) {
		t.Fatalf("%s: want %s containing %q, got ok=%v %v", name, code, msg, res.OK, res.Error)
	}
}

// TestSetPoints covers the pung and kong table: exposed/concealed ×
// simples/orphans × pung/kong (seed 000).
func TestSetPoints(t *testing.T) {
	// Every set is in one hand: exposed pung of simples 2, exposed pung of
	// orphans 4, exposed kong of simples 8, concealed kong of orphans 32,
	// with a self-drawn concealed pung of simples 4 and of orphans 8 in
	// the next hand, and an exposed kong of orphans 16, a concealed kong of
	// simples 16 in the third.
	check(t, "exposed sets", hand("66p999s", "9s", "S", "E", "tsumo", "pon:222m", "pon:999p", "minkan:5555s"),
		want{base: 2 + 4 + 8 + 8 + 20 + 2 + 10, score: 54,
			items: []string{"exposed pung of simples=2", "exposed pung of orphans=4", "exposed kong of simples=8", "concealed pung of orphans=8", "four pungs=10"}})
	check(t, "concealed sets", hand("222m999p234s66p", "6p", "S", "E", "tsumo", "ankan:1111s"),
		want{base: 4 + 8 + 32 + 20 + 2 + 2, score: 68,
			items: []string{"concealed pung of simples=4", "concealed pung of orphans=8", "concealed kong of orphans=32", "only one possible tile=2"}})
	check(t, "kongs", hand("123m567p66s", "6s", "S", "E", "tsumo", "minkan:9999m", "ankan:4444p"),
		want{base: 16 + 16 + 20 + 2 + 2, score: 56, items: []string{"exposed kong of orphans=16", "concealed kong of simples=16"}})
	// A pung completed by a claimed discard counts as exposed.
	check(t, "discard pung", hand("222m333p444s666s77z", "6s", "S", "E"),
		want{base: 4 + 4 + 4 + 2 + 10 + 20 + 2, score: 46, total: 184, items: []string{"exposed pung of simples=2", "pair of dragons=2"}})
	// Four alike in the hand, not declared, count as a pung.
	check(t, "undeclared kong", hand("1111m23m456p789s55z", "5z", "S", "E", "tsumo"),
		want{base: 8 + 2 + 20 + 2 + 2, score: 34, items: []string{"concealed pung of orphans=8"}})
}

// TestWinnerItems covers the winner's extra points.
func TestWinnerItems(t *testing.T) {
	// Four chows, a worthless pair, no bonus tiles; self-drawn; single wait.
	check(t, "chicken", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo"),
		want{base: 34, score: 34, total: 136, items: []string{"going out=20", "self-drawn win=2", "only one possible tile=2", "four chows=10"}})
	// A bonus tile spoils the +10.
	check(t, "chicken with flower", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:3f"),
		want{base: 28, score: 28, items: []string{"bonus tile=4"}})
	check(t, "seat wind pair", hand("123m456p789s234s22z", "2z", "S", "E", "tsumo"),
		want{base: 26, score: 26, items: []string{"pair of the seat wind=2"}})
	check(t, "round wind pair", hand("123m456p789s234s11z", "1z", "S", "E", "tsumo"),
		want{base: 26, score: 26, items: []string{"pair of the round wind=2"}})
	check(t, "double wind pair", hand("123m456p789s234s11z", "1z", "E", "E", "tsumo"),
		want{base: 28, score: 28, total: 168, items: []string{"pair of the seat wind that is also the round wind=4"}})
	check(t, "dragon pair", hand("123m456p789s234s77z", "7z", "S", "E", "tsumo"),
		want{base: 26, score: 26, items: []string{"pair of dragons=2"}})
	// No round wind given: the East pair is worthless (seed 000: some
	// versions had no round wind).
	if b := check(t, "no round wind", hand("123m456p789s234s11z", "1z", "S", "", "tsumo"),
		want{base: 34, score: 34, items: []string{"four chows=10"}}); b.Rules.RoundWind {
		t.Fatal("no round_wind given: the round wind is not played")
	}
	// Two tiles complete the hand: no "only one possible tile".
	check(t, "two-sided", hand("123m456p789s234s55m", "4s", "S", "E", "tsumo"),
		want{base: 32, score: 32})
	check(t, "replacement", hand("456p789s234s55m", "5m", "S", "E", "tsumo", "rinshan", "ankan:2222m"),
		want{base: 16 + 20 + 2 + 2 + 10, score: 50, total: 200, items: []string{"won on a kong replacement tile=10"}})
	check(t, "four pungs", hand("222m333p444s666s77z", "6s", "S", "E"),
		want{base: 46, score: 46, items: []string{"four pungs or kongs and a pair=10"}})
}

// TestDoubles covers every double.
func TestDoubles(t *testing.T) {
	check(t, "seat and round wind pungs", hand("123m456p111z222z55s", "5s", "S", "E", "tsumo"),
		want{base: 40, doubles: 2, score: 160, total: 640, items: []string{"pung or kong of the seat wind×1", "pung or kong of the round wind×1"}})
	check(t, "double wind pung", hand("123m456p111z789s55s", "5s", "E", "E", "tsumo"),
		want{base: 32, doubles: 2, score: 128, total: 768})
	check(t, "dragon pungs", hand("123m555z666z456p99s", "9s", "S", "E", "tsumo"),
		want{base: 40, doubles: 2, score: 160, items: []string{"pung or kong of dragons×1"}})
	check(t, "own flower", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:2f"),
		want{base: 28, doubles: 1, score: 56, items: []string{"own bonus tile×1", "bonus tile=4"}})
	check(t, "own season", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:6f"),
		want{base: 28, doubles: 1, score: 56, items: []string{"own bonus tile×1"}})
	check(t, "other flower", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:1f"),
		want{base: 28, doubles: 0, score: 28})
	check(t, "all seasons", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:5678f"),
		want{base: 40, doubles: 3, score: 320, items: []string{"all four seasons×3"}})
	check(t, "all flowers and seasons", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:12345678f"),
		want{base: 56, doubles: 6, score: 500, items: []string{"all four flowers×3", "all four seasons×3"}})
	check(t, "half flush", hand("123m777m111z333z55m", "5m", "S", "E", "tsumo"),
		want{base: 4 + 8 + 8 + 20 + 2, doubles: 2, score: 168, items: []string{"half flush×1", "pung or kong of the round wind×1"}})
	check(t, "full flush", hand("123m456m777m999m55m", "5m", "S", "E", "tsumo"),
		want{base: 4 + 8 + 20 + 2, doubles: 3, score: 272, items: []string{"full flush×3"}})
	check(t, "gift of earth", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "chiihou"),
		want{base: 34, doubles: 3, score: 272, items: []string{"Gift of Earth×3"}})
}

// TestLimitHands covers every limit hand of seed 000's list.
func TestLimitHands(t *testing.T) {
	cases := []struct {
		name string
		r    *scoring.Request
	}{
		{"Self-Drawn Four Concealed Pungs", hand("222m333p444s666s77z", "6s", "S", "E", "tsumo")},
		{"All Honours", hand("111z222z333z555z77z", "7z", "S", "E", "tsumo")},
		{"All Terminals", hand("111m999m111p999p11s", "9p", "S", "E")},
		{"Perfect Green", hand("234s234s666s888s66z", "8s", "S", "E")},
		{"Big Three Dragons", hand("555z666z777z123m99p", "9p", "S", "E", "tsumo")},
		{"Big Four Winds", hand("111z222z333z444z55m", "5m", "S", "E", "tsumo")},
		{"Nine Gates", hand("11123455678999m", "5m", "S", "E")}, // on a discard, completing a chow: allowed
		{"Thirteen Orphans", hand("19m19p19s12345677z", "3z", "S", "E")},
		{"Four Kongs", hand("66z", "6z", "S", "E", "tsumo", "ankan:2222m", "minkan:3333p", "minkan:4444s", "ankan:5555s")},
		{"Gift of Heaven", hand("123m456p789s234s55m", "5m", "E", "E", "tsumo", "tenhou")},
		{"Win on the Dealer's First Discard", hand("123m456p789s55m222s", "2s", "S", "E", "chiihou")},
		{"Last Tile 1-Dots", hand("123m456m789s234s11p", "1p", "S", "E", "tsumo", "haitei")},
		{"Replacement Tile 5-Dots", hand("123m456p789s55m", "5p", "S", "E", "tsumo", "rinshan", "ankan:2222s")},
		{"Robbing a Kong 2-Bamboo", hand("123m456m789p123s99p", "2s", "S", "E", "chankan")},
		{"Kong on Kong", hand("123m456p789s55m", "5m", "S", "E", "tsumo", "rinshan", "double_kong", "ankan:2222s")},
	}
	for _, c := range cases {
		check(t, c.name, c.r, wantLimit(t, c.r, c.name))
	}
}

// wantLimit reads the doubles of a limit hand (not what this test is
// about) and asks for the limit: score 500, the named limit hand.
func wantLimit(t *testing.T, r *scoring.Request, name string) want {
	res := classical.Classical.Score(r)
	if !res.OK {
		t.Fatalf("%s: %v", name, res.Error)
	}
	b := res.Breakdown.(*classical.Breakdown)
	mult := 4
	if r.SeatWind == "E" {
		mult = 6
	}
	return want{doubles: b.DoublesTotal, score: 500, total: 500 * mult, limit: name}
}

// TestLimit: 500 by default; seed 001's 1000 (tournaments) and 2000
// (England); no limit when limits are off.
func TestLimit(t *testing.T) {
	// Three concealed kongs (two of dragons), an exposed pung of nines, a
	// dragon pair: base 132, 3 doubles = 1056.
	r := func(flags ...string) *scoring.Request {
		return hand("99m77z9m", "9m", "S", "E", append([]string{"ankan:5555z", "ankan:6666z", "ankan:1111m"}, flags...)...)
	}
	check(t, "default 500", r(), want{base: 132, doubles: 3, score: 500, total: 2000})
	check(t, "tournament 1000", r("preset:old-chinese-tournament"), want{base: 132, doubles: 3, score: 1000})
	check(t, "England 2000", r("preset:old-chinese"), want{base: 132, doubles: 3, score: 1056})
	check(t, "limit_value", r("opt:limit_value=700"), want{base: 132, doubles: 3, score: 700})
	check(t, "no limits", r("opt:limits=false"), want{base: 132, doubles: 3, score: 1056})
	// Without limits a limit hand scores its points and doubles.
	check(t, "no limits, big three dragons", hand("555z666z777z123m99p", "9p", "S", "E", "tsumo", "opt:limits=false"),
		want{base: 8*3 + 20 + 2 + 2, doubles: 3, score: 48 * 8})
}

// TestDiscardRule: seed 000 lets a discard win only by completing a pung;
// robbing a kong, Nine Gates and Thirteen Orphans are exempt; seed 001
// lets any discard win.
func TestDiscardRule(t *testing.T) {
	fail(t, "chow on a discard", hand("123m456p789s234s55m", "4s", "S", "E"), scoring.CodeNotAWin, "completes a pung")
	fail(t, "pair on a discard", hand("123m456p789s234s55m", "5m", "S", "E"), scoring.CodeNotAWin, "completes a pung")
	check(t, "option off", hand("123m456p789s234s55m", "4s", "S", "E", "opt:discard_win_pung_only=false"), want{base: 30, score: 30})
	check(t, "old chinese", hand("123m456p789s234s55m", "4s", "S", "E", "preset:old-chinese"), want{base: 30, score: 30})
	check(t, "robbing a kong", hand("123m456m789p234s99p", "4s", "S", "E", "chankan"), want{base: 30, score: 30})
	// Seed 001: a concealed kong may be robbed only for Thirteen Orphans.
	fail(t, "robbing a concealed kong", hand("123m456m789p234s99p", "4s", "S", "E", "chankan", "preset:old-chinese", "opt:robbed_kong_concealed=true"),
		scoring.CodeNotAWin, "Thirteen Orphans")
	check(t, "robbing a concealed kong for Thirteen Orphans", hand("19m19p19s12345677z", "3z", "S", "E", "chankan", "preset:old-chinese", "opt:robbed_kong_concealed=true"),
		want{score: 2000, total: 8000, limit: "Thirteen Orphans"})
	check(t, "robbing an exposed kong, seed 001", hand("123m456m789p234s99p", "4s", "S", "E", "chankan", "preset:old-chinese"), want{base: 30, score: 30})
	// A hand that reads both ways wins through the pung reading.
	check(t, "pung reading", hand("111222333m456p77z", "3m", "S", "E"), want{base: 8 + 4 + 2 + 2 + 20, score: 36})
}

// TestSettlement: every hand is scored; losers pay the winner, then each
// loser is paid his own score by the other two; East pays and receives
// double (seed 000).
func TestSettlement(t *testing.T) {
	r := hand("123m456p789s234s55m", "5m", "S", "E", "tsumo")
	r.Extra = &scoring.RequestExt{Players: []scoring.Request{
		{Hand: "111z234m567s99s12s", SeatWind: "E"}, // 111z: 8, seat+round: ×4 = 32
		{Hand: "555p666p777p1234m", SeatWind: "W"},  // three pungs 12
		{Hand: "12345678m19s", SeatWind: "N", Flowers: "4f", Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "555z", From: "left"}}}, // (4+4)×4 = 32
	}}
	res := classical.Classical.Score(r)
	if !res.OK {
		t.Fatal(res.Error)
	}
	b := res.Breakdown.(*classical.Breakdown)
	if res.Score != 34 || res.Points.Total != 136 {
		t.Fatalf("winner: score %d total %d", res.Score, res.Points.Total)
	}
	scores := map[string]int{}
	for _, l := range b.Losers {
		scores[l.Seat] = l.Score
	}
	if scores["E"] != 32 || scores["W"] != 12 || scores["N"] != 32 {
		t.Fatalf("loser scores %v", scores)
	}
	want := map[string]int{"S": 136, "E": -28, "W": -94, "N": -14}
	for k, v := range want {
		if b.Net[k] != v {
			t.Fatalf("net %v, want %v", b.Net, want)
		}
	}
	// Seats must differ; tiles may not exceed four at the table.
	r.Extra.Players[1].SeatWind = "S"
	fail(t, "seat taken", r, scoring.CodeBadRequest, "seat S is taken")
	r.Extra.Players[1].SeatWind = "W"
	r.Extra.Players[1].Hand = "555p666p777p5555m"
	fail(t, "table copies", r, scoring.CodeTooManyCopies, "")
}

// TestErrors: bad input gets a CONTRACT code and a message.
func TestErrors(t *testing.T) {
	fail(t, "short", hand("123m456p789s55m", "5m", "S", "E", "tsumo"), scoring.CodeWrongTileCount, "11 tiles")
	fail(t, "copies", hand("11111m456p789s234s", "4s", "S", "E", "tsumo"), scoring.CodeTooManyCopies, "5 copies of 1m")
	fail(t, "joker", hand("123m456p789s234s5m1j", "5m", "S", "E", "tsumo"), scoring.CodeBadRequest, "joker")
	fail(t, "kings", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:1k"), scoring.CodeBadRequest, "kings and queens")
	fail(t, "no flowers in old chinese", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:1f", "preset:old-chinese"), scoring.CodeBadRequest, "not used")
	fail(t, "flower twice", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "flowers:1f1f"), scoring.CodeTooManyCopies, "")
	fail(t, "not a win", hand("123m456p789s235s55m", "5m", "S", "E", "tsumo"), scoring.CodeNotAWin, "")
	fail(t, "seven pairs", hand("1122m3344p5566s77z", "7z", "S", "E", "tsumo"), scoring.CodeNotAWin, "")
	fail(t, "chankan tsumo", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "chankan"), scoring.CodeBadRequest, "")
	fail(t, "tenhou not dealer", hand("123m456p789s234s55m", "5m", "S", "E", "tsumo", "tenhou"), scoring.CodeBadRequest, "")
	fail(t, "preset", hand("123m456p789s234s55m", "5m", "S", "E", "preset:nope"), scoring.CodeBadRequest, "unknown classical preset")
	fail(t, "limit", hand("123m456p789s234s55m", "5m", "S", "E", "opt:limit_value=0"), scoring.CodeBadRequest, "limit_value")
}

// TestDealer: East receives double from each loser (6 × score in all); under
// seed 001 East keeps the deal after winning, under seed 000 winds rotate.
func TestDealer(t *testing.T) {
	r := hand("123m456p789s234s55m", "5m", "E", "E", "tsumo")
	b := check(t, "East wins", r, want{base: 34, score: 34, total: 204})
	if b.NextDealer != "the deal passes to South (winds rotate)" {
		t.Fatalf("seed 000: %s", b.NextDealer)
	}
	r.Preset = "old-chinese"
	if b := check(t, "East wins, seed 001", r, want{base: 34, score: 34, total: 204}); b.NextDealer != "East keeps the deal" {
		t.Fatalf("seed 001: %s", b.NextDealer)
	}
}
