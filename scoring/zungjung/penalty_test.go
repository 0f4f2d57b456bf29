package zungjung_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/zungjung"
)

// TestPenaltyTiles follows seed 004: "Penalty tiles (whether live or dead)
// cannot be melded (including melding when winning on discard) into an
// exposed sequence, an exposed triplet, or an exposed kong (big or small),
// and may not form the pair of "exposed" eyes with a discarded tile when
// winning. In other words, penalty tiles may only constitute concealed
// sets."
func TestPenaltyTiles(t *testing.T) {
	// 345m 55m 123p 789s + pung 777z, won on 5m: Value Honor, 10. The 5m
	// may complete the 345m chow or the 55m pair (freedom of count).
	base := scoring.Request{Rules: "wsm", Hand: "34555m123p789s", WinTile: "5m", SeatWind: "E",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "777z", From: "right"}}}
	tests := []struct {
		name    string
		penalty string
		tsumo   bool
		value   int    // when it wins
		code    string // when it does not
		message string // part of the error message
	}{
		{"no penalty tiles", "", false, 10, "", ""},
		{"penalty 4m: the discard pairs with a free 5m instead of completing 345m", "4m", false, 10, "", ""},
		{"penalty 4m and 5m: one 5m stays free for the pair", "45m", false, 10, "", ""},
		{"penalty 4m, 5m, 5m: no set the discard may complete", "455m", false, 0, scoring.CodeNotAWin, "false win"},
		{"the same tiles on a self-draw form concealed sets", "455m", true, 10, "", ""},
		{"more penalty fives than the hand holds before the discard", "555m", false, 0, scoring.CodeBadRequest, "may not be melded"},
		{"penalty tiles in a claimed pung", "7z", false, 0, scoring.CodeBadRequest, "may not be melded"},
		{"not a tile", "8x", false, 0, scoring.CodeBadRequest, "penalty_tiles"},
	}
	for _, tc := range tests {
		r := base
		r.Tsumo = tc.tsumo
		if tc.penalty != "" {
			r.Options = map[string]any{"penalty_tiles": tc.penalty}
		}
		res := zungjung.WSM.Score(&r)
		switch {
		case tc.code == "" && (!res.OK || valueOf(res) != tc.value):
			t.Errorf("%s: got ok=%v value %d error %+v, want value %d", tc.name, res.OK, valueOf(res), res.Error, tc.value)
		case tc.code != "" && (res.OK || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.message)):
			t.Errorf("%s: got ok=%v error %+v, want %s mentioning %q", tc.name, res.OK, res.Error, tc.code, tc.message)
		}
	}
	// Seven Pairs won on a discard: the other tile of the pair it completes
	// must not be a penalty tile.
	sp := scoring.Request{Rules: "wsm", Hand: "2233556688m11p11z", WinTile: "1z", SeatWind: "S",
		Options: map[string]any{"penalty_tiles": "1z"}}
	if res := zungjung.WSM.Score(&sp); res.OK || res.Error.Code != scoring.CodeNotAWin {
		t.Errorf("seven pairs paired with a penalty tile: got %+v", res)
	}
	sp.Options = map[string]any{"penalty_tiles": "1p"}
	if res := zungjung.WSM.Score(&sp); !res.OK || valueOf(res) != 30 {
		t.Errorf("seven pairs with a penalty pair of its own: got %+v", res)
	}
}

// TestFalseWinMessage: in the World Series a declared win that is not a
// winning hand, or a chicken hand, is a false win (seed 004).
func TestFalseWinMessage(t *testing.T) {
	r := scoring.Request{Rules: "wsm", Hand: "34556m123p789s", WinTile: "6m", SeatWind: "E",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "777z", From: "right"}}}
	res := zungjung.WSM.Score(&r)
	if res.OK || res.Error.Code != scoring.CodeNotAWin || !strings.Contains(res.Error.Message, "false win") {
		t.Errorf("wsm non-winning hand: %+v", res.Error)
	}
	r.Rules = "zung-jung"
	res = zungjung.ZungJung.Score(&r)
	if res.OK || res.Error.Code != scoring.CodeNotAWin || strings.Contains(res.Error.Message, "false win") {
		t.Errorf("zung jung non-winning hand: %+v", res.Error)
	}
}

// TestBelowMinimumCarriesValue: a WSM hand below the 5-point minimum is
// not a win, and its result still says what it is worth, 0 included, as an
// MCR hand below 8 still carries its fan. (The value used to vanish from
// the JSON of a hand worth 0.)
func TestBelowMinimumCarriesValue(t *testing.T) {
	// No pattern: open chows and a pung, no concealed hand.
	nothing := &scoring.Request{ID: "w", Rules: "wsm", Hand: "456p789s55m", WinTile: "5m", SeatWind: "S", RoundWind: "E",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "222m", From: "left"}, {Type: "chi", Tiles: "234s", From: "left"}}}
	// All Sequences and Concealed Hand: 10, under a minimum of 50.
	ten := &scoring.Request{ID: "w", Rules: "wsm", Hand: "123m456p789s234s55m", WinTile: "5m", SeatWind: "S", RoundWind: "E",
		Options: map[string]any{"minimum": 50}}
	for _, tc := range []struct {
		r    *scoring.Request
		want int
	}{{nothing, 0}, {ten, 10}} {
		res := zungjung.WSM.Score(tc.r)
		if res.OK || res.Error == nil || res.Error.Code != scoring.CodeBelowMinimum {
			t.Fatalf("%s: want below_minimum, got %+v", tc.r.Hand, res)
		}
		var got map[string]any
		b, _ := json.Marshal(res)
		_ = json.Unmarshal(b, &got)
		if v, ok := got["value"].(float64); !ok || int(v) != tc.want {
			t.Errorf("%s: value %v in %s, want %d", tc.r.Hand, got["value"], b, tc.want)
		}
		if res.Points.Total != 0 {
			t.Errorf("%s: a false win is paid %d", tc.r.Hand, res.Points.Total)
		}
	}
	// A hand that does not read carries no value: there is nothing to count.
	bad := *nothing
	bad.Hand = "456p788s55m"
	if b, _ := json.Marshal(zungjung.WSM.Score(&bad)); strings.Contains(string(b), `"value"`) {
		t.Errorf("an incomplete hand carries a value: %s", b)
	}
}
