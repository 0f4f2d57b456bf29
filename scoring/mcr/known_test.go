package mcr

import (
	"encoding/json"
	"testing"

	"mjscan/scoring"
)

// req builds a discard-won request in CONTRACT codes; melds are written
// "type:tiles" (from the left).
func req(hand, win string, melds ...string) *scoring.Request {
	r := &scoring.Request{Rules: "mcr", Hand: hand, WinTile: win, SeatWind: "E", RoundWind: "E"}
	for _, m := range melds {
		for i := 0; i < len(m); i++ {
			if m[i] == ':' {
				ms := scoring.MeldSpec{Type: m[:i], Tiles: m[i+1:], From: "left"}
				if ms.Type == "ankan" {
					ms.From = ""
				}
				r.Melds = append(r.Melds, ms)
			}
		}
	}
	return r
}

func fansOf(res *scoring.Result) map[Fan]int {
	out := map[Fan]int{}
	for _, f := range res.Fans {
		out[Fan(f.ID)] = f.Count
	}
	return out
}

func checkFans(t *testing.T, name string, r *scoring.Request, wantFan int, want map[Fan]int) scoring.Result {
	t.Helper()
	res := MCR.Score(r)
	got := fansOf(&res)
	same := len(got) == len(want)
	for f, n := range want {
		same = same && got[f] == n
	}
	if res.Fan != wantFan || !same {
		t.Errorf("%s: got %d points %v (error %v), want %d points %v", name, res.Fan, got, res.Error, wantFan, want)
	}
	return res
}

