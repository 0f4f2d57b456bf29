package zungjung_test

import (
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/zungjung"
)

// Seed 000: "If you self-pick your win, everyone pays you the value of your
// hand. If you win off of a player's discard and your hand was worth 25
// points or fewer, everyone pays you the value of your hand. If you win off
// of a discarded tile with a hand worth more than 25 points, multiply the
// value of your hand by three. The two other players who did not discard
// your winning tile pay you 25 points, and the player who did discard your
// winning tile pays you the remainder."
func TestPayments(t *testing.T) {
	// 456m789p66777z + pon 555z: Small Three Dragons and two Value Honors, 60.
	base := scoring.Request{Rules: "zung-jung", Hand: "456m789p66777z", WinTile: "4m", SeatWind: "E",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "555z", From: "right"}}}
	// 234m456p678s55s + pon 777z: Value Honor, 10.
	small := scoring.Request{Rules: "zung-jung", Hand: "234m456p678s55s", WinTile: "5s", SeatWind: "E",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "777z", From: "right"}}}
	type pay struct {
		from   string
		amount int
	}
	tests := []struct {
		name    string
		req     scoring.Request
		mutate  func(r *scoring.Request)
		want    []pay
		wantTot int
	}{
		{"discard above par, discarder unknown", base, nil,
			[]pay{{"discarder", 130}, {"other player", 25}, {"other player", 25}}, 180},
		{"discard above par, discarder named", base, func(r *scoring.Request) { r.Extra = &scoring.RequestExt{Discarder: "W"} },
			[]pay{{"W", 130}, {"S", 25}, {"N", 25}}, 180},
		{"same-turn rule: the responsible player pays", base, func(r *scoring.Request) { r.Options = map[string]any{"responsible": "N"} },
			[]pay{{"N", 130}, {"S", 25}, {"W", 25}}, 180},
		{"same-turn rule: winner passed a winning tile, paid as self-draw", base, func(r *scoring.Request) {
			r.Options = map[string]any{"passed_own_winning_tile": true}
		}, []pay{{"S", 60}, {"W", 60}, {"N", 60}}, 180},
		{"self-draw", base, func(r *scoring.Request) { r.Tsumo = true }, []pay{{"S", 60}, {"W", 60}, {"N", 60}}, 180},
		{"discard at or below par", small, nil, []pay{{"S", 10}, {"W", 10}, {"N", 10}}, 30},
		{"uniform payoff preset", base, func(r *scoring.Request) { r.Preset = "zung-jung-uniform" },
			[]pay{{"S", 60}, {"W", 60}, {"N", 60}}, 180},
		{"wsm pays like Zung Jung", base, func(r *scoring.Request) {
			r.Rules = "wsm"
			r.SeatWind = "S"
			r.Extra = &scoring.RequestExt{Discarder: "E"}
		},
			[]pay{{"E", 130}, {"W", 25}, {"N", 25}}, 180},
	}
	for _, tc := range tests {
		r := tc.req
		if tc.mutate != nil {
			tc.mutate(&r)
		}
		e := zungjung.ZungJung
		if r.Rules == "wsm" {
			e = zungjung.WSM
		}
		res := e.Score(&r)
		if !res.OK {
			t.Errorf("%s: %v", tc.name, res.Error)
			continue
		}
		if res.Points.Total != tc.wantTot || res.Points.Total != 3*valueOf(res) {
			t.Errorf("%s: total %d (value %d), want %d", tc.name, res.Points.Total, valueOf(res), tc.wantTot)
		}
		if len(res.Points.Payments) != len(tc.want) {
			t.Errorf("%s: payments %+v, want %+v", tc.name, res.Points.Payments, tc.want)
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

// TestBadRequests checks that impossible requests get a CONTRACT error with
// a message, never a panic or a score.
func TestBadRequests(t *testing.T) {
	ok := scoring.Request{Rules: "zung-jung", Hand: "234m456p678s55s", WinTile: "5s", SeatWind: "E",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "777z", From: "right"}}}
	tests := []struct {
		name   string
		mutate func(r *scoring.Request)
		code   string
	}{
		{"flowers", func(r *scoring.Request) { r.Flowers = "1f" }, scoring.CodeBadRequest},
		{"too few tiles", func(r *scoring.Request) { r.Hand = "234m456p678s5s" }, scoring.CodeWrongTileCount},
		{"five copies", func(r *scoring.Request) { r.Hand = "234m456p678s77z"; r.WinTile = "7z"; r.Melds[0].Tiles = "777z" }, scoring.CodeTooManyCopies},
		{"robbing a kong on a self-draw", func(r *scoring.Request) { r.Chankan, r.Tsumo = true, true }, scoring.CodeBadRequest},
		{"win on kong without a kong", func(r *scoring.Request) { r.Rinshan, r.Tsumo = true, true }, scoring.CodeBadRequest},
		{"heaven for South", func(r *scoring.Request) { r.Tenhou, r.Tsumo, r.SeatWind = true, true, "S" }, scoring.CodeBadRequest},
		{"earth on a self-draw", func(r *scoring.Request) {
			r.Chiihou, r.Tsumo, r.SeatWind = true, true, "S"
			r.Melds = nil
			r.Hand = "234m456p678s55s777z"
		}, scoring.CodeBadRequest},
		{"unknown preset", func(r *scoring.Request) { r.Preset = "nope" }, scoring.CodeBadRequest},
		{"bad option", func(r *scoring.Request) { r.Options = map[string]any{"uniform_payoff": "maybe"} }, scoring.CodeBadRequest},
		{"discarder is the winner", func(r *scoring.Request) { r.Extra = &scoring.RequestExt{Discarder: "E"} }, scoring.CodeBadRequest},
		{"wsm: seabed and kong supplement", func(r *scoring.Request) {
			r.Rules, r.Tsumo, r.Haitei, r.Rinshan = "wsm", true, true, true
			r.Melds = []scoring.MeldSpec{{Type: "minkan", Tiles: "7777z", From: "right"}}
		}, scoring.CodeBadRequest},
		{"joker", func(r *scoring.Request) { r.Hand = "234m456p678s5s1j"; r.WinTile = "5s" }, scoring.CodeBadRequest},
	}
	for _, tc := range tests {
		r := ok
		r.Melds = append([]scoring.MeldSpec(nil), ok.Melds...)
		tc.mutate(&r)
		res := engineFor(r.Rules).Score(&r)
		if res.OK || res.Error == nil || res.Error.Code != tc.code || res.Error.Message == "" {
			t.Errorf("%s: got ok=%v error %+v, want %s", tc.name, res.OK, res.Error, tc.code)
		}
	}
	if res := zungjung.ZungJung.Score(&ok); !res.OK || valueOf(res) != 10 {
		t.Errorf("the unmodified request should score 10, got %+v", res)
	}
	// Zung Jung itself lets a kong supplement that is the last tile score
	// both Win on Kong and Final Draw (ZJ 9.2).
	zj := ok
	zj.Tsumo, zj.Haitei, zj.Rinshan = true, true, true
	zj.Melds = []scoring.MeldSpec{{Type: "minkan", Tiles: "7777z", From: "right"}}
	if res := zungjung.ZungJung.Score(&zj); !res.OK || valueOf(res) != 35 {
		t.Errorf("zung jung final draw on a kong supplement: want 35 (Value Honor, One Kong, Final Draw, Win on Kong), got %+v %v", res.Error, valueOf(res))
	}
}

