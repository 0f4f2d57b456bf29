package american_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/american"
)

// req builds a request on the sample card; melds are "tiles:type".
func req(hand, win string, tsumo bool, melds ...string) *scoring.Request {
	r := &scoring.Request{ID: "t", Rules: "american", Hand: hand, WinTile: win, Tsumo: tsumo, SeatWind: "S",
		Options: map[string]any{"card": "nmjl_2013_sample"}}
	for _, m := range melds {
		p := strings.SplitN(m, ":", 2)
		r.Melds = append(r.Melds, scoring.MeldSpec{Type: p[1], Tiles: p[0], From: "left"})
	}
	return r
}

func score(t *testing.T, r *scoring.Request) (scoring.Result, *american.Breakdown) {
	t.Helper()
	res := american.American.Score(r)
	b, _ := res.Breakdown.(*american.Breakdown)
	return res, b
}

func wantValue(t *testing.T, r *scoring.Request, line string, value, total int, jokers int) *american.Breakdown {
	t.Helper()
	res, b := score(t, r)
	if !res.OK {
		t.Fatalf("hand %s: want %s worth %d, got error %v", r.Hand, line, value, res.Error)
	}
	if b.CardHand != line || valueOf(res) != value || res.Points.Total != total || b.Jokers != jokers {
		t.Fatalf("hand %s: want %s value %d total %d jokers %d, got %s value %d total %d jokers %d",
			r.Hand, line, value, total, jokers, b.CardHand, valueOf(res), res.Points.Total, b.Jokers)
	}
	return b
}

func wantError(t *testing.T, r *scoring.Request, code, msgPart string) {
	t.Helper()
	res, _ := score(t, r)
	if res.OK || res.Error == nil || res.Error.Code != code || !strings.Contains(res.Error.Message, msgPart) {
		t.Fatalf("hand %s: want %s containing %q, got ok=%v %v", r.Hand, code, msgPart, res.OK, res.Error)
	}
}

// Jokers may stand in a pung or kong: 2013-1 with a joker for one South.
func TestJokerInKong(t *testing.T) {
	b := wantValue(t, req("123p1122233345z9j", "3p", false), "2013-1", 25, 100, 1)
	if b.Jokerless || b.Groups[3].Jokers != 1 || b.Groups[3].Tiles != "222z+9j" {
		t.Fatalf("joker should fill the SSSS kong: %+v", b.Groups)
	}
}

// A joker may not stand in a pair: 2013-1 with a joker for one East.
func TestJokerNotInPair(t *testing.T) {
	wantError(t, req("123p1222233345z9j", "3p", false), scoring.CodeNotAWin, "a joker cannot stand there")
}

// A joker may not stand in a run of singles: 2013 with a joker for the 3.
func TestJokerNotInSingles(t *testing.T) {
	wantError(t, req("12p11222233345z9j", "2p", false), scoring.CodeNotAWin, "a joker cannot stand there")
}

// Jokerless doubles the value; three suits for 2013-2.
func TestJokerlessDoubles(t *testing.T) {
	b := wantValue(t, req("1111m3333p123s5z12f", "3s", false), "2013-2", 50, 200, 0)
	if !b.Jokerless || !b.JokerlessDouble || b.BaseValue != 25 {
		t.Fatalf("breakdown %+v", b)
	}
}

// 2013-2 needs three different suits: 1111 and 3333 in one suit fail.
func TestDistinctSuits(t *testing.T) {
	wantError(t, req("1111m3333m123s5z12f", "3s", false), scoring.CodeNotAWin, "fits no line")
}

// Self-drawn: each of the three pays double (6 × value).
func TestSelfDrawnPayments(t *testing.T) {
	res, _ := score(t, req("2222m13m55z9j9j1234f", "3m", true))
	if !res.OK || valueOf(res) != 30 || res.Points.Total != 180 || len(res.Points.Payments) != 3 {
		t.Fatalf("got %+v", res)
	}
	for _, p := range res.Points.Payments {
		if p.Amount != 60 {
			t.Fatalf("each pays 60, got %+v", p)
		}
	}
}

