package riichi_test

import (
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/riichi"
)

// req builds a request in the compact way tests read best.
func req(hand, win string, mods ...func(*scoring.Request)) *scoring.Request {
	r := &scoring.Request{ID: "t", Rules: "riichi", Hand: hand, WinTile: win, SeatWind: "S", RoundWind: "E"}
	for _, m := range mods {
		m(r)
	}
	return r
}

func tsumo(r *scoring.Request)  { r.Tsumo = true }
func dealer(r *scoring.Request) { r.SeatWind = "E" }
func sanma(r *scoring.Request)  { r.Rules = "sanma" }
func preset(p string) func(*scoring.Request) {
	return func(r *scoring.Request) { r.Preset = p }
}
func dora(ind string) func(*scoring.Request) {
	return func(r *scoring.Request) { r.DoraIndicators = ind }
}
func meld(typ, tiles, from string) func(*scoring.Request) {
	return func(r *scoring.Request) {
		r.Melds = append(r.Melds, scoring.MeldSpec{Type: typ, Tiles: tiles, From: from})
	}
}
func nuki(n int) func(*scoring.Request) { return func(r *scoring.Request) { r.Nuki = n } }

func score(t *testing.T, r *scoring.Request) scoring.Result {
	t.Helper()
	var e scoring.Engine = riichi.Riichi
	if r.Rules == "sanma" {
		e = riichi.Sanma
	}
	return e.Score(r)
}

func yakuHan(res scoring.Result) map[int]int {
	m := map[int]int{}
	for _, y := range res.Yaku {
		m[y.ID] = y.Han + 100*y.Yakuman
	}
	return m
}

func TestPinfuTsumoIs20Fu(t *testing.T) {
	res := score(t, req("234789m12345666p", "6p", tsumo, func(r *scoring.Request) { r.Riichi = true }))
	if !res.OK || res.Han != 3 || res.Fu != 20 || res.Points.Total != 2700 {
		t.Fatalf("got ok=%v %d han %d fu %d points, want 3 han 20 fu 2700 (1300 + 700 + 700): %+v", res.OK, res.Han, res.Fu, res.Points.Total, res.Error)
	}
	bd := res.Breakdown.(*riichi.Breakdown)
	if len(bd.Fu) != 1 || bd.Fu[0].Fu != 20 {
		t.Errorf("pinfu tsumo fu table = %+v, want the 20 fu base alone", bd.Fu)
	}
}

func TestFuItemsNameTheirSets(t *testing.T) {
	// 22444m333567p444s won on 4s by ron: three concealed simple pungs, one
	// completed by the discard counts open.
	res := score(t, req("22444m333567p444s", "4s"))
	if res.Fu != 40 {
		t.Fatalf("fu = %d, want 40", res.Fu)
	}
	bd := res.Breakdown.(*riichi.Breakdown)
	want := map[string]int{"444m": 4, "333p": 4, "444s": 2}
	for _, f := range bd.Fu {
		if f.Set != "" && want[f.Set] != f.Fu {
			t.Errorf("fu for %s = %d, want %d", f.Set, f.Fu, want[f.Set])
		}
		delete(want, f.Set)
	}
	if len(want) > 0 {
		t.Errorf("fu table misses %v: %+v", want, bd.Fu)
	}
}

