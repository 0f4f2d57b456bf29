package tournament

import (
	"testing"

	"mjscan/scoring"
)

// The test hand: 234m 234p 234s 678s 55p waiting 6-7s on 5s-8s, won on 8s.
// Its riichi values come from the standard score table, not the engine:
//
//	dama (tanyao, pinfu, sanshoku: 4 han 30 fu): ron 7,700 / dealer 11,600;
//	  tsumo adds menzen tsumo: mangan, 2,000/4,000 or 4,000 all;
//	riichi (5 han): ron mangan 8,000 / dealer 12,000;
//	  tsumo 6 han: haneman, 3,000/6,000 or 6,000 all.
const (
	sanshokuHand = "234m234p234s678s55p"
	sanshokuWin  = "8s"
)

func winHand() *scoring.Request {
	return &scoring.Request{Hand: sanshokuHand, WinTile: sanshokuWin}
}

// ron is a discard win by p off from; tsumo a self-draw.
func ron(p, from int, riichi ...int) Play {
	return Play{Outcome: Win, Player: p, From: from, Hand: winHand(), Riichi: riichi}
}

func tsumo(p int, riichi ...int) Play {
	return Play{Outcome: Win, Player: p, From: NoSeat, Hand: winHand(), Riichi: riichi}
}

func draw(tenpai []int, riichi ...int) Play {
	return Play{Outcome: Draw, Tenpai: tenpai, Riichi: riichi}
}

func chombo(p int, riichi ...int) Play {
	return Play{Outcome: Chombo, Player: p, Riichi: riichi}
}

// ledger is the test's own account of the scores: each step lists what
// each seat gains, worked out by hand from the rules.
type ledger struct {
	t      *testing.T
	g      *Game
	want   [4]int
	sticks int
}

func newLedger(t *testing.T, id string, players [4]string) *ledger {
	t.Helper()
	g, err := NewGame(id, "table 1", "msmc-2016", players)
	if err != nil {
		t.Fatal(err)
	}
	return &ledger{t: t, g: g, want: [4]int{25000, 25000, 25000, 25000}}
}

// play records a hand and checks the scores against the expected deltas
// and that the scores balance.
func (l *ledger) play(p Play, deltas [4]int, sticks int) *HandRecord {
	l.t.Helper()
	rec, err := l.g.Record(p)
	if err != nil {
		l.t.Fatalf("hand %d: %v", len(l.g.Hands)+1, err)
	}
	for i := range deltas {
		l.want[i] += deltas[i]
	}
	l.sticks = sticks
	if l.g.Scores != l.want || l.g.Sticks != sticks {
		l.t.Fatalf("hand %d (%s): scores %v sticks %d, want %v sticks %d\n%v", rec.Number, rec.Round, l.g.Scores, l.g.Sticks, l.want, sticks, rec.Explain)
	}
	sum := sticks * 1000
	for _, s := range l.g.Scores {
		sum += s
	}
	if sum != 100000 {
		l.t.Fatalf("hand %d: scores and sticks add up to %d", rec.Number, sum)
	}
	return rec
}

// raw is the end-of-game points the test expects, leftover sticks given to
// the first place by points (ties to the earlier seat).
func (l *ledger) raw() [4]int {
	r := l.want
	first := 0
	for s := 1; s < 4; s++ {
		if r[s] > r[first] {
			first = s
		}
	}
	r[first] += 1000 * l.sticks
	return r
}

// msmcByHand is seed 000's final scoring written out independently of the
// package: float division and math-free truncation, a selection sort for
// the places.
func msmcByHand(raw [4]int) [4]int {
	var place [4]int // place[s] = 0 for first
	for s := 0; s < 4; s++ {
		for o := 0; o < 4; o++ {
			// o is above s with more points, or equal points and an
			// earlier original seat.
			if raw[o] > raw[s] || (raw[o] == raw[s] && o < s) {
				place[s]++
			}
		}
	}
	var out [4]int
	first := -1
	for s := 0; s < 4; s++ {
		v := float64(raw[s] - 30000)
		if place[s] == 0 {
			v += 20000
			first = s
		}
		v /= 1000
		// "rounding up … if negative, rounding down if positive"
		if v < 0 {
			out[s] = -int(-v)
		} else {
			out[s] = int(v)
		}
		out[s] += []int{20, 10, -10, -20}[place[s]]
	}
	sum := out[0] + out[1] + out[2] + out[3]
	out[first] -= sum
	return out
}
