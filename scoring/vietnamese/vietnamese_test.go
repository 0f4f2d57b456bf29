package vietnamese_test

import (
	"fmt"
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
	"mjscan/scoring/classical"
	"mjscan/scoring/vietnamese"
)

// TestVietnameseCorpus runs every case of the shared Vietnamese corpus;
// every case must agree, on base points and doubles as well.
func TestVietnameseCorpus(t *testing.T) {
	corpus.Check(t, "vietnamese_public.jsonl", 1, vietnamese.Vietnamese.Score, func(c *corpus.Case, res scoring.Result) []string {
		var diffs []string
		if b, ok := res.Breakdown.(*classical.Breakdown); ok {
			if v, ok := c.Expect["base"].(float64); ok && int(v) != b.Base {
				diffs = append(diffs, fmt.Sprintf("base: want %v, got %d", v, b.Base))
			}
			if v, ok := c.Expect["doubles"].(float64); ok && int(v) != b.DoublesTotal {
				diffs = append(diffs, fmt.Sprintf("doubles: want %v, got %d", v, b.DoublesTotal))
			}
		}
		return diffs
	})
}

func req(tiles, win string, tsumo bool, flowers string, melds ...string) *scoring.Request {
	r := &scoring.Request{ID: "t", Rules: "vietnamese", Hand: tiles, WinTile: win, Tsumo: tsumo, Flowers: flowers, SeatWind: "S", RoundWind: "E"}
	for _, m := range melds {
		k, v, _ := strings.Cut(m, ":")
		r.Melds = append(r.Melds, scoring.MeldSpec{Type: k, Tiles: v, From: "left"})
	}
	return r
}

func win(t *testing.T, name string, r *scoring.Request, base, doubles, score int) *classical.Breakdown {
	t.Helper()
	res := vietnamese.Vietnamese.Score(r)
	if !res.OK {
		t.Fatalf("%s: %s: want a win, got %v", name, r.Hand, res.Error)
	}
	b := res.Breakdown.(*classical.Breakdown)
	if b.Base != base || b.DoublesTotal != doubles || res.Score != score {
		t.Fatalf("%s: want base %d doubles %d score %d, got %d %d %d\n%s %+v %+v", name, base, doubles, score, b.Base, b.DoublesTotal, res.Score, b.Arrangement, b.Items, b.Doubles)
	}
	return b
}

func refuse(t *testing.T, name string, r *scoring.Request, code, msg string) {
	t.Helper()
	res := vietnamese.Vietnamese.Score(r)
	if res.OK || res.Error.Code != code || !strings.Contains(res.Error.Message, msg) {
		t.Fatalf("%s: want %s containing %q, got ok=%v %v", name, code, msg, res.OK, res.Error)
	}
}

// TestJokerClasses: for each joker, one hand where it may stand and one
// where it may not (seed 000: each joker substitutes only within its
// class). The base hand is four chows and a self-drawn pair whose second
// tile is the joker: 20 + 2 self-draw + 2 one tile (+10 four chows when
// the pair is worthless, +2 when it is a dragon or the seat wind).
func TestJokerClasses(t *testing.T) {
	const chows = "123m456p234s567s" // no tile next to the nines
	cases := []struct {
		joker, may, mayNot string
		mayBase            int
	}{
		{"1j", "7z", "", 26}, // the emperor stands for anything
		{"2j", "9p", "9s", 34},
		{"3j", "9s", "9p", 34},
		{"4j", "9m", "9p", 34},
		{"5j", "9p", "7z", 34},
		{"6j", "2z", "7z", 26}, // South is the seat wind: pair +2
		{"7j", "7z", "2z", 26},
	}
	for _, c := range cases {
		b := win(t, c.joker+" may stand for "+c.may, req(chows+c.may+c.joker, c.may, true, ""), c.mayBase, 0, c.mayBase)
		if len(b.Jokers) != 1 || b.Jokers[0].Joker != c.joker || b.Jokers[0].As != c.may {
			t.Fatalf("%s: substitution %+v", c.joker, b.Jokers)
		}
		if c.mayNot != "" {
			refuse(t, c.joker+" may not stand for "+c.mayNot, req(chows+c.mayNot+c.joker, c.mayNot, true, ""), scoring.CodeNotAWin, "outside its class")
		}
	}
	// The emperor also stands for a suited tile.
	win(t, "emperor suited", req(chows+"9p1j", "9p", true, ""), 34, 0, 34)
	// The flower joker stands only for a bonus tile: in the hand it is refused...
	refuse(t, "flower joker in a set", req(chows+"9p8j", "9p", true, ""), scoring.CodeBadRequest, "8j")
	// ...laid aside it is a bonus tile (4 points)...
	win(t, "flower joker laid aside", req(chows+"99p", "9p", true, "8j"), 28, 0, 28)
	// ...and claimed as a discard it stands for the tile the winner needs.
	b := win(t, "flower joker claimed", req(chows+"9p8j", "8j", false, ""), 32, 0, 32)
	if b.Jokers[0].As != "9p" {
		t.Fatalf("8j should stand for 9p: %+v", b.Jokers)
	}
}