func TestHighestReadingChosenOthersListed(t *testing.T) {
	// 111222333m: three pungs (sanankou) or three identical chows
	// (iipeikou): the pungs pay more and win; the chows are listed.
	res := score(t, req("111222333m789p55s", "3m", tsumo))
	if !res.OK || yakuHan(res)[riichi.YakuSanankou] != 2 {
		t.Fatalf("want sanankou chosen, got %+v", res.Yaku)
	}
	bd := res.Breakdown.(*riichi.Breakdown)
	chosen := 0
	for _, a := range bd.Alternatives {
		if a.Chosen {
			chosen++
			if a.Total != res.Points.Total {
				t.Errorf("chosen alternative pays %d, result %d", a.Total, res.Points.Total)
			}
		} else if a.Total > res.Points.Total {
			t.Errorf("alternative %s pays more (%d) than the chosen %d", a.Arrangement, a.Total, res.Points.Total)
		}
	}
	if len(bd.Alternatives) < 2 || chosen != 1 {
		t.Errorf("want several readings with one chosen, got %+v", bd.Alternatives)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		r    *scoring.Request
		code string
	}{
		{"13 tiles", req("22444m333567p44s", "4s"), scoring.CodeWrongTileCount},
		{"five of a kind", req("11111m234p567s999p", "1m"), scoring.CodeTooManyCopies},
		{"not a win", req("234456m66p123344s", "4s"), scoring.CodeNotAWin},
		{"no yaku", req("234456m66p444s", "4s", meld("chi", "123s", "left")), scoring.CodeNoYaku},
		{"riichi open", req("234456m66p444s", "4s", meld("chi", "123s", "left"), func(r *scoring.Request) { r.Riichi = true }), scoring.CodeBadRequest},
		{"bad tile", req("22444m333567p44x", "4s"), scoring.CodeBadRequest},
		{"win not in hand", req("22444m333567p444s", "9s"), scoring.CodeBadRequest},
		{"unknown preset", req("22444m333567p444s", "4s", preset("nope")), scoring.CodeBadRequest},
		{"bad chi", req("234456m66p444s", "4s", meld("chi", "135s", "left")), scoring.CodeBadRequest},
		{"nuki outside sanma", req("22444m333567p444s", "4s", nuki(1)), scoring.CodeBadRequest},
	}
	for _, c := range cases {
		res := score(t, c.r)
		if res.OK || res.Error == nil || res.Error.Code != c.code {
			t.Errorf("%s: got ok=%v error=%+v, want %s", c.name, res.OK, res.Error, c.code)
		}
		if res.Error != nil && res.Error.Message == "" {
			t.Errorf("%s: empty message", c.name)
		}
	}
}

func TestNotAWinExplainsShanten(t *testing.T) {
	// Without the 9m the hand is ready on 4m-7m: the message says so.
	res := score(t, req("23456m11p123456s9m", "9m"))
	if res.OK || res.Shanten == nil || *res.Shanten != 0 || res.Waits != "147m" {
		t.Fatalf("got shanten %v waits %q (%+v), want tenpai on 147m", res.Shanten, res.Waits, res.Error)
	}
}

func TestMSMC2016(t *testing.T) {
	// No red fives: a 0p is a plain five, not a dora.
	r := req("234m0p66p123456s9m", "9m", preset("msmc-2016"), func(r *scoring.Request) { r.Hand = "234m406p123456s99m"; r.Riichi = true })
	res := score(t, r)
	if !res.OK || yakuHan(res)[riichi.YakuAkaDora] != 0 {
		t.Fatalf("msmc-2016 counted a red five: %+v %+v", res.Yaku, res.Error)
	}
	// The same hand under the default preset has one aka dora.
	r.Preset = ""
	if res := score(t, r); yakuHan(res)[riichi.YakuAkaDora] != 1 {
		t.Fatalf("default preset: aka dora = %v, want 1", yakuHan(res))
	}
	// Gift of Man (renhou) is not scored.
	rh := req("234456m66p123444s", "4s", preset("msmc-2016"), func(r *scoring.Request) { r.Renhou = true })
	if res := score(t, rh); res.OK && yakuHan(res)[riichi.YakuRenhou] != 0 {
		t.Fatalf("msmc-2016 scored renhou: %+v", res.Yaku)
	}
	// Responsibility: big three dragons fed by the player across, won by
	// self-draw: that player pays the whole 32,000.
	pao := req("55z666z777z123m99p", "9p", tsumo, preset("msmc-2016"), func(r *scoring.Request) {
		r.Hand = "123m99p666777z"
		r.Melds = []scoring.MeldSpec{{Type: "pon", Tiles: "555z", From: "across"}}
		r.Options = map[string]any{"pao": "across"}
	})
	res = score(t, pao)
	if !res.OK || res.Yakuman != 1 || len(res.Points.Payments) != 1 || res.Points.Payments[0].From != "across" || res.Points.Total != 32000 {
		t.Fatalf("pao: %+v %+v", res.Points, res.Error)
	}
	// Pao only for the listed yakuman: suuankou is not one.
	sa := req("111m333p555s777s99m", "9m", tsumo, preset("msmc-2016"), func(r *scoring.Request) { r.Options = map[string]any{"pao": "across"} })
	if res := score(t, sa); !res.OK || len(res.Points.Payments) != 3 {
		t.Fatalf("suuankou with pao option: %+v %+v", res.Points, res.Error)
	}
}

