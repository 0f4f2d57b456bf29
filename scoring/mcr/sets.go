package mcr

// Fans earned by groups of chows or pungs. Chows are named by their middle
// tile. Where four chows or pungs could make several fans, the engine
// applies the Non-Identical and Account-Once principles the way the
// reference calculator does: the three-set fan first (it is the highest),
// then the fourth set combines with the used sets only once.

func shifted1(a, b, c int) bool { return a+1 == b && b+1 == c }
func shifted2(a, b, c int) bool { return a+2 == b && b+2 == c }
func mixed(a, b, c int) bool    { return a != b && a != c && b != c }

// shifted1Any: the three ranks step by one in some order.
func shifted1Any(a, b, c int) bool {
	return shifted1(b, a, c) || shifted1(c, a, b) || shifted1(a, b, c) ||
		shifted1(c, b, a) || shifted1(a, c, b) || shifted1(b, c, a)
}

func fourChowsFan(t0, t1, t2, t3 tile) Fan {
	a, b, c, d := int(t0), int(t1), int(t2), int(t3)
	if a+2 == b && b+2 == c && c+2 == d {
		return FourPureShiftedChows
	}
	if a+1 == b && b+1 == c && c+1 == d {
		return FourPureShiftedChows
	}
	if t0 == t1 && t0 == t2 && t0 == t3 {
		return QuadrupleChow
	}
	return 0
}

func threeChowsFan(t0, t1, t2 tile) Fan {
	s0, s1, s2 := t0.suit(), t1.suit(), t2.suit()
	r0, r1, r2 := t0.rank(), t1.rank(), t2.rank()
	if mixed(s0, s1, s2) {
		switch {
		case shifted1Any(r1, r0, r2):
			return MixedShiftedChows
		case r0 == r1 && r1 == r2:
			return MixedTripleChow
		case r0+r1+r2 == 15 && r0 != r1 && (r0 == 2 || r0 == 5 || r0 == 8) && (r1 == 2 || r1 == 5 || r1 == 8):
			return MixedStraight
		}
		return 0
	}
	a, b, c := int(t0), int(t1), int(t2)
	switch {
	case a+3 == b && b+3 == c:
		return PureStraight
	case shifted2(a, b, c), shifted1(a, b, c):
		return PureShiftedChows
	case t0 == t1 && t0 == t2:
		return PureTripleChow
	}
	return 0
}

func twoChowsFan(t0, t1 tile) Fan {
	if t0.suit() != t1.suit() {
		if t0.rank() == t1.rank() {
			return MixedDoubleChow
		}
		return 0
	}
	switch {
	case t0+3 == t1 || t1+3 == t0:
		return ShortStraight
	case (t0.rank() == 2 && t1.rank() == 8) || (t0.rank() == 8 && t1.rank() == 2):
		return TwoTerminalChows
	case t0 == t1:
		return PureDoubleChow
	}
	return 0
}

// extraChowFan: beside a three-chow fan, the fourth chow scores at most
// one one-point fan with the others, the commonest first.
func extraChowFan(t0, t1, t2, extra tile) Fan {
	f0, f1, f2 := twoChowsFan(t0, extra), twoChowsFan(t1, extra), twoChowsFan(t2, extra)
	for _, f := range [...]Fan{PureDoubleChow, MixedDoubleChow, ShortStraight, TwoTerminalChows} {
		if f0 == f || f1 == f || f2 == f {
			return f
		}
	}
	return 0
}

