package mcr

// The wait fans (Edge, Closed, Single Wait) need the hand to have waited on
// one tile only. These functions list what the concealed tiles waited on,
// exactly as the reference calculator does: they strip sets in ascending
// order down to a pair plus two tiles, or one tile, and read the wait off
// what is left. Counts are uint8 and may wrap below zero when the winning
// tile was already taken out (a knitted straight): the reference behaves
// the same way with its own unsigned counts, and the corpora rest on it.

// waitSet collects the kinds waited on; two are enough to know the wait
// is not unique, so the search stops there.
type waitSet struct {
	on    [tableSize]bool
	n     int
	prune bool
}

func (w *waitSet) add(t tile) {
	if !w.on[t] {
		w.on[t] = true
		w.n++
	}
}

func (w *waitSet) done() bool { return w.n > 1 }

// uniqueWait reports whether the n concealed tiles other than the winning
// tile waited on exactly one kind.
func uniqueWait(tab *counts, n int, win tile) bool {
	var w waitSet
	// With the winning tile really in tab, no count wraps and dead
	// branches can be cut (see regularWaits).
	w.prune = tab[win] > 0
	tab[win]--
	if n == 13 {
		sevenPairsWaits(tab, &w)
	}
	regularWaits(tab, n, 0, true, 0, &w)
	tab[win]++
	return w.n == 1
}

func sevenPairsWaits(tab *counts, w *waitSet) {
	pairs := 0
	for _, t := range allTiles {
		switch tab[t] {
		case 2, 3:
			pairs++
		case 4:
			pairs += 2
		}
	}
	if pairs != 6 {
		return
	}
	for _, t := range allTiles {
		if tab[t] == 1 || tab[t] == 3 {
			w.add(t)
			return
		}
	}
}

// partialWaits reads the wait of two tiles left beside a pair: a second
// pair (dual pung), or a partial chow.
func partialWaits(tab *counts, w *waitSet) {
	for _, t := range allTiles {
		if tab[t] < 1 {
			continue
		}
		if tab[t] > 1 {
			w.add(t)
			return
		}
		if t.numbered() {
			r := t.rank()
			if r > 1 && tab[t-1] > 0 {
				if r < 9 {
					w.add(t + 1)
				}
				if r > 2 {
					w.add(t - 2)
				}
				return
			}
			if r > 2 && tab[t-2] > 0 {
				w.add(t - 1)
				return
			}
		}
	}
}

// regularWaits strips sets in ascending order (see divideFrom) down to
// four tiles (a pair and a partial set, or a set and a single tile) or one.
// Tiles passed over (stranded) stay to the end, so a branch stranding more
// than the end can hold is cut, unless counts may have wrapped.
func regularWaits(tab *counts, n, from int, pungOK bool, stranded int, w *waitSet) {
	if w.done() {
		return
	}
	if n == 1 {
		for _, t := range allTiles {
			if tab[t] == 1 {
				w.add(t)
				return
			}
		}
		return
	}
	if n == 4 {
		for _, t := range allTiles {
			if tab[t] < 2 {
				continue
			}
			tab[t] -= 2
			partialWaits(tab, w)
			tab[t] += 2
		}
	}
	limit := 4 // what the four-tile end can hold
	if n == 4 {
		limit = 1 // below here the end is one tile
	}
	for i := from; i < len(allTiles) && !w.done(); i++ {
		t := allTiles[i]
		c := tab[t]
		if c < 1 {
			continue
		}
		if c > 2 && (i > from || pungOK) {
			tab[t] -= 3
			regularWaits(tab, n-3, i, false, stranded, w)
			tab[t] += 3
		}
		if i < 27 && t.rank() < 8 && tab[t+1] > 0 && tab[t+2] > 0 {
			tab[t]--
			tab[t+1]--
			tab[t+2]--
			regularWaits(tab, n-3, i, false, stranded, w)
			tab[t]++
			tab[t+1]++
			tab[t+2]++
		}
		if w.prune {
			if stranded += int(c); stranded > limit {
				return
			}
		}
	}
}
