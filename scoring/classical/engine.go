package classical

import (
	"fmt"

	"mjscan/scoring"
)

// Classical is Chinese Classical mahjong ("classical").
var Classical = scoring.NewEngine(scoring.RuleSet[Rules, Win]{
	Name: "classical", Presets: Presets, Default: "default", Options: options,
	WithOptions: Rules.WithOptions, Read: Read, Score: Score,
})

// Win is a request as the classical table reads it: the winner's hand,
// whether the round wind is played (seed 000 says some classical games had
// none, and then the round-wind items are ignored, CLASSICAL.md §1), and
// the losers' hands for the whole-table settlement (extra.players; may be
// empty).
type Win struct {
	Hand      *scoring.Hand
	RoundWind bool
	Players   []scoring.Request
}

// Read reads a classical request.
func Read(r *scoring.Request) (Win, *scoring.Error) {
	h, err := scoring.ParseHand(r)
	if err != nil {
		return Win{}, err
	}
	w := Win{Hand: h, RoundWind: r.RoundWind != ""}
	if r.Extra != nil {
		w.Players = r.Extra.Players
	}
	return w, nil
}

// Score scores a read winning hand under rules: the reading that scores
// most, and the settlement when the losers' hands are given.
func Score(w Win, rules *Rules) scoring.Result {
	h := w.Hand
	f := &facts{h: h, rules: rules, round: w.RoundWind, waits: map[waitKey]int{}, dealer: h.Dealer()}
	in, err := f.check()
	if err != nil {
		return scoring.Result{Error: err}
	}
	f.bonus = in.bonus
	var table []loser
	if len(w.Players) > 0 {
		if rules.WinnerOnly {
			return scoring.Result{Error: scoring.Errorf(scoring.CodeBadRequest,
				"this rule set scores only the winner's hand (seed 000): leave extra.players empty")}
		}
		if table, err = f.losers(w.Players, in); err != nil {
			return scoring.Result{Error: err}
		}
	}
	best := scoring.Best[eval]{Better: better}
	refused := 0
	f.arrangements(in, rules.Jokers, func(a arrangement) {
		for _, r := range f.readings(&a) {
			if !f.allowed(r) {
				refused++
				continue
			}
			e := f.evaluate(r)
			best.Add(&e)
		}
	})
	e := best.Chosen()
	if e == nil {
		return scoring.Result{Error: f.whyNot(in, refused)}
	}
	return f.result(e, best.All(), table)
}

// input is the validated hand: natural tiles, wilds, bonus tiles, and the
// possible readings of each meld.
type input struct {
	naturals scoring.Counts
	wilds    []wild
	bonus    []scoring.Tile
	melds    [][]set // per meld, every set it can be (several only with jokers)
}

