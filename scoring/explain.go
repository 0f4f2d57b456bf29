package scoring

import (
	"fmt"
	"strings"
)

// NotAWin explains a hand that does not win: without its winning tile, how
// far the hand is from ready, and the tiles it waits on (with their shapes)
// or the tiles that would bring it closer. forms names the winning shapes
// of the rule set ("four sets and a pair, or seven pairs"); note, when set,
// is added at the end (what declaring it costs under the rule set).
func NotAWin(h *Hand, forms, note string) Result {
	c := h.Counts()
	if k := h.Win.Kind(); k < NumKinds && c[k] > 0 {
		c[k]--
	}
	melds := len(h.Melds)
	sh := Shanten(&c, melds)
	res := Result{Shanten: &sh}
	var msg string
	if sh == 0 {
		var ws []string
		for _, w := range WaitShapes(&c) {
			var shapes []string
			for _, s := range w.Shapes {
				shapes = append(shapes, s.String())
			}
			ws = append(ws, fmt.Sprintf("%s (%s)", w.Tile, strings.Join(shapes, ", ")))
		}
		res.Waits = FormatTiles(Waits(&c))
		msg = fmt.Sprintf("the hand is not complete with %s (a win is %s): without it the hand is ready (tenpai) and waits on %s", h.Win, forms, strings.Join(ws, ", "))
	} else {
		res.Waits = FormatTiles(Improvements(&c, melds))
		msg = fmt.Sprintf("the hand is not complete (a win is %s): without %s it is %d tile(s) from ready (shanten %d); %s would bring it closer", forms, h.Win, sh, sh, res.Waits)
	}
	if note != "" {
		msg += "; " + note
	}
	res.Error = Errorf(CodeNotAWin, "%s", msg)
	return res
}
