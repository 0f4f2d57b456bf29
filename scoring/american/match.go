package american

import (
	"fmt"
	"strings"

	"mjscan/scoring"
)

// Tiles as the matcher counts them: the 34 playing kinds, every bonus
// tile as one kind (seed 000: American flowers are all alike), and the joker.
const (
	kindFlower = scoring.NumKinds
	kindJoker  = scoring.NumKinds + 1
	numKinds   = scoring.NumKinds + 2
)

type counts [numKinds]int

func kindOf(t scoring.Tile) (int, bool) {
	switch {
	case t.Playing():
		return int(t.Kind()), true
	case t >= scoring.Flower1 && t < scoring.King1:
		return kindFlower, true
	case t == scoring.Joker1+8:
		return kindJoker, true
	}
	return 0, false
}

func kindName(k int) string {
	switch k {
	case kindFlower:
		return "F"
	case kindJoker:
		return "9j"
	}
	return scoring.Tile(k).String()
}

// exposure is one exposed group of the hand: a natural tile repeated, with
// jokers.
type exposure struct {
	kind   int
	size   int
	jokers int
}

// binding gives each variable of a line its value.
type binding struct {
	suit   map[string]int          // suit variable → 0 man, 1 pin, 2 sou
	dragon map[string]scoring.Tile // dragon variable → 5z/6z/7z
	number map[string]int
}

var suitDragon = [3]scoring.Tile{scoring.Red, scoring.White, scoring.Green} // craks red, dots white, bams green

// tile is the kind a token stands for under b; ok is false when a number
// runs off the suit.
func (b *binding) tile(t Token) (int, bool) {
	switch t.Kind {
	case TokFlower:
		return kindFlower, true
	case TokZero:
		return int(scoring.White), true
	case TokWind:
		return int(t.Wind), true
	case TokDragon:
		return int(b.dragon[t.Var]), true
	case TokDragonOfSuit:
		return int(suitDragon[b.suit[t.Var]]), true
	case TokNumber:
		n := t.Num
		if t.NumVar != "" {
			n = b.number[t.NumVar] + t.Offset
		}
		if n < 1 || n > 9 {
			return 0, false
		}
		return b.suit[t.Var]*9 + n - 1, true
	}
	return 0, false
}

// bindings calls fn for every binding of the line's variables that keeps
// the distinct lists distinct; fn returns false to stop.
func (l *Line) bindings(fn func(b *binding) bool) {
	b := &binding{suit: map[string]int{}, dragon: map[string]scoring.Tile{}, number: map[string]int{}}
	type choice struct {
		set  func(i int)
		opts int
		lo   int
	}
	var cs []choice
	for _, v := range l.suitVars {
		v := v
		cs = append(cs, choice{func(i int) { b.suit[v] = i }, 3, 0})
	}
	for _, v := range l.dragonVars {
		v := v
		cs = append(cs, choice{func(i int) { b.dragon[v] = scoring.White + scoring.Tile(i) }, 3, 0})
	}
	for _, v := range l.numVars {
		v := v
		r := l.Numbers[v]
		cs = append(cs, choice{func(i int) { b.number[v] = i }, r[1] - r[0] + 1, r[0]})
	}
	value := func(v string) string {
		if d, ok := b.dragon[v]; ok {
			return d.String()
		}
		return fmt.Sprint(b.suit[v])
	}
	var walk func(i int) bool
	walk = func(i int) bool {
		if i == len(cs) {
			for _, d := range l.Distinct {
				seen := map[string]bool{}
				for _, v := range d {
					if seen[value(v)] {
						return true
					}
					seen[value(v)] = true
				}
			}
			return fn(b)
		}
		for k := 0; k < cs[i].opts; k++ {
			cs[i].set(cs[i].lo + k)
			if !walk(i + 1) {
				return false
			}
		}
		return true
	}
	walk(0)
}

// concrete is a line's group under a binding.
type concrete struct {
	g     *Group
	kinds []int
}

// match is a line that the hand fits, with how it fits.
type match struct {
	line    *Line
	groups  []concrete
	exposed []int // per exposure, the group index it fills
	jokers  []int // per group, jokers standing in it
}

