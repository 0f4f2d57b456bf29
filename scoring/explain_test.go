package scoring

import (
	"strings"
	"testing"
)

func TestNotAWinExplains(t *testing.T) {
	hand := func(s, win string) *Hand {
		ts, err := ParseTiles(s)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := ParseTile(win)
		return &Hand{Concealed: ts, Win: w}
	}
	// Ready without the 9m: waits on 1m, 4m, 7m, all two-sided.
	r := NotAWin(hand("23456m11p123456s9m", "9m"), "four sets and a pair", "")
	if r.OK || r.Error.Code != CodeNotAWin || *r.Shanten != 0 || r.Waits != "147m" ||
		!strings.Contains(r.Error.Message, "4m (two-sided)") {
		t.Errorf("tenpai: %+v %s", r, r.Error.Message)
	}
	// One away: the message names the tiles that bring it closer, and the note.
	r = NotAWin(hand("23456m11p123457s9m", "9m"), "four sets and a pair", "declaring it is a false win")
	if *r.Shanten != 1 || r.Waits == "" || !strings.HasSuffix(r.Error.Message, "declaring it is a false win") {
		t.Errorf("one-shanten: %+v %s", r, r.Error.Message)
	}
}