// Hands that exercise one rule each; the values follow seed 003's fan
// table and scoring principles.
func TestKnownHands(t *testing.T) {
	tsumo := func(r *scoring.Request) *scoring.Request { r.Tsumo = true; return r }

	// Seven Pairs may hold four alike as two pairs, and then Tile Hog counts.
	checkFans(t, "seven pairs with four alike", req("1111m2233p4455s66z", "6z"), 26,
		map[Fan]int{SevenPairs: 1, TileHog: 1})
	checkFans(t, "greater honors and knitted tiles", req("147m25p36s1234567z", "7z"), 24,
		map[Fan]int{GreaterHonorsAndKnittedTiles: 1})
	checkFans(t, "lesser honors with a knitted straight", tsumo(req("147m258p369s12345z", "5z")), 25,
		map[Fan]int{LesserHonorsAndKnittedTiles: 1, KnittedStraight: 1, SelfDrawn: 1})
	checkFans(t, "thirteen orphans", req("19m19p19s12344567z", "4z"), 88,
		map[Fan]int{ThirteenOrphans: 1})
	// Knitted straight as three sets of a regular hand, with a melded chow.
	checkFans(t, "knitted straight with a meld", req("258m369p14788s", "7s", "chi:345m"), 14,
		map[Fan]int{KnittedStraight: 1, AllChows: 1})
	// Nine Gates on the 5: the extra tile adds Two Concealed Pungs and a
	// Pung of Terminals (1112345 55 678999 reads 111 55 999 …).
	checkFans(t, "nine gates", req("11123455678999m", "5m"), 91,
		map[Fan]int{NineGates: 1, TwoConcealedPungs: 1, PungOfTerminalsOrHonors: 1})
	checkFans(t, "seven shifted pairs", tsumo(req("11223344556677m", "7m")), 89,
		map[Fan]int{SevenShiftedPairs: 1, SelfDrawn: 1})
	// Account-Once: 234s 567s 234p 567p make three one-point fans, not four.
	checkFans(t, "account once", req("234567s234567p55m", "5m"), 10,
		map[Fan]int{MixedDoubleChow: 2, ShortStraight: 1, AllChows: 1, AllSimples: 1, ConcealedHand: 1, SingleWait: 1})
	// Non-Identical: two 123p and one straight: the straight once, plus a
	// Pure Double Chow.
	checkFans(t, "non-identical", req("123123456789p55s", "5s"), 23,
		map[Fan]int{PureStraight: 1, PureDoubleChow: 1, ConcealedHand: 1, AllChows: 1, OneVoidedSuit: 1, SingleWait: 1})
	// Highest total chosen: 222333444s read as pungs (Four Concealed Pungs,
	// Pure Shifted Pungs) beats three 234s chows.
	checkFans(t, "all green, highest arrangement", tsumo(req("222333444s66688s", "8s")), 203,
		map[Fan]int{AllGreen: 1, FourConcealedPungs: 1, FullFlush: 1, PureShiftedPungs: 1, AllSimples: 1, SelfDrawn: 1})
	checkFans(t, "big four winds, all honors", req("111222333444z55z", "5z"), 217,
		map[Fan]int{BigFourWinds: 1, AllHonors: 1, FourConcealedPungs: 1, SingleWait: 1})
	// All Green keeps its dragon pung; Half Flush is implied.
	checkFans(t, "all green with green dragons", req("22334466888s666z", "6z"), 93,
		map[Fan]int{AllGreen: 1, DragonPung: 1, ConcealedHand: 1, PureDoubleChow: 1})
	// The reference calculator (and so the corpora) gives Melded Hand even
	// with an added kong.
	checkFans(t, "melded hand", req("55m", "5m", "chi:234m", "pon:999p", "kakan:7777s", "chi:678p"), 9,
		map[Fan]int{MeldedHand: 1, PungOfTerminalsOrHonors: 1, MeldedKong: 1, NoHonors: 1})
	strict := req("55m", "5m", "chi:234m", "pon:999p", "kakan:7777s", "chi:678p")
	strict.Options = map[string]any{"melded_hand_added_kong": false}
	checkFans(t, "melded hand refused for an added kong (seed 003)", strict, 4,
		map[Fan]int{PungOfTerminalsOrHonors: 1, MeldedKong: 1, NoHonors: 1, SingleWait: 1})
	// All Terminals: Double Pung is implied by common practice; seed 003's
	// example counts it (option all_terminals_double_pung).
	term := req("111999m111999p99s", "9s")
	checkFans(t, "all terminals", term, 129,
		map[Fan]int{AllTerminals: 1, FourConcealedPungs: 1, SingleWait: 1})
	term.Options = map[string]any{"all_terminals_double_pung": true}
	checkFans(t, "all terminals with double pungs (seed 003's example)", term, 133,
		map[Fan]int{AllTerminals: 1, FourConcealedPungs: 1, DoublePung: 2, SingleWait: 1})
	// Robbing the Kong already says the tile was the last of its kind.
	rob := req("456m11p", "6m", "chi:123s", "chi:789s", "pon:999m")
	rob.Chankan, rob.LastTileOfKind = true, true
	checkFans(t, "robbing the kong", rob, 11,
		map[Fan]int{RobbingTheKong: 1, PungOfTerminalsOrHonors: 1, TwoTerminalChows: 1, NoHonors: 1})
	// Three copies in one's own melds make the winning tile the last one.
	checkFans(t, "last tile by melds", req("123m66p", "3m", "pon:333m", "chi:789s", "chi:456p"), 16,
		map[Fan]int{MixedStraight: 1, LastTile: 1, TileHog: 1, NoHonors: 1, EdgeWait: 1})
	checkFans(t, "chicken hand", req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), 8,
		map[Fan]int{ChickenHand: 1})
	south := req("123m456p77s", "7s", "pon:222z", "chi:789s")
	south.SeatWind, south.RoundWind = "S", "S"
	checkFans(t, "seat and prevalent wind", south, 13,
		map[Fan]int{MixedStraight: 1, PrevalentWind: 1, SeatWind: 1, SingleWait: 1})
}