// accountOnce trims the pairwise chow fans to what the Account-Once
// principle allows: at most max of them, dropping repeats of the same fan
// first and the cheaper-to-lose fans (Two Terminal Chows, then Short
// Straight, …) before the others.
func accountOnce(all []Fan, max int, ft *fanTable) {
	var n [4]int
	cnt := 0
	for _, f := range all {
		if f != 0 {
			cnt++
			n[f-PureDoubleChow]++
		}
	}
	for limit := 1; cnt > max && limit >= 0; limit-- {
		for i := 3; i >= 0 && cnt > max; i-- {
			for n[i] > limit && cnt > max {
				n[i]--
				cnt--
			}
		}
	}
	ft[PureDoubleChow] = int8(n[0])
	ft[MixedDoubleChow] = int8(n[1])
	ft[ShortStraight] = int8(n[2])
	ft[TwoTerminalChows] = int8(n[3])
}

func threeOfFourChows(t0, t1, t2, extra tile, ft *fanTable) bool {
	f := threeChowsFan(t0, t1, t2)
	if f == 0 {
		return false
	}
	ft[f] = 1
	if g := extraChowFan(t0, t1, t2, extra); g != 0 {
		ft[g] = 1
	}
	return true
}

// fourChows scores four chows (mid tiles sorted).
func fourChows(m *[4]tile, ft *fanTable) {
	if f := fourChowsFan(m[0], m[1], m[2], m[3]); f != 0 {
		ft[f] = 1
		return
	}
	if threeOfFourChows(m[0], m[1], m[2], m[3], ft) ||
		threeOfFourChows(m[0], m[1], m[3], m[2], ft) ||
		threeOfFourChows(m[0], m[2], m[3], m[1], ft) ||
		threeOfFourChows(m[1], m[2], m[3], m[0], ft) {
		return
	}
	all := [6]Fan{
		twoChowsFan(m[0], m[1]), twoChowsFan(m[0], m[2]), twoChowsFan(m[0], m[3]),
		twoChowsFan(m[1], m[2]), twoChowsFan(m[1], m[3]), twoChowsFan(m[2], m[3]),
	}
	// Four chows make at most three pairwise fans; a chow that pairs with
	// none of the others takes one away.
	max := 3
	if all[0] == 0 && all[1] == 0 && all[2] == 0 {
		max--
	}
	if all[0] == 0 && all[3] == 0 && all[4] == 0 {
		max--
	}
	if all[1] == 0 && all[3] == 0 && all[5] == 0 {
		max--
	}
	if all[2] == 0 && all[4] == 0 && all[5] == 0 {
		max--
	}
	if max > 0 {
		accountOnce(all[:], max, ft)
	}
}

// threeChows scores three chows (mid tiles sorted).
func threeChows(m *[3]tile, ft *fanTable) {
	if f := threeChowsFan(m[0], m[1], m[2]); f != 0 {
		ft[f] = 1
		return
	}
	all := [3]Fan{twoChowsFan(m[0], m[1]), twoChowsFan(m[0], m[2]), twoChowsFan(m[1], m[2])}
	accountOnce(all[:], 2, ft)
}

func fourPungsFan(t0, t1, t2, t3 tile) Fan {
	if t0.numbered() && t0+1 == t1 && t1+1 == t2 && t2+1 == t3 {
		return FourPureShiftedPungs
	}
	if t0 == tEast && t1 == tSouth && t2 == tWest && t3 == tNorth {
		return BigFourWinds
	}
	return 0
}

func threePungsFan(t0, t1, t2 tile) Fan {
	if t0.numbered() && t1.numbered() && t2.numbered() {
		if mixed(t0.suit(), t1.suit(), t2.suit()) {
			r0, r1, r2 := t0.rank(), t1.rank(), t2.rank()
			if shifted1Any(r1, r0, r2) {
				return MixedShiftedPungs
			}
			if r0 == r1 && r1 == r2 {
				return TriplePung
			}
		} else if t0+1 == t1 && t1+1 == t2 {
			return PureShiftedPungs
		}
		return 0
	}
	if t0.wind() && t1.wind() && t2.wind() && t0 < t1 && t1 < t2 {
		return BigThreeWinds
	}
	if t0 == tRed && t1 == tGreen && t2 == tWhite {
		return BigThreeDragons
	}
	return 0
}

