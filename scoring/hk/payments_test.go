package hk_test

import (
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/hk"
)

// TestPayments checks the faan-to-money tables and who pays (HK.md §3):
// half-spicy 1 2 4 8 16 24 32 48 64 96 128 192 256 384, full-spicy 2^faan;
// shared payment: the discarder pays double, the others single, a
// self-draw is double from everyone; riichi_advanced: the discarder alone
// pays double, a self-draw single from everyone; full responsibility: the
// discarder pays for the table.
func TestPayments(t *testing.T) {
	// 123m444p55566677z on 6z: Little Three Dragons with its two dragon
	// pungs, Concealed Hand and No Flowers, 9 faan (hk_public.jsonl).
	nine := scoring.Request{Rules: "hk", Hand: "123m444p55566677z", WinTile: "6z", SeatWind: "E", RoundWind: "E"}
	type pay struct {
		from   string
		amount int
	}
	tests := []struct {
		name   string
		mutate func(r *scoring.Request)
		fan    int
		want   []pay
	}{
		{"half-spicy, shared, discard", nil, 9, []pay{{"discarder", 192}, {"other player", 96}, {"other player", 96}}},
		{"half-spicy, shared, named discarder", func(r *scoring.Request) { r.Extra = &scoring.RequestExt{Discarder: "N"} }, 9,
			[]pay{{"N", 192}, {"S", 96}, {"W", 96}}},
		{"half-spicy, shared, self-draw", func(r *scoring.Request) { r.Tsumo = true }, 10, []pay{{"S", 256}, {"W", 256}, {"N", 256}}},
		{"full-spicy, shared, discard", func(r *scoring.Request) { r.Preset = "full-spicy" }, 9,
			[]pay{{"discarder", 1024}, {"other player", 512}, {"other player", 512}}},
		{"riichi-advanced, discard", func(r *scoring.Request) { r.Preset = "riichi-advanced" }, 9, []pay{{"discarder", 192}}},
		{"riichi-advanced, self-draw", func(r *scoring.Request) { r.Preset = "riichi-advanced"; r.Tsumo = true }, 10,
			[]pay{{"S", 128}, {"W", 128}, {"N", 128}}},
		{"full responsibility", func(r *scoring.Request) { r.Options = map[string]any{"payment": "full-responsibility"} }, 9,
			[]pay{{"discarder", 384}}},
		{"limit 8 caps the faan paid", func(r *scoring.Request) { r.Options = map[string]any{"limit": 8} }, 8,
			[]pay{{"discarder", 128}, {"other player", 64}, {"other player", 64}}},
		{"table option", func(r *scoring.Request) { r.Options = map[string]any{"table": "full-spicy", "limit": 10} }, 9,
			[]pay{{"discarder", 1024}, {"other player", 512}, {"other player", 512}}},
	}
	for _, tc := range tests {
		r := nine
		if tc.mutate != nil {
			tc.mutate(&r)
		}
		res := hk.HK.Score(&r)
		if !res.OK {
			t.Errorf("%s: %v", tc.name, res.Error)
			continue
		}
		if res.Fan != tc.fan {
			t.Errorf("%s: fan %d, want %d", tc.name, res.Fan, tc.fan)
		}
		total := 0
		for _, p := range tc.want {
			total += p.amount
		}
		if res.Points.Total != total || len(res.Points.Payments) != len(tc.want) {
			t.Errorf("%s: payments %+v (total %d), want %+v", tc.name, res.Points.Payments, res.Points.Total, tc.want)
			continue
		}
		for i, p := range res.Points.Payments {
			if p.From != tc.want[i].from || p.Amount != tc.want[i].amount {
				t.Errorf("%s: payments %+v, want %+v", tc.name, res.Points.Payments, tc.want)
				break
			}
		}
	}
}