// matchOptions relax the rules to explain a refusal.
type matchOptions struct {
	jokersAnywhere   bool // let jokers stand in singles and pairs
	ignoreConcealed  bool // let a C line take exposures
	countExposedOnly bool
}

// fit tries the line against the hand: concealed counts (jokers included)
// and exposures.
func (l *Line) fit(conc counts, exps []exposure, opt matchOptions) *match {
	if l.Concealed && len(exps) > 0 && !opt.ignoreConcealed {
		return nil
	}
	var found *match
	l.bindings(func(b *binding) bool {
		groups := make([]concrete, 0, len(l.Groups))
		for gi := range l.Groups {
			g := &l.Groups[gi]
			c := concrete{g: g}
			for _, t := range g.Tokens {
				k, ok := b.tile(t)
				if !ok {
					return true
				}
				c.kinds = append(c.kinds, k)
			}
			groups = append(groups, c)
		}
		m := &match{line: l, groups: groups, exposed: make([]int, len(exps)), jokers: make([]int, len(groups))}
		used := make([]bool, len(groups))
		var assign func(e int) bool
		assign = func(e int) bool {
			if e == len(exps) {
				return fillConcealed(m, used, conc, opt)
			}
			x := exps[e]
			for gi, g := range groups {
				if used[gi] || !g.g.Kind.JokersAllowed() || len(g.kinds) != x.size || g.kinds[0] != x.kind {
					continue
				}
				used[gi] = true
				m.exposed[e] = gi
				m.jokers[gi] = x.jokers
				if assign(e + 1) {
					return true
				}
				m.jokers[gi] = 0
				used[gi] = false
			}
			return false
		}
		if assign(0) {
			found = m
			return false
		}
		return true
	})
	return found
}

// fillConcealed checks that the concealed tiles fill the groups no exposure
// took: naturals where the card prints them, jokers only in groups that
// allow them, nothing left over.
func fillConcealed(m *match, exposed []bool, conc counts, opt matchOptions) bool {
	var need, wild counts
	for gi, g := range m.groups {
		if exposed[gi] {
			continue
		}
		for _, k := range g.kinds {
			need[k]++
			if g.g.Kind.JokersAllowed() || opt.jokersAnywhere {
				wild[k]++
			}
		}
	}
	jokers := conc[kindJoker]
	short := 0
	for k := 0; k < kindJoker; k++ {
		if conc[k] > need[k] {
			return false
		}
		d := need[k] - conc[k]
		if d > wild[k] {
			return false
		}
		short += d
	}
	if short != jokers {
		return false
	}
	// Place the jokers in the groups, for the breakdown.
	left := counts{}
	for k := 0; k < kindJoker; k++ {
		left[k] = need[k] - conc[k]
	}
	for gi, g := range m.groups {
		if exposed[gi] || !(g.g.Kind.JokersAllowed() || opt.jokersAnywhere) {
			continue
		}
		for _, k := range g.kinds {
			if left[k] > 0 {
				left[k]--
				m.jokers[gi]++
			}
		}
	}
	return true
}

// misfit counts the tiles of the hand that a line cannot use under any
// binding, ignoring jokers and exposures: how far the hand is from it.
func (l *Line) misfit(all counts) int {
	best := handTiles
	l.bindings(func(b *binding) bool {
		var need counts
		for gi := range l.Groups {
			for _, t := range l.Groups[gi].Tokens {
				k, ok := b.tile(t)
				if !ok {
					return true
				}
				need[k]++
			}
		}
		off := 0
		for k := 0; k < kindJoker; k++ {
			off += max(0, all[k]-need[k])
		}
		best = min(best, off)
		return true
	})
	return best
}

// describe writes a matched group with its tiles and jokers: "222z+9j".
func (m *match) describe(gi int) string {
	g := m.groups[gi]
	nat := len(g.kinds) - m.jokers[gi]
	var b strings.Builder
	var ts []scoring.Tile
	for _, k := range g.kinds[:nat] {
		if k == kindFlower {
			b.WriteString("F")
			continue
		}
		ts = append(ts, scoring.Tile(k))
	}
	b.WriteString(scoring.FormatTiles(ts))
	for j := 0; j < m.jokers[gi]; j++ {
		b.WriteString("+9j")
	}
	return b.String()
}