func (f *facts) check() (*input, *scoring.Error) {
	h, rules := f.h, f.rules
	in := &input{}
	switch {
	case h.Chankan && h.Tsumo:
		return nil, scoring.Errorf(scoring.CodeBadRequest, "robbing a kong is a win on another player's tile, not a self-draw: unset tsumo or chankan")
	case (h.Rinshan || h.DoubleKong) && !h.Tsumo:
		return nil, scoring.Errorf(scoring.CodeBadRequest, "a kong replacement tile is self-drawn: set tsumo")
	case h.Haitei && !h.Tsumo:
		return nil, scoring.Errorf(scoring.CodeBadRequest, "haitei is the self-drawn last wall tile: set tsumo (houtei is the last discard)")
	case h.Houtei && h.Tsumo:
		return nil, scoring.Errorf(scoring.CodeBadRequest, "houtei is a win on the last discard, not a self-draw")
	case h.Tenhou && (!h.Dealer() || !h.Tsumo):
		return nil, scoring.Errorf(scoring.CodeBadRequest, "Gift of Heaven (tenhou) is East's self-drawn win on the deal: set seat_wind E and tsumo")
	case h.Chiihou && h.Dealer():
		return nil, scoring.Errorf(scoring.CodeBadRequest, "chiihou is a non-dealer's win at the first turn: the seat wind cannot be East")
	case h.Renhou && (h.Dealer() || h.Tsumo):
		return nil, scoring.Errorf(scoring.CodeBadRequest, "renhou is a non-dealer's win on a discard before the first draw")
	}
	var jokerCopies [scoring.NumTiles]int
	for _, t := range h.Concealed {
		switch {
		case t.Playing():
			in.naturals[t.Kind()]++
		case t.IsJoker() && rules.Jokers != nil && t != scoring.Joker1+8:
			jokerCopies[t]++
			if t == scoring.Joker1+7 && !(h.Win == t && !h.Tsumo && rules.BonusWinsDiscard) {
				return nil, scoring.Errorf(scoring.CodeBadRequest, "the flower joker 8j stands only for a bonus tile: lay it aside in \"flowers\" (only as a claimed winning discard does it stand for any tile)")
			}
			in.addWild(t, t == scoring.Joker1+7)
		case t.IsBonus() && rules.BonusWinsDiscard && h.Win == t && !h.Tsumo:
			in.addWild(t, true)
		case t.IsBonus():
			return nil, scoring.Errorf(scoring.CodeBadRequest, "%s is a bonus tile: it goes in \"flowers\", not in the hand", t)
		case t.IsJoker():
			return nil, scoring.Errorf(scoring.CodeBadRequest, "%s is a joker, and %s has no jokers in sets", t, rulesLabel(rules))
		default:
			return nil, scoring.Errorf(scoring.CodeBadRequest, "%s (a face-down tile) cannot be scored: give every tile", t)
		}
	}
	if n := len(h.Concealed) + 3*len(h.Melds); n != 14 {
		return nil, scoring.Errorf(scoring.CodeWrongTileCount, "the hand holds %d tiles counting each meld as three; a winning hand holds 14 (concealed tiles with the winning tile, plus 3 per meld)", n)
	}
	if len(h.Melds) > 4 {
		return nil, scoring.Errorf(scoring.CodeBadRequest, "%d melds: a hand has at most four sets", len(h.Melds))
	}
	if e := h.CheckCopies(false); e != nil {
		return nil, e
	}
	var seen [scoring.NumTiles]bool
	for _, t := range h.Flowers {
		switch {
		case t >= scoring.Flower1 && t < scoring.King1:
			if !rules.BonusTiles {
				return nil, scoring.Errorf(scoring.CodeBadRequest, "%s: flowers and seasons are not used under %s (option bonus_tiles turns them on)", t, rulesLabel(rules))
			}
		case t.IsBonus():
			if !rules.KingsQueens {
				return nil, scoring.Errorf(scoring.CodeBadRequest, "%s: kings and queens are Vietnamese bonus tiles; %s has none", t, rulesLabel(rules))
			}
		case t.IsJoker() && t != scoring.Joker1+8:
			if !rules.JokersAsBonus {
				return nil, scoring.Errorf(scoring.CodeBadRequest, "%s: %s has no jokers to lay aside", t, rulesLabel(rules))
			}
			jokerCopies[t]++
			continue
		default:
			return nil, scoring.Errorf(scoring.CodeBadRequest, "%s is not a bonus tile: \"flowers\" holds only the bonus tiles laid aside", t)
		}
		if seen[t] {
			return nil, scoring.Errorf(scoring.CodeTooManyCopies, "%s appears twice: there is one of each bonus tile", t)
		}
		seen[t] = true
	}
	in.bonus = h.Flowers
	if rules.BonusWinsDiscard && h.Win.IsBonus() && seen[h.Win] {
		return nil, scoring.Errorf(scoring.CodeTooManyCopies, "%s is both the winning tile and laid aside: there is one of each bonus tile", h.Win)
	}
	melds, err := resolveMelds(h.Melds, rules.Jokers, &jokerCopies)
	if err != nil {
		return nil, err
	}
	in.melds = melds
	for j, n := range jokerCopies {
		if n > maxJokerCopies {
			return nil, scoring.Errorf(scoring.CodeTooManyCopies, "%d copies of the joker %s: modern sets hold three of each", n, scoring.Tile(j))
		}
	}
	return in, nil
}

// maxJokerCopies: seed 000, "In modern Vietnamese Mahjong sets, three
// copies of each Joker are used."
const maxJokerCopies = 3

func (in *input) addWild(t scoring.Tile, any bool) {
	for i := range in.wilds {
		if in.wilds[i].tile == t && in.wilds[i].any == any {
			in.wilds[i].n++
			return
		}
	}
	in.wilds = append(in.wilds, wild{tile: t, any: any, n: 1})
}