// FuzzScore feeds arbitrary tile strings and flags to the engine: it must
// answer every request with a result or a CONTRACT error, never a panic,
// and a winning result must be worth something.
func FuzzScore(f *testing.F) {
	f.Add("456m789p66777z", "4m", "555z", false, false)
	f.Add("11123456789999m", "9m", "", true, true)
	f.Add("19m19p19s12234567z", "1z", "", false, false)
	f.Add("2222m3355p6677s11z", "1z", "", false, false)
	f.Add("55m", "5m", "2222p", true, false)
	f.Fuzz(func(t *testing.T, hand, win, pon string, tsumo, wsm bool) {
		r := scoring.Request{Rules: "zung-jung", Hand: hand, WinTile: win, Tsumo: tsumo, SeatWind: "E"}
		if pon != "" {
			r.Melds = []scoring.MeldSpec{{Type: "pon", Tiles: pon, From: "left"}}
		}
		e := zungjung.ZungJung
		if wsm {
			r.Rules, e = "wsm", zungjung.WSM
		}
		res := e.Score(&r)
		if res.OK && (valueOf(res) < 1 || res.Points.Total != 3*valueOf(res) || len(res.Patterns) == 0) {
			t.Fatalf("winning result with value %d, total %d, patterns %v", valueOf(res), res.Points.Total, res.Patterns)
		}
		if !res.OK && (res.Error == nil || res.Error.Message == "") {
			t.Fatalf("failed result without an error message: %+v", res)
		}
	})
}

// valueOf is a result's value, 0 when it carries none.
func valueOf(res scoring.Result) int {
	if res.Value == nil {
		return 0
	}
	return *res.Value
}
