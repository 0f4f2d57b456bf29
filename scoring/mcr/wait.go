package mcr

// The wait fans (Edge, Closed, Single Wait) need the hand to have waited on
// one tile only. These functions list what the concealed tiles waited on,
// exactly as the reference calculator does: they strip sets in ascending
// order down to a pair plus two tiles, or one tile, and read the wait off
// what is left. Counts are uint8 and may wrap below zero when the winning
// tile was already taken out (a knitted straight): the reference behaves
// the same way with its own unsigned counts, and the corpora rest on it.

type waitSet [tableSize]bool

// uniqueWait reports whether the n concealed tiles other than the winning
// tile waited on exactly one kind.
func uniqueWait(tab *counts, n int, win tile) bool {
	var w waitSet
	tab[win]--
	if n == 13 {
		sevenPairsWaits(tab, &w)
	}
	regularWaits(tab, n, 0, &w)
	tab[win]++
	found := false
	for _, t := range allTiles {
		if w[t] {
			if found {
				return false
			}
			found = true
		}
	}
	return found
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
			w[t] = true
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
			w[t] = true
			return
		}
		if t.numbered() {
			r := t.rank()
			if r > 1 && tab[t-1] > 0 {
				if r < 9 {
					w[t+1] = true
				}
				if r > 2 {
					w[t-2] = true
				}
				return
			}
			if r > 2 && tab[t-2] > 0 {
				w[t-1] = true
				return
			}
		}
	}
}

func regularWaits(tab *counts, n int, prev uint32, w *waitSet) {
	if n == 1 {
		for _, t := range allTiles {
			if tab[t] == 1 {
				w[t] = true
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
	for _, t := range allTiles {
		if tab[t] < 1 {
			continue
		}
		if tab[t] > 2 {
			if e := eigen(t, t, t); e > prev {
				tab[t] -= 3
				regularWaits(tab, n-3, e, w)
				tab[t] += 3
			}
		}
		if t.numbered() && t.rank() < 8 && tab[t+1] > 0 && tab[t+2] > 0 {
			if e := eigen(t, t+1, t+2); e >= prev {
				tab[t]--
				tab[t+1]--
				tab[t+2]--
				regularWaits(tab, n-3, e, w)
				tab[t]++
				tab[t+1]++
				tab[t+2]++
			}
		}
	}
}