// Two Concealed Kongs is 8 in the seed's table (default) and 6 in the
// 1998/2006 rule book (preset mcr-2006, or option two_concealed_kongs).
func TestTwoConcealedKongsPresets(t *testing.T) {
	hand := func() *scoring.Request {
		return req("11m", "1m", "ankan:1111z", "ankan:2222z", "chi:234m", "pon:999p")
	}
	want := map[Fan]int{TwoConcealedKongs: 1, PrevalentWind: 1, SeatWind: 1, PungOfTerminalsOrHonors: 2, OneVoidedSuit: 1, SingleWait: 1}
	res := checkFans(t, "default", hand(), 16, want)
	if res.Preset != "default" || res.Fans[0].ID != int(TwoConcealedKongs) || res.Fans[0].Fan != 8 {
		t.Errorf("default preset: %+v", res.Fans)
	}
	old := hand()
	old.Preset = "mcr-2006"
	if res := checkFans(t, "mcr-2006", old, 14, want); res.Fans[0].Fan != 6 {
		t.Errorf("mcr-2006 lists Two Concealed Kongs at %d", res.Fans[0].Fan)
	}
	opt := hand()
	opt.Options = map[string]any{"two_concealed_kongs": 6.0}
	checkFans(t, "option", opt, 14, want)
	bad := hand()
	bad.Options = map[string]any{"two_concealed_kongs": 7.0}
	if res := MCR.Score(bad); res.Error == nil || res.Error.Code != scoring.CodeBadRequest {
		t.Errorf("two_concealed_kongs 7: want bad_request, got %+v", res.Error)
	}
}

func TestErrors(t *testing.T) {
	with := func(r *scoring.Request, f func(r *scoring.Request)) *scoring.Request { f(r); return r }
	cases := []struct {
		name string
		r    *scoring.Request
		code string
	}{
		{"not a win", req("178m11z", "1m", "chi:234m", "chi:567p", "chi:345s"), scoring.CodeNotAWin},
		{"13 tiles", req("78m11z", "8m", "chi:234m", "chi:567p", "chi:345s"), scoring.CodeWrongTileCount},
		{"five alike", req("11123m", "3m", "pon:111m", "chi:234p", "chi:567p"), scoring.CodeTooManyCopies},
		{"below minimum", req("345789m45699s555z", "9s"), scoring.CodeBelowMinimum},
		{"bad tile", req("789m11x", "9m", "chi:234m", "chi:567p", "chi:345s"), scoring.CodeBadRequest},
		{"win tile absent", req("789m11z", "5m", "chi:234m", "chi:567p", "chi:345s"), scoring.CodeBadRequest},
		{"bad chow", req("789m11z", "9m", "chi:235m", "chi:567p", "chi:345s"), scoring.CodeBadRequest},
		{"riichi", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Riichi = true }), scoring.CodeBadRequest},
		{"rinshan without kong", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Rinshan, r.Tsumo = true, true }), scoring.CodeBadRequest},
		{"chankan tsumo", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Chankan, r.Tsumo = true, true }), scoring.CodeBadRequest},
		{"haitei on discard", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Haitei = true }), scoring.CodeBadRequest},
		{"last tile held twice", with(req("789m99p", "9p", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.LastTileOfKind = true }), scoring.CodeBadRequest},
		{"flower twice", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Flowers = "11f" }), scoring.CodeBadRequest},
		{"unknown preset", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Preset = "hk" }), scoring.CodeBadRequest},
		{"unknown notation", with(req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s"), func(r *scoring.Request) { r.Notation = "tenhou" }), scoring.CodeBadRequest},
		{"five melds", req("11m", "1m", "chi:234m", "chi:567p", "chi:345s", "chi:345p", "chi:678p"), scoring.CodeBadRequest},
	}
	for _, c := range cases {
		res := MCR.Score(c.r)
		if res.OK || res.Error == nil || res.Error.Code != c.code || res.Error.Message == "" {
			t.Errorf("%s: want %s, got ok=%v %+v", c.name, c.code, res.OK, res.Error)
		}
	}
	// Below the minimum the fans are still reported.
	res := MCR.Score(req("345789m45699s555z", "9s"))
	if res.Fan != 6 || len(res.Fans) != 4 {
		t.Errorf("below minimum: want 6 points in 4 fans, got %d %v", res.Fan, res.Fans)
	}
	// Flowers count in the total but not toward the minimum.
	fl := req("345789m45699s555z", "9s")
	fl.Flowers = "1f2f5f"
	if res := MCR.Score(fl); res.OK || res.Fan != 9 || res.Error.Code != scoring.CodeBelowMinimum {
		t.Errorf("flowers toward the minimum: got ok=%v fan=%d %v", res.OK, res.Fan, res.Error)
	}
}