// On a discard: the discarder pays double, the other two face value.
func TestDiscardPayments(t *testing.T) {
	r := req("13m5555z1234f", "3m", false, "2222m:minkan")
	r.Extra = &scoring.RequestExt{Discarder: "W"}
	res, _ := score(t, r)
	if !res.OK || valueOf(res) != 60 || res.Points.Total != 240 {
		t.Fatalf("got %+v", res)
	}
	p := res.Points.Payments
	if p[0].From != "W" || p[0].Amount != 120 || p[1].Amount != 60 || p[2].Amount != 60 {
		t.Fatalf("payments %+v", p)
	}
}

// An exposure may hold jokers; the hand is then not jokerless.
func TestExposureWithJoker(t *testing.T) {
	b := wantValue(t, req("13m5555z1234f", "3m", false, "222m9j:minkan"), "2013-3", 30, 120, 1)
	if !b.Groups[1].Exposed || b.Groups[1].Jokers != 1 {
		t.Fatalf("groups %+v", b.Groups)
	}
}

// A C hand may not have exposures; concealed, it wins (2013-4, two dragons).
func TestConcealedHand(t *testing.T) {
	wantError(t, req("123p5666z1234f", "3p", false, "777z:pon"), scoring.CodeNotAWin, "concealed (C)")
	wantValue(t, req("123p5666777z1234f", "3p", false), "2013-4", 70, 280, 0)
	wantValue(t, req("123p566677z1234f9j", "3p", true), "2013-4", 35, 210, 1)
}

// 2013-4's two dragon pungs must differ.
func TestDistinctDragons(t *testing.T) {
	wantError(t, req("123p56666z1234f9j9j", "3p", true), scoring.CodeNotAWin, "fits no line")
	// Jokers alone may make the second dragon pung.
	wantValue(t, req("123p5666z1234f9j9j9j", "3p", true), "2013-4", 35, 210, 3)
}

// A discarded joker is dead: it cannot win.
func TestDiscardedJokerDead(t *testing.T) {
	wantError(t, req("123p1122233345z9j", "9j", false), scoring.CodeNotAWin, "dead")
}

func TestTileErrors(t *testing.T) {
	wantError(t, req("22222m13m555z1234f", "3m", false), scoring.CodeTooManyCopies, "5 copies of 2m")
	wantError(t, req("2222m13m55z9j9j12345f", "3m", false), scoring.CodeWrongTileCount, "15 tiles")
	wantError(t, req("2222m13m55z9j1j1234f", "3m", false), scoring.CodeBadRequest, "1j is not an American tile")
	r := req("2222m13m5555z", "3m", false)
	r.Flowers = "1234f"
	wantError(t, r, scoring.CodeBadRequest, "flowers")
	wantError(t, req("13m5555z1234f", "3m", false, "123m:chi"), scoring.CodeBadRequest, "no chows")
	wantError(t, req("13m5555z1234f", "3m", false, "9j9j9j9j:minkan"), scoring.CodeBadRequest, "natural")
	wantError(t, req("2222m13m5555z1234f9j9j9j9j9j", "3m", true), scoring.CodeWrongTileCount, "")
	r = req("2222m13m5555z1234f", "3m", false)
	r.Options["card"] = "nmjl_2099"
	wantError(t, r, scoring.CodeBadRequest, "no card named")
}

// testCard exercises the extensions: number variables, the dragon of a
// suit, quints, and the Singles and Pairs category.
const testCard = `{"format":"mjscan-card/1","card":"test","hands":[
 {"id":"run","category":"Consecutive Run","value":25,"concealed":false,
  "groups":[{"kind":"pung","tiles":["nA","nA","nA"]},{"kind":"kong","tiles":["n+1A","n+1A","n+1A","n+1A"]},
            {"kind":"pung","tiles":["n+2A","n+2A","n+2A"]},{"kind":"kong","tiles":["D@A","D@A","D@A","D@A"]}],
  "numbers":{"n":[1,7]}},
 {"id":"quint","category":"Quints","value":40,"concealed":false,
  "groups":[{"kind":"quint","tiles":["F","F","F","F","F"]},{"kind":"quint","tiles":["5A","5A","5A","5A","5A"]},
            {"kind":"kong","tiles":["N","N","N","N"]}]},
 {"id":"sp","category":"Singles and Pairs","value":50,"concealed":true,
  "groups":[{"kind":"pair","tiles":["N","N"]},{"kind":"pair","tiles":["E","E"]},{"kind":"pair","tiles":["W","W"]},
            {"kind":"pair","tiles":["S","S"]},{"kind":"pair","tiles":["1A","1A"]},{"kind":"pair","tiles":["1B","1B"]},
            {"kind":"pair","tiles":["1C","1C"]}],"distinct":[["A","B","C"]]}]}`

