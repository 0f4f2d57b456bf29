package mcr

import (
	"sort"
	"strings"

	"mjscan/scoring"
)

// setString writes a group in CONTRACT codes; melded groups in
// parentheses, a concealed kong in brackets.
func setString(p pack) string {
	var ts []scoring.Tile
	switch p.kind {
	case kindChow:
		ts = []scoring.Tile{toScoring(p.tile - 1), toScoring(p.tile), toScoring(p.tile + 1)}
	case kindPung:
		t := toScoring(p.tile)
		ts = []scoring.Tile{t, t, t}
	case kindKong:
		t := toScoring(p.tile)
		ts = []scoring.Tile{t, t, t, t}
	case kindPair:
		t := toScoring(p.tile)
		ts = []scoring.Tile{t, t}
	}
	s := scoring.FormatTiles(ts)
	switch {
	case p.melded:
		return "(" + s + ")"
	case p.kind == kindKong:
		return "[" + s + "]"
	}
	return s
}

func countsString(c *counts) string {
	var ts []scoring.Tile
	for _, t := range allTiles {
		for k := uint8(0); k < c[t]; k++ {
			ts = append(ts, toScoring(t))
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] }) // CONTRACT order
	return scoring.FormatTiles(ts)
}

// arrangement writes a reading's groups.
func arrangement(hi *handInput, r *reading) string {
	switch r.form {
	case formRegular:
		parts := make([]string, 0, 5)
		for _, p := range r.packs {
			parts = append(parts, setString(p))
		}
		return strings.Join(parts, " ")
	case formKnittedStraight:
		var k counts
		for _, seq := range knittedStraights {
			all := true
			for _, t := range seq {
				if hi.standing[t] == 0 {
					all = false
				}
			}
			if all {
				for _, t := range seq {
					k[t]++
				}
				break
			}
		}
		return countsString(&k) + " " + setString(r.packs[3]) + " " + setString(r.packs[4])
	}
	return countsString(&hi.standing)
}

// fanSets names the groups that earned a fan, for the explanation. Fans of
// the whole hand return nil.
func fanSets(hi *handInput, r *reading, f Fan) []string {
	if r.form != formRegular && r.form != formKnittedStraight {
		return nil
	}
	p := &r.packs
	first := 0
	if r.form == formKnittedStraight {
		first = 3
	}
	var chows, pungs []pack
	for _, x := range p[first:4] {
		switch x.kind {
		case kindChow:
			chows = append(chows, x)
		case kindPung, kindKong:
			pungs = append(pungs, x)
		}
	}
	pair := p[4]
	join := func(ps ...pack) string {
		s := make([]string, len(ps))
		for i, x := range ps {
			s[i] = setString(x)
		}
		return strings.Join(s, " ")
	}
	var out []string
	n := int(r.fans[f])
	pairs := func(list []pack, fn func(a, b tile) Fan) {
		for i := 0; i < len(list) && len(out) < n; i++ {
			for j := i + 1; j < len(list) && len(out) < n; j++ {
				if fn(list[i].tile, list[j].tile) == f {
					out = append(out, join(list[i], list[j]))
				}
			}
		}
	}
	firstTriple := func(list []pack, fn func(a, b, c tile) Fan) {
		for i := 0; i < len(list); i++ {
			for j := i + 1; j < len(list); j++ {
				for k := j + 1; k < len(list); k++ {
					m := [3]tile{list[i].tile, list[j].tile, list[k].tile}
					sort3(&m)
					if fn(m[0], m[1], m[2]) == f {
						out = append(out, join(list[i], list[j], list[k]))
						return
					}
				}
			}
		}
	}
	switch f {
	case PureDoubleChow, MixedDoubleChow, ShortStraight, TwoTerminalChows:
		pairs(chows, twoChowsFan)
	case MixedShiftedChows, MixedTripleChow, MixedStraight, PureStraight, PureShiftedChows, PureTripleChow:
		firstTriple(chows, threeChowsFan)
	case QuadrupleChow, FourPureShiftedChows, ThreeSuitedTerminalChows, PureTerminalChows, AllChows:
		out = append(out, join(chows...))
	case DoublePung, TwoDragonPungs:
		pairs(pungs, twoPungsFan)
	case MixedShiftedPungs, TriplePung, PureShiftedPungs, BigThreeWinds, BigThreeDragons:
		firstTriple(pungs, threePungsFan)
	case BigFourWinds, FourPureShiftedPungs, AllPungs:
		out = append(out, join(pungs...))
	case LittleThreeDragons, LittleFourWinds:
		var ps []pack
		for _, x := range pungs {
			if (f == LittleThreeDragons && x.tile.dragon()) || (f == LittleFourWinds && x.tile.wind()) {
				ps = append(ps, x)
			}
		}
		out = append(out, join(append(ps, pair)...))
	case DragonPung, PungOfTerminalsOrHonors:
		for _, x := range pungs {
			if onePungFan(x.tile) == f {
				out = append(out, setString(x))
			}
		}
	case PrevalentWind, SeatWind:
		want := hi.round
		if f == SeatWind {
			want = hi.seat
		}
		for _, x := range pungs {
			if x.tile == tEast+tile(want) {
				out = append(out, setString(x))
			}
		}
	case MeldedKong, ConcealedKong, TwoMeldedKongs, TwoConcealedKongs, ThreeKongs, FourKongs:
		for _, x := range pungs {
			if x.kind == kindKong && (f == ThreeKongs || f == FourKongs ||
				(x.melded == (f == MeldedKong || f == TwoMeldedKongs))) {
				out = append(out, setString(x))
			}
		}
	case TwoConcealedPungs, ThreeConcealedPungs, FourConcealedPungs:
		for _, x := range pungs {
			if !x.melded {
				out = append(out, setString(x))
			}
		}
	case TileHog:
		for _, t := range allTiles {
			if hi.standing[t]+hi.fixedTable[t] == 4 {
				out = append(out, "four "+toScoring(t).String())
			}
		}
	case EdgeWait, ClosedWait, SingleWait:
		for _, x := range p[hi.nFixed:] {
			if !x.melded && (x.kind == kindPair && x.tile == hi.win || x.kind == kindChow && x.tile-1 <= hi.win && hi.win <= x.tile+1) {
				out = append(out, setString(x)+" won on "+hi.win.String())
				break
			}
		}
	}
	return out
}
