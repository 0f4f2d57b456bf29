package scoring

// Shanten is how many tiles c (with melds sets already called) is from
// ready: 0 is ready (tenpai), -1 a complete hand. It takes the best of the
// standard shape, seven pairs and thirteen orphans (the last two only for a
// hand with no melds).
func Shanten(c *Counts, melds int) int {
	s := RegularShanten(c, melds)
	if melds == 0 {
		s = min(s, SevenPairsShanten(c), OrphansShanten(c))
	}
	return s
}

// RegularShanten counts for four sets and a pair.
func RegularShanten(c *Counts, melds int) int {
	best := 8
	var search func(i Tile, sets, partial int, pair bool)
	search = func(i Tile, sets, partial int, pair bool) {
		for i < NumKinds && c[i] == 0 {
			i++
		}
		if i == NumKinds {
			s := sets + melds
			p := min(partial, 4-s)
			v := 8 - 2*s - p
			if pair {
				v--
			}
			best = min(best, v)
			return
		}
		if c[i] >= 3 && sets+melds < 4 {
			c[i] -= 3
			search(i, sets+1, partial, pair)
			c[i] += 3
		}
		suited := i < 27
		if suited && i%9 <= 6 && c[i+1] > 0 && c[i+2] > 0 && sets+melds < 4 {
			c[i]--
			c[i+1]--
			c[i+2]--
			search(i, sets+1, partial, pair)
			c[i]++
			c[i+1]++
			c[i+2]++
		}
		if c[i] >= 2 {
			c[i] -= 2
			if !pair {
				search(i, sets, partial, true)
			}
			search(i, sets, partial+1, pair)
			c[i] += 2
		}
		if suited && i%9 <= 7 && c[i+1] > 0 {
			c[i]--
			c[i+1]--
			search(i, sets, partial+1, pair)
			c[i]++
			c[i+1]++
		}
		if suited && i%9 <= 6 && c[i+2] > 0 {
			c[i]--
			c[i+2]--
			search(i, sets, partial+1, pair)
			c[i]++
			c[i+2]++
		}
		c[i]--
		search(i, sets, partial, pair)
		c[i]++
	}
	search(0, 0, 0, false)
	return best
}

// SevenPairsShanten counts for seven different pairs.
func SevenPairsShanten(c *Counts) int {
	pairs, kinds := 0, 0
	for _, n := range c {
		if n > 0 {
			kinds++
		}
		if n >= 2 {
			pairs++
		}
	}
	s := 6 - pairs
	if kinds < 7 {
		s += 7 - kinds
	}
	return s
}

// OrphansShanten counts for thirteen orphans.
func OrphansShanten(c *Counts) int {
	kinds, pair := 0, 0
	for _, t := range orphans {
		if c[t] > 0 {
			kinds++
			if c[t] >= 2 {
				pair = 1
			}
		}
	}
	return 13 - kinds - pair
}

// Improvements lists the kinds that lower the shanten of c (3n+1 tiles).
func Improvements(c *Counts, melds int) []Tile {
	base := Shanten(c, melds)
	var out []Tile
	for t := Tile(0); t < NumKinds; t++ {
		if c[t] >= 4 {
			continue
		}
		c[t]++
		if Shanten(c, melds) < base {
			out = append(out, t)
		}
		c[t]--
	}
	return out
}
