package mcr

import (
	"testing"

	"mjscan/scoring"
)

// FuzzScore: any request in CONTRACT codes is scored or refused with a
// CONTRACT error, never a panic, and a scored hand's total is the sum of
// its fans.
func FuzzScore(f *testing.F) {
	f.Add("12356777p", "6p", "pon", "777z", "chi", "234p", "2f", uint16(0))
	f.Add("11123455678999m", "5m", "", "", "", "", "", uint16(1))
	f.Add("147m258p369s12345z", "5z", "", "", "", "", "1f2f3f", uint16(3))
	f.Add("11m", "1m", "ankan", "1111z", "minkan", "2222z", "", uint16(0x1ff))
	eng := MCR
	f.Fuzz(func(t *testing.T, hand, win, t1, m1, t2, m2, flowers string, flags uint16) {
		r := &scoring.Request{Rules: "mcr", Hand: hand, WinTile: win, Flowers: flowers,
			Tsumo: flags&1 != 0, Rinshan: flags&2 != 0, Chankan: flags&4 != 0, Haitei: flags&8 != 0,
			Houtei: flags&16 != 0, LastTileOfKind: flags&32 != 0,
			SeatWind: [...]string{"E", "S", "W", "N"}[flags>>6&3], RoundWind: [...]string{"E", "S", "W", "N"}[flags>>8&3]}
		if t1 != "" {
			r.Melds = append(r.Melds, scoring.MeldSpec{Type: t1, Tiles: m1, From: "left"})
		}
		if t2 != "" {
			r.Melds = append(r.Melds, scoring.MeldSpec{Type: t2, Tiles: m2, From: "across"})
		}
		res := eng.Score(r)
		if res.Error != nil {
			switch res.Error.Code {
			case scoring.CodeBadRequest, scoring.CodeNotAWin, scoring.CodeBelowMinimum, scoring.CodeTooManyCopies, scoring.CodeWrongTileCount:
			default:
				t.Fatalf("unexpected error code %q", res.Error.Code)
			}
			if res.Error.Message == "" {
				t.Fatal("error without a message")
			}
		} else if !res.OK {
			t.Fatal("not ok without an error")
		}
		sum := 0
		for _, fan := range res.Fans {
			sum += fan.Fan * fan.Count
		}
		if sum != res.Fan {
			t.Fatalf("fans add up to %d, total %d", sum, res.Fan)
		}
	})
}