func cardReq(hand, win string, tsumo bool) *scoring.Request {
	var card map[string]any
	if err := json.Unmarshal([]byte(testCard), &card); err != nil {
		panic(err)
	}
	r := req(hand, win, tsumo)
	r.Options = map[string]any{"card": card}
	return r
}

func TestSuppliedCard(t *testing.T) {
	// 333 4444 555 in dots with the white dragon (dots' dragon) kong.
	wantValue(t, cardReq("3334444555p5555z", "5p", true), "run", 50, 300, 0)
	// Same with the green dragon: bams' dragon, so dots fail.
	wantError(t, cardReq("3334444555p6666z", "5p", true), scoring.CodeNotAWin, "")
	// Quints need jokers: five 5s exist only with one.
	wantValue(t, cardReq("5555s4444z12345f9j", "9j", true), "quint", 40, 240, 1)
	// Singles and Pairs: no jokers, and no jokerless double.
	b := wantValue(t, cardReq("11m11p11s11223344z", "4z", false), "sp", 50, 200, 0)
	if b.JokerlessDouble {
		t.Fatal("Singles and Pairs hands do not double when jokerless")
	}
	wantError(t, cardReq("11m11p11s1122334z9j", "4z", false), scoring.CodeNotAWin, "joker cannot stand")
}

func TestCardValidation(t *testing.T) {
	bad := map[string]string{
		`{}`: "format",
		`{"format":"mjscan-card/1","card":"x","hands":[]}`:                                                                          "1 to 500",
		`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":5,"groups":[{"kind":"kong","tiles":["F","F","F","F"]}]}]}`: "14",
		`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":5,"groups":[{"kind":"pair","tiles":["F","N"]}]}]}`:         "one tile repeated",
		`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":5,"groups":[{"kind":"trio","tiles":["F"]}]}]}`:             "kind",
		`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":5,"groups":[{"kind":"single","tiles":["Q"]}]}]}`:           "token",
		`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":0,"groups":[]}]}`:                                          "value",
		`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":5,"colour":"red","groups":[]}]}`:                           "unknown field",
	}
	for doc, want := range bad {
		if _, err := american.ParseCard("x", []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error mentioning %q, got %v", doc, want, err)
		}
	}
	cards, err := american.Cards()
	if err != nil {
		t.Fatalf("shipped cards: %v", err)
	}
	c := cards[american.DefaultCard]
	if c == nil || len(c.Lines) != 4 {
		t.Fatalf("sample card: want 4 lines, got %+v", c)
	}
	if got := c.Lines[0].String(); got != "N EE WWW SSSS [2A 0 1A 3A] X25" {
		t.Errorf("line 1 prints as %q", got)
	}
}

// FuzzParseCard: no card document, however broken, panics the loader, and
// every card it accepts has lines of 14 tiles that can be matched.
func FuzzParseCard(f *testing.F) {
	f.Add([]byte(testCard))
	f.Add([]byte(`{"format":"mjscan-card/1","card":"x","hands":[{"id":"a","value":5,"groups":[{"kind":"singles","tiles":["1A","2B","3C","nD","n+1A","D@A","DX","0","F","N","E","W","S","F"]}],"numbers":{"n":[1,8]},"distinct":[["A","B"]]}]}`))
	f.Add([]byte(`{"format":"mjscan-card/1"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := american.ParseCard("fuzz", data)
		if err != nil {
			return
		}
		for _, l := range c.Lines {
			n := 0
			for _, g := range l.Groups {
				n += len(g.Tokens)
			}
			if n != 14 {
				t.Fatalf("accepted line %s with %d tiles", l.ID, n)
			}
			_ = l.String()
		}
		r := req("2222m13m5555z1234f", "3m", false)
		var doc map[string]any
		if json.Unmarshal(data, &doc) == nil {
			r.Options["card"] = doc
			american.American.Score(r)
		}
	})
}

func FuzzParseToken(f *testing.F) {
	for _, s := range []string{"F", "0", "N", "DX", "D@A", "5A", "nB", "n+2C", "n-1A", "", "D@", "9j"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := american.ParseToken(s)
		if err == nil && tok.Text != s {
			t.Fatalf("token %q read back as %q", s, tok.Text)
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
