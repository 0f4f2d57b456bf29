package classical

import (
	"mjscan/scoring"
)

// resolveMelds checks each called or declared set and lists the sets it can
// be: one for natural tiles, several when jokers in it could stand for more
// than one tile.
func resolveMelds(ms []scoring.Meld, allow JokerRule, jokers *[scoring.NumTiles]int) ([][]set, *scoring.Error) {
	out := make([][]set, 0, len(ms))
	for i, m := range ms {
		opts, err := resolveMeld(i, m, allow, jokers)
		if err != nil {
			return nil, err
		}
		out = append(out, opts)
	}
	return out, nil
}

func resolveMeld(i int, m scoring.Meld, allow JokerRule, jokers *[scoring.NumTiles]int) ([]set, *scoring.Error) {
	want, kind := 3, scoring.Pung
	switch {
	case m.Type == scoring.Chi:
		kind = scoring.Chow
	case m.IsKong():
		want, kind = 4, scoring.Kong
	}
	if len(m.Tiles) != want {
		return nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a %s has %d tiles, got %d (%s)", i, m.Type, want, len(m.Tiles), scoring.FormatTiles(m.Tiles))
	}
	var nat, wild []scoring.Tile
	for _, t := range m.Tiles {
		switch {
		case t.Playing():
			nat = append(nat, t.Kind())
		case t.IsJoker() && allow != nil && t < scoring.Joker1+7:
			wild = append(wild, t)
			jokers[t]++
		default:
			return nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %s cannot be part of a %s", i, t, m.Type)
		}
	}
	stands := func(t scoring.Tile) bool {
		for _, j := range wild {
			if !allow(j, t) {
				return false
			}
		}
		return true
	}
	mk := func(lo scoring.Tile, as []scoring.Tile) set {
		s := set{kind: kind, tile: lo, meld: i, open: m.Open()}
		n := 0
		for _, t := range as {
			if n < len(nat) && containsTile(nat, t) && countIn(s.slots, t) < countIn2(nat, t) {
				s.slots = append(s.slots, slot{t, t})
				n++
				continue
			}
			s.slots = append(s.slots, slot{wild[len(s.slots)-n], t})
		}
		return s
	}
	var opts []set
	if kind == scoring.Chow {
		for lo := scoring.Tile(0); lo < 27; lo++ {
			if lo%9 > 6 {
				continue
			}
			run := []scoring.Tile{lo, lo + 1, lo + 2}
			if !fitsRun(nat, run) {
				continue
			}
			ok := true
			for _, t := range run {
				if countIn2(nat, t) == 0 && !stands(t) {
					ok = false
				}
			}
			if ok {
				opts = append(opts, mk(lo, run))
			}
		}
		if len(opts) == 0 {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %s is not three consecutive tiles of one suit (jokers stand only for tiles of their class)", i, scoring.FormatTiles(m.Tiles))
		}
		return opts, nil
	}
	for _, t := range nat[min(1, len(nat)):] {
		if t != nat[0] {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a %s is one tile repeated, got %s", i, m.Type, scoring.FormatTiles(m.Tiles))
		}
	}
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if len(nat) > 0 && t != nat[0] {
			continue
		}
		if !stands(t) {
			continue
		}
		as := make([]scoring.Tile, want)
		for k := range as {
			as[k] = t
		}
		opts = append(opts, mk(t, as))
	}
	if len(opts) == 0 {
		return nil, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a joker in %s cannot stand for %s: %s", i, scoring.FormatTiles(m.Tiles), nat[0], JokerClass(wild[0], false))
	}
	return opts, nil
}

// fitsRun reports whether the natural tiles are distinct members of run.
func fitsRun(nat, run []scoring.Tile) bool {
	for k, t := range nat {
		if !containsTile(run, t) || countIn2(nat[:k], t) > 0 {
			return false
		}
	}
	return true
}

func containsTile(ts []scoring.Tile, t scoring.Tile) bool { return countIn2(ts, t) > 0 }

func countIn2(ts []scoring.Tile, t scoring.Tile) int {
	n := 0
	for _, x := range ts {
		if x == t {
			n++
		}
	}
	return n
}

func countIn(sl []slot, t scoring.Tile) int {
	n := 0
	for _, s := range sl {
		if s.tile == t {
			n++
		}
	}
	return n
}