func TestSanma(t *testing.T) {
	// 2m–8m are not in the set.
	if res := score(t, req("234m456p123456s99p", "9p", sanma)); res.OK || res.Error.Code != scoring.CodeBadRequest {
		t.Fatalf("sanma accepted 2m: %+v", res.Error)
	}
	// No open chi.
	if res := score(t, req("456p123456s99p", "9p", sanma, meld("chi", "789p", "left"))); res.OK {
		t.Fatalf("sanma accepted an open chi")
	}
	// Nuki dora: 1 han each, not a yaku on their own.
	base := req("111m456p123456s99p", "9p", sanma, nuki(2))
	if res := score(t, base); res.OK || res.Error.Code != scoring.CodeNoYaku {
		t.Fatalf("nuki alone made a hand: %+v", res)
	}
	withRiichi := req("111m456p123456s99p", "9p", sanma, nuki(2), func(r *scoring.Request) { r.Riichi = true })
	res := score(t, withRiichi)
	if !res.OK || yakuHan(res)[riichi.YakuNukiDora] != 2 {
		t.Fatalf("nuki dora = %v, want 2", yakuHan(res))
	}
	// A West indicator makes each nuki worth 2.
	withRiichi.DoraIndicators = "3z"
	if res := score(t, withRiichi); yakuHan(res)[riichi.YakuNukiDora] != 4 {
		t.Fatalf("nuki dora with West indicator = %v, want 4", yakuHan(res))
	}
	// A 1m indicator makes 9m the dora.
	nine := req("999m456p123456s99p", "9p", sanma, dora("1m"), func(r *scoring.Request) { r.Riichi = true })
	if res := score(t, nine); yakuHan(res)[riichi.YakuDora] != 3 {
		t.Fatalf("1m indicator: dora = %v, want 3 (9m pung)", yakuHan(res))
	}
	// Tsumo loss: a non-dealer mangan by self-draw collects 4000 + 2000 from
	// two players, 2000 less than the 8000 a discard pays.
	m := req("111m456p123456s99p", "9p", sanma, tsumo, func(r *scoring.Request) {
		r.Riichi = true
		r.Nuki = 3
	})
	res = score(t, m)
	if !res.OK || res.Limit != "mangan" || res.Points.Total != 6000 || len(res.Points.Payments) != 2 {
		t.Fatalf("sanma tsumo mangan: %d han, limit %q, %+v", res.Han, res.Limit, res.Points)
	}
	m.Tsumo = false
	if res := score(t, m); res.Points.Total != 8000 {
		t.Fatalf("sanma ron mangan = %d, want 8000", res.Points.Total)
	}
}

func TestOptionsOverridePreset(t *testing.T) {
	// 4 han 30 fu: 7700 (non-dealer ron) without kiriage, 8000 with it.
	// Riichi, pinfu, tanyao and one dora.
	r2 := req("234456m234p55678s", "2m", func(r *scoring.Request) {
		r.Riichi = true
		r.DoraIndicators = "1p"
	})
	res := score(t, r2)
	if res.Han != 4 || res.Fu != 30 || res.Points.Total != 7700 {
		t.Fatalf("got %d han %d fu %d points, want 4 han 30 fu 7700: %+v", res.Han, res.Fu, res.Points.Total, res.Yaku)
	}
	r2.Options = map[string]any{"kiriage_mangan": true}
	if res := score(t, r2); res.Points.Total != 8000 || res.Limit != "mangan" {
		t.Fatalf("kiriage: %d %q, want 8000 mangan", res.Points.Total, res.Limit)
	}
	r2.Options = map[string]any{"kiriage_mangan": "perhaps"}
	if res := score(t, r2); res.OK || res.Error.Code != scoring.CodeBadRequest {
		t.Fatalf("a bad option value must be refused: %+v", res.Error)
	}
}

func TestHonbaAndSticks(t *testing.T) {
	r := req("123m45556p789s", "5p", dealer, meld("pon", "555z", "left"), func(r *scoring.Request) {
		r.Honba = 2
		r.RiichiSticks = 1
	})
	res := score(t, r)
	// Dealer, haku 1 han 30 fu: 1500 + 600 honba + 1000 stick.
	if res.Points.Total != 3100 {
		t.Fatalf("total = %d (%+v), want 3100", res.Points.Total, res.Points.Payments)
	}
}