// TestBestSubstitution: the jokers take the tiles that score best, and the
// breakdown shows them.
func TestBestSubstitution(t *testing.T) {
	// 77z + emperor: a dragon pung (8 points, one double) rather than a
	// chow or anything else: 123m 456p 789s 777z 55m... with 5m the pair.
	b := win(t, "emperor pung", req("123m456p789s77z55m1j", "5m", true, ""), 8+20+2+2, 1, 64)
	if b.Jokers[0].As != "7z" {
		t.Fatalf("emperor should be the third red dragon: %+v", b.Jokers)
	}
	// Two emperors: best is a pung of the seat wind (South) or round wind
	// with a dragon pair... the engine finds the highest score.
	res := vietnamese.Vietnamese.Score(req("123m456p789s555z1j1j", "5z", true, ""))
	if !res.OK || res.Score < 64 {
		t.Fatalf("two emperors: %+v", res)
	}
}

// TestJokerCopies: a joker cannot stand for a fifth copy; more than three
// of one joker is too many (modern sets hold three).
func TestJokerCopies(t *testing.T) {
	refuse(t, "fifth copy", req("1111m1j456p789s234s", "4s", true, ""), scoring.CodeNotAWin, "")
	refuse(t, "four emperors", req("123m456p789s1j1j1j1j5z", "5z", true, ""), scoring.CodeTooManyCopies, "1j")
	refuse(t, "five naturals", req("11111m456p789s234s", "4s", true, ""), scoring.CodeTooManyCopies, "1m")
}

// TestJokerMelds: a called set may hold jokers of the right class.
func TestJokerMelds(t *testing.T) {
	win(t, "joker in a pung", req("123m456p789s55m", "5m", true, "", "pon:77z7j"), 4+20+2+2, 1, 56)
	refuse(t, "wrong joker in a pung", req("123m456p789s55m", "5m", true, "", "pon:77z6j"), scoring.CodeBadRequest, "cannot stand")
	win(t, "joker in a chow", req("123m456p789s55m", "5m", true, "", "chi:13s5j"), 20+2+2+10, 0, 34)
}

// TestKingsAndQueens: each king or queen is 4 points; a king and a queen
// of one number double (any seat); a lone king does not.
func TestKingsAndQueens(t *testing.T) {
	const chows = "123m456p789s234s99p"
	win(t, "matching pair", req(chows, "9p", true, "1k5k"), 20+2+2+8, 1, 64)
	win(t, "two matching pairs", req(chows, "9p", true, "1k5k3k7k"), 20+2+2+16, 2, 160)
	win(t, "mismatch", req(chows, "9p", true, "1k6k"), 20+2+2+8, 0, 32)
	win(t, "lone king, own flower", req(chows, "9p", true, "2k2f"), 20+2+2+8, 1, 64)
	win(t, "joker laid aside", req(chows, "9p", true, "1j"), 20+2+2+4, 0, 28)
}

// TestDiscardedBonusWins: a discarded bonus tile may be claimed as the
// winning tile for any set (no "discard completes a pung" rule); drawn, it
// goes in the flowers.
func TestDiscardedBonusWins(t *testing.T) {
	win(t, "claimed flower", req("123m456p789s234s9p3f", "3f", false, ""), 20+2+10, 0, 32)
	refuse(t, "drawn flower in hand", req("123m456p789s234s9p3f", "3f", true, ""), scoring.CodeBadRequest, "flowers")
	refuse(t, "flower twice", req("123m456p789s234s9p3f", "3f", false, "3f"), scoring.CodeTooManyCopies, "")
}

// TestWinnerOnly: Vietnamese scores only the winner's hand.
func TestWinnerOnly(t *testing.T) {
	r := req("123m456p789s234s99p", "9p", true, "")
	r.Extra = &scoring.RequestExt{Players: []scoring.Request{{Hand: "123m456p789s1234s", SeatWind: "E"}}}
	refuse(t, "losers given", r, scoring.CodeBadRequest, "only the winner")
}

// BenchmarkJokerHand scores a hand with three emperor jokers, the costly
// case of the substitution search.
func BenchmarkJokerHand(b *testing.B) {
	r := req("123m456p789s55z1j1j1j", "5z", true, "")
	e := vietnamese.Vietnamese
	for i := 0; i < b.N; i++ {
		if res := e.Score(r); !res.OK {
			b.Fatal(res.Error)
		}
	}
}

// TestManyJokers: a hand of fourteen jokers is scored within the search
// budget; the breakdown says the search was cut short.
func TestManyJokers(t *testing.T) {
	res := vietnamese.Vietnamese.Score(req("1j1j1j2j2j2j3j3j3j4j4j4j5j5j", "5j", true, ""))
	if !res.OK || res.Score != 500 {
		t.Fatalf("fourteen jokers: %+v", res.Error)
	}
	if b := res.Breakdown.(*classical.Breakdown); !b.SearchTruncated {
		t.Fatal("fourteen jokers: the search should report that it was cut short")
	}
}

// FuzzScore: no hand, however odd, panics the Vietnamese (and so the
// classical) scorer, and every win scores within the limit.
func FuzzScore(f *testing.F) {
	f.Add("24456m777p1155z1f1j", "1f", "", false)
	f.Add("123m456p789s55m", "5m", "1k5k8j", true)
	f.Add("1j2j3j4j5j6j7j1j2j3j4j5j6j7j", "7j", "", true)
	f.Fuzz(func(t *testing.T, hand, win, flowers string, tsumo bool) {
		if len(hand) > 40 {
			return
		}
		res := vietnamese.Vietnamese.Score(req(hand, win, tsumo, flowers))
		if res.OK && (res.Score <= 0 || res.Score > 500) {
			t.Fatalf("%s: score %d", hand, res.Score)
		}
		if !res.OK && res.Error == nil {
			t.Fatalf("%s: failed without an error", hand)
		}
	})
}