func twoPungsFan(t0, t1 tile) Fan {
	if t0.numbered() && t1.numbered() {
		if t0.rank() == t1.rank() {
			return DoublePung
		}
		return 0
	}
	if t0.dragon() && t1.dragon() {
		return TwoDragonPungs
	}
	return 0
}

func onePungFan(t tile) Fan {
	if t.dragon() {
		return DragonPung
	}
	if t.terminal() || t.wind() {
		return PungOfTerminalsOrHonors
	}
	return 0
}

// fourPungs scores four pungs (tiles sorted).
func fourPungs(m *[4]tile, ft *fanTable) {
	if f := fourPungsFan(m[0], m[1], m[2], m[3]); f != 0 {
		ft[f] = 1
		return
	}
	free := -1
	for _, c := range [4][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}} {
		if f := threePungsFan(m[c[0]], m[c[1]], m[c[2]]); f != 0 {
			ft[f] = 1
			free = c[3]
			break
		}
	}
	if free >= 0 {
		// The fourth pung combines with one used pung once.
		for i := 0; i < 4; i++ {
			if i == free {
				continue
			}
			if f := twoPungsFan(m[i], m[free]); f != 0 {
				ft[f]++
				break
			}
		}
		return
	}
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			if f := twoPungsFan(m[i], m[j]); f != 0 {
				ft[f]++
			}
		}
	}
}

// threePungs scores three pungs (tiles sorted).
func threePungs(m *[3]tile, ft *fanTable) {
	if f := threePungsFan(m[0], m[1], m[2]); f != 0 {
		ft[f] = 1
		return
	}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if f := twoPungsFan(m[i], m[j]); f != 0 {
				ft[f]++
			}
		}
	}
}

// kongFans scores kongs and concealed pungs together, since the kong fans
// and the concealed-pung fans imply one another.
func kongFans(concealedPungs, meldedKongs, concealedKongs int, ft *fanTable) {
	concealedPungFan := func(n int) {
		switch n {
		case 2:
			ft[TwoConcealedPungs] = 1
		case 3:
			ft[ThreeConcealedPungs] = 1
		case 4:
			ft[FourConcealedPungs] = 1
		}
	}
	switch meldedKongs + concealedKongs {
	case 0:
		concealedPungFan(concealedPungs)
	case 1:
		if meldedKongs == 1 {
			ft[MeldedKong] = 1
			if concealedPungs < 4 {
				concealedPungFan(concealedPungs)
			}
		} else {
			ft[ConcealedKong] = 1
			concealedPungFan(concealedPungs + 1)
		}
	case 2:
		switch concealedKongs {
		case 0:
			ft[TwoMeldedKongs] = 1
			if concealedPungs == 2 {
				ft[TwoConcealedPungs] = 1
			}
		case 1:
			// Scored as Melded Kong and Concealed Kong (the 81-fan
			// table), not the helper's optional 5-point combined fan.
			ft[MeldedKong] = 1
			ft[ConcealedKong] = 1
			if concealedPungs == 1 || concealedPungs == 2 {
				concealedPungFan(concealedPungs + 1)
			}
		case 2:
			ft[TwoConcealedKongs] = 1
			if concealedPungs == 1 || concealedPungs == 2 {
				concealedPungFan(concealedPungs + 2)
			}
		}
	case 3:
		ft[ThreeKongs] = 1
		switch concealedKongs {
		case 1:
			if concealedPungs > 0 {
				ft[TwoConcealedPungs] = 1
			}
		case 2:
			if concealedPungs == 0 {
				ft[TwoConcealedPungs] = 1
			} else {
				ft[ThreeConcealedPungs] = 1
			}
		case 3:
			if concealedPungs == 0 {
				ft[ThreeConcealedPungs] = 1
			} else {
				ft[FourConcealedPungs] = 1
			}
		}
	case 4:
		ft[FourKongs] = 1
		concealedPungFan(concealedKongs)
	}
}