// TestBadRequests checks that impossible requests get a CONTRACT error.
func TestBadRequests(t *testing.T) {
	ok := scoring.Request{Rules: "hk", Hand: "123555789m66p555z", WinTile: "6p", SeatWind: "E", RoundWind: "E"}
	tests := []struct {
		name   string
		mutate func(r *scoring.Request)
		code   string
	}{
		{"king as a flower", func(r *scoring.Request) { r.Flowers = "1k" }, scoring.CodeBadRequest},
		{"the same flower twice", func(r *scoring.Request) { r.Flowers = "11f" }, scoring.CodeTooManyCopies},
		{"flower in the hand", func(r *scoring.Request) { r.Hand = "123555789m6p555z1f" }, scoring.CodeBadRequest},
		{"too many tiles", func(r *scoring.Request) { r.Hand = "123555789m666p555z" }, scoring.CodeWrongTileCount},
		{"min_faan above the limit", func(r *scoring.Request) { r.Options = map[string]any{"min_faan": 14} }, scoring.CodeBadRequest},
		{"limit 0", func(r *scoring.Request) { r.Options = map[string]any{"limit": 0} }, scoring.CodeBadRequest},
		{"unknown table", func(r *scoring.Request) { r.Options = map[string]any{"table": "mild"} }, scoring.CodeBadRequest},
		{"unknown payment", func(r *scoring.Request) { r.Options = map[string]any{"payment": "nobody"} }, scoring.CodeBadRequest},
		{"unknown preset", func(r *scoring.Request) { r.Preset = "new-style" }, scoring.CodeBadRequest},
		{"man for the dealer", func(r *scoring.Request) { r.Renhou = true }, scoring.CodeBadRequest},
		{"after a flower without a flower", func(r *scoring.Request) {
			r.Tsumo = true
			r.Options = map[string]any{"flower_replacement": true}
		}, scoring.CodeBadRequest},
		{"winner named as discarder", func(r *scoring.Request) { r.Extra = &scoring.RequestExt{Discarder: "E"} }, scoring.CodeBadRequest},
		{"not a win", func(r *scoring.Request) { r.Hand = "123555789m67p555z"; r.WinTile = "7p" }, scoring.CodeNotAWin},
	}
	for _, tc := range tests {
		r := ok
		tc.mutate(&r)
		res := hk.HK.Score(&r)
		if res.OK || res.Error == nil || res.Error.Code != tc.code || res.Error.Message == "" {
			t.Errorf("%s: got ok=%v error %+v, want %s", tc.name, res.OK, res.Error, tc.code)
		}
	}
	r := ok
	r.Options = map[string]any{"min_faan": 0}
	if res := hk.HK.Score(&r); !res.OK || res.Fan != 3 {
		t.Errorf("the unmodified request should score 3 faan, got %+v", res)
	}
}

// FuzzScore feeds arbitrary tiles, flowers and flags to the engine: every
// request gets a result or a CONTRACT error, never a panic, and the faan
// paid never exceeds the limit.
func FuzzScore(f *testing.F) {
	f.Add("123m444p55566677z", "6z", "", "", false, 0)
	f.Add("19m19p19s11234567z", "2z", "2f", "", true, 3)
	f.Add("88s", "8s", "1234f", "1111m", true, 0)
	f.Add("11122345678999m", "9m", "5678f", "", false, 1)
	f.Fuzz(func(t *testing.T, hand, win, flowers, kong string, tsumo bool, minFaan int) {
		r := scoring.Request{Rules: "hk", Hand: hand, WinTile: win, Flowers: flowers, Tsumo: tsumo, SeatWind: "E", RoundWind: "E",
			Options: map[string]any{"min_faan": minFaan}}
		if kong != "" {
			r.Melds = []scoring.MeldSpec{{Type: "minkan", Tiles: kong, From: "left"}}
		}
		res := hk.HK.Score(&r)
		if res.OK && (res.Fan < 0 || res.Fan > 13 || len(res.Fans) == 0 || res.Points.Total <= 0) {
			t.Fatalf("winning result with fan %d, fans %v, total %d", res.Fan, res.Fans, res.Points.Total)
		}
		if !res.OK && (res.Error == nil || res.Error.Message == "") {
			t.Fatalf("failed result without an error message: %+v", res)
		}
	})
}