func rulesLabel(rules *Rules) string {
	if rules.Jokers != nil {
		return "this rule set"
	}
	return "Chinese Classical"
}

// arrangements runs the search for every combination of meld readings.
func (f *facts) arrangements(in *input, allow JokerRule, out func(arrangement)) {
	budget, steps := maxArrangements, maxSteps
	var fixed []set
	var walk func(i int)
	walk = func(i int) {
		if i < len(in.melds) {
			for _, s := range in.melds[i] {
				fixed = append(fixed, s)
				walk(i + 1)
				fixed = fixed[:len(fixed)-1]
			}
			return
		}
		s := &searcher{c: in.naturals, allow: allow, need: 4 - len(in.melds), out: out, budget: budget, steps: steps,
			wilds: append([]wild(nil), in.wilds...), melds: append([]set(nil), fixed...)}
		for t, n := range in.naturals {
			s.used[t] += n
		}
		for _, m := range fixed {
			for _, sl := range m.slots {
				s.used[sl.as]++
			}
		}
		for _, n := range s.used {
			if n > 4 {
				return // jokers in melds cannot stand for a fifth copy
			}
		}
		if len(in.melds) == 0 {
			s.thirteenOrphans()
		}
		s.run()
		budget, steps = s.budget, s.steps
		f.truncated = f.truncated || s.truncated
	}
	walk(0)
}

// readings lists, for an arrangement, each concealed set that may hold the
// winning tile.
func (f *facts) readings(a *arrangement) []reading {
	win := f.h.Win
	if win.Playing() {
		win = win.Kind()
	}
	var out []reading
	for i := range a.sets {
		s := &a.sets[i]
		if s.meld >= 0 {
			continue
		}
		seen := map[scoring.Tile]bool{}
		for _, sl := range s.slots {
			if sl.tile == win && !seen[sl.as] {
				seen[sl.as] = true
				out = append(out, reading{a: a, win: i, winAs: sl.as})
			}
		}
	}
	return out
}

// whyNot explains a hand that does not win.
func (f *facts) whyNot(in *input, refused int) *scoring.Error {
	if refused > 0 && f.h.Chankan && f.rules.RobHiddenKongOnlyOrphans && f.rules.RobbedKongConcealed {
		return scoring.Errorf(scoring.CodeNotAWin, "a concealed kong may be robbed only to complete Thirteen Orphans (seed 001)")
	}
	if refused > 0 {
		return scoring.Errorf(scoring.CodeNotAWin,
			"the hand is complete, but a discard may be claimed to win only when it completes a pung (seed 000), and %s does not: "+
				"win by self-draw, or set options.discard_win_pung_only=false", f.h.Win)
	}
	if len(in.wilds) > 0 {
		found := false
		f.arrangements(in, func(_, _ scoring.Tile) bool { return true }, func(arrangement) { found = true })
		if found {
			return scoring.Errorf(scoring.CodeNotAWin,
				"the hand would be complete only if a joker stood outside its class (%s): a joker may stand only for the tiles of its class", jokerClasses(in.wilds))
		}
	}
	c := in.naturals
	return scoring.Errorf(scoring.CodeNotAWin, "the hand is not four sets and a pair (or Thirteen Orphans): %s%s", scoring.FormatTiles(f.h.Concealed), meldText(f.h.Melds, c))
}

func meldText(ms []scoring.Meld, _ scoring.Counts) string {
	s := ""
	for _, m := range ms {
		s += " + " + scoring.FormatTiles(m.Tiles)
	}
	return s
}

func jokerClasses(ws []wild) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("%s: %s", w.tile, JokerClass(w.tile, w.any))
	}
	return out
}

// JokerClass says in words what a Vietnamese joker stands for.
func JokerClass(t scoring.Tile, any bool) string {
	if any {
		return "any tile (a claimed discard)"
	}
	switch t {
	case scoring.Joker1:
		return "any tile"
	case scoring.Joker1 + 1:
		return "any dots tile"
	case scoring.Joker1 + 2:
		return "any bamboo tile"
	case scoring.Joker1 + 3:
		return "any characters tile"
	case scoring.Joker1 + 4:
		return "any suited tile"
	case scoring.Joker1 + 5:
		return "any wind"
	case scoring.Joker1 + 6:
		return "any dragon"
	case scoring.Joker1 + 7:
		return "a bonus tile only"
	}
	return "nothing"
}