func TestPayments(t *testing.T) {
	rules := Presets["default"]
	total, pays := Payments(&rules, 10, true, scoring.WindSouth, "")
	if total != 54 || len(pays) != 3 {
		t.Fatalf("self-draw of 10: want 54 from three payments, got %d %+v", total, pays)
	}
	for _, p := range pays {
		if p.Amount != 18 || p.From == "S" {
			t.Errorf("self-draw payment %+v: each other player pays 8+10", p)
		}
	}
	total, pays = Payments(&rules, 10, false, scoring.WindSouth, "N")
	want := map[string]int{"E": 8, "W": 8, "N": 18}
	if total != 34 || len(pays) != 3 {
		t.Fatalf("discard of 10: want 34, got %d %+v", total, pays)
	}
	for _, p := range pays {
		if want[p.From] != p.Amount {
			t.Errorf("discard payment %+v, want %v", p, want)
		}
	}
	if total, _ := Payments(&rules, 10, false, scoring.WindSouth, ""); total != 34 {
		t.Errorf("discard, discarder unknown: %d", total)
	}
	if total, _ := Payments(&rules, 10, true, scoring.WindSouth, ""); total != 54 {
		t.Errorf("self-drawn 10: want 54, got %d", total)
	}
	// The result carries them: a chicken hand on a discard.
	r := req("789m11z", "9m", "chi:234m", "chi:567p", "chi:345s")
	if res := MCR.Score(r); res.Fan != 8 || res.Points.Total != 8+8+8+8 || len(res.Points.Payments) != 3 {
		t.Errorf("chicken hand on a discard: got fan %d points %+v", res.Fan, res.Points)
	}
	// Self-drawn, the same tiles earn Self-Drawn (1 point) instead of
	// Chicken Hand, and fall under the minimum.
	r.Tsumo = true
	if res := MCR.Score(r); res.OK || res.Fan != 1 || res.Error.Code != scoring.CodeBelowMinimum {
		t.Errorf("self-drawn chicken tiles: got ok=%v fan %d %v", res.OK, res.Fan, res.Error)
	}
}

func TestFalseWinPenalty(t *testing.T) {
	rules := Presets["default"]
	total, pays := Penalty(&rules, FalseWinBelowMinimum, scoring.WindWest)
	if total != 30 || len(pays) != 3 {
		t.Fatalf("under 8 points: want 10 to each of three, got %d %+v", total, pays)
	}
	for _, p := range pays {
		if p.From != "W" || p.To == "W" || p.Amount != 10 {
			t.Errorf("penalty payment %+v", p)
		}
	}
	if total, _ := Penalty(&rules, FalseWinIllegalHand, scoring.WindEast); total != 60 {
		t.Errorf("illegal hand: want 20 to each of three, got %d", total)
	}
	res := MCR.Score(req("178m11z", "1m", "chi:234m", "chi:567p", "chi:345s"))
	if b, ok := res.Breakdown.(*Breakdown); !ok || b.FalseWin == nil || b.FalseWin.Total != 60 {
		t.Errorf("not-a-win result should carry the 20-point penalty: %+v", res.Breakdown)
	}
}

// The breakdown names the sets behind each fan and lists the other
// readings with the chosen one marked.
func TestBreakdown(t *testing.T) {
	res := MCR.Score(req("222333444s66688s", "8s"))
	b, ok := res.Breakdown.(*Breakdown)
	if !ok {
		t.Fatalf("breakdown %T", res.Breakdown)
	}
	chosen := 0
	for _, a := range b.Alternatives {
		if a.Chosen {
			chosen++
			if a.Points != b.Points {
				t.Errorf("chosen reading has %d points, result %d", a.Points, b.Points)
			}
		} else if a.Points > b.Points {
			t.Errorf("reading %s scores more (%d) than the chosen %d", a.Arrangement, a.Points, b.Points)
		}
	}
	if chosen != 1 || len(b.Alternatives) < 2 {
		t.Errorf("want several readings with one chosen: %+v", b.Alternatives)
	}
	found := false
	for _, f := range b.Fans {
		if f.ID == int(PureShiftedPungs) {
			found = len(f.Sets) == 1 && f.Sets[0] == "222s 333s 444s"
		}
	}
	if !found {
		t.Errorf("Pure Shifted Pungs should name 222s 333s 444s: %+v", b.Fans)
	}
	if b.Notation != "2223334446668s8s" {
		t.Errorf("bracket notation %q", b.Notation)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Error(err)
	}
}
