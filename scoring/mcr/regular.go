package mcr

// winFlag says how the hand was completed.
type winFlag uint8

const (
	flagSelfDrawn winFlag = 1 << iota // self-drawn
	flagLastTile                      // the last tile of its kind
	flagKong                          // on a kong: replacement tile (self-drawn) or robbed (discard)
	flagWallLast                      // the last tile of the wall: drawn, or the last discard
)

// wholeHandFans are the fans suitFans, tileFans and rankFans set.
var wholeHandFans = [...]Fan{NoHonors, OneVoidedSuit, HalfFlush, FullFlush, AllTypes,
	AllSimples, ReversibleTiles, AllGreen, AllHonors, AllTerminals, AllTerminalsAndHonors,
	LowerFour, LowerTiles, UpperFour, UpperTiles, MiddleTiles}

// regularFans scores one arrangement of four sets and a pair. unique says
// whether the hand waited on one kind only.
func (ev *evaluator) regularFans(p *[5]pack, unique bool, ft *fanTable) {
	in := ev.in
	var chows, pungs [4]tile
	var pungMelded [4]bool
	nChow, nPung, concealedPungs, meldedKongs, concealedKongs := 0, 0, 0, 0, 0
	var pair tile
	for i := range p {
		switch p[i].kind {
		case kindChow:
			chows[nChow] = p[i].tile
			nChow++
		case kindPung:
			pungs[nPung], pungMelded[nPung] = p[i].tile, p[i].melded
			nPung++
			if !p[i].melded {
				concealedPungs++
			}
		case kindKong:
			pungs[nPung], pungMelded[nPung] = p[i].tile, p[i].melded
			nPung++
			if p[i].melded {
				meldedKongs++
			} else {
				concealedKongs++
			}
		case kindPair:
			pair = p[i].tile
		}
	}
	win := in.win
	situationFans(ev.flags, ft)

	// A pung completed by a discard is not concealed, unless the winning
	// tile can be read as part of a concealed chow instead.
	if ev.flags&flagSelfDrawn == 0 {
		inChow := false
		for i := range p {
			if p[i].kind == kindChow && !p[i].melded && p[i].tile-1 <= win && win <= p[i].tile+1 {
				inChow = true
				break
			}
		}
		if !inChow {
			for i := 0; i < nPung; i++ {
				if pungs[i] == win && !pungMelded[i] {
					concealedPungs--
				}
			}
		}
	}

	if nPung != 0 {
		kongFans(concealedPungs, meldedKongs, concealedKongs, ft)
		if nPung == 4 && ft[FourKongs] == 0 && ft[FourConcealedPungs] == 0 {
			ft[AllPungs] = 1
		}
		for i := 0; i < nPung; i++ {
			if f := onePungFan(pungs[i]); f != 0 {
				ft[f]++
			}
		}
	}

	switch nChow {
	case 4:
		if threeSuitedTerminalChows(&chows, pair) {
			ft[ThreeSuitedTerminalChows] = 1
			break
		}
		if pureTerminalChows(&chows, pair) {
			ft[PureTerminalChows] = 1
			break
		}
		m := chows
		sort4(&m)
		fourChows(&m, ft)
	case 3:
		m := [3]tile{chows[0], chows[1], chows[2]}
		sort3(&m)
		threeChows(&m, ft)
	case 2:
		if f := twoChowsFan(chows[0], chows[1]); f != 0 {
			ft[f]++
		}
		if f := twoPungsFan(pungs[0], pungs[1]); f != 0 {
			ft[f]++
		}
	case 1:
		m := [3]tile{pungs[0], pungs[1], pungs[2]}
		sort3(&m)
		threePungs(&m, ft)
	case 0:
		m := pungs
		sort4(&m)
		fourPungs(&m, ft)
	}

	// Concealed Hand, Fully Concealed Hand, Melded Hand.
	melded := 0
	for i := 0; i < in.nFixed; i++ {
		if p[i].melded {
			melded++
		}
	}
	self := ev.flags&flagSelfDrawn != 0
	switch melded {
	case 0:
		if self {
			ft[FullyConcealedHand] = 1
		} else {
			ft[ConcealedHand] = 1
		}
	case 4:
		switch {
		case self:
			ft[SelfDrawn] = 1
		case in.addedKongs == 0 || ev.rules.MeldedHandAddedKong:
			ft[MeldedHand] = 1
		}
	default:
		if self {
			ft[SelfDrawn] = 1
		}
	}

	// The pair turns All Chows on, and Two Dragon Pungs or Big Three
	// Winds into their "little" forms.
	if nChow == 4 {
		if pair.numbered() {
			ft[AllChows] = 1
		}
	} else if ft[TwoDragonPungs] != 0 {
		if pair.dragon() {
			ft[LittleThreeDragons] = 1
			ft[TwoDragonPungs] = 0
		}
	} else if ft[BigThreeWinds] != 0 {
		if pair.wind() {
			ft[LittleFourWinds] = 1
			ft[BigThreeWinds] = 0
		}
	}
	groupFans(p, ft)

	// Suit, tile and rank fans depend on the tiles only, not on the
	// arrangement: found once per hand.
	for _, f := range wholeHandFans {
		ft[f] = ev.wide[f]
	}
	if ft[QuadrupleChow] == 0 {
		tileHogs(&ev.merged, meldedKongs+concealedKongs, ft)
	}
	if unique {
		waitFans(p[in.nFixed:], win, ft)
	}
	excludeImplied(ft, ev.rules)

	if ft[BigFourWinds] == 0 {
		for i := 0; i < nPung; i++ {
			if pungs[i].wind() {
				windFans(pungs[i], in.round, in.seat, ft)
			}
		}
	}
	if ft.empty() {
		ft[ChickenHand] = 1
	}
}

func pureTerminalChows(c *[4]tile, pair tile) bool {
	if !pair.numbered() || pair.rank() != 5 {
		return false
	}
	n123, n789 := 0, 0
	for _, t := range c {
		if t.suit() != pair.suit() {
			return false
		}
		switch t.rank() {
		case 2:
			n123++
		case 8:
			n789++
		default:
			return false
		}
	}
	return n123 == 2 && n789 == 2
}

func threeSuitedTerminalChows(c *[4]tile, pair tile) bool {
	if !pair.numbered() || pair.rank() != 5 {
		return false
	}
	var low, high [4]int
	for _, t := range c {
		if t.suit() == pair.suit() {
			return false
		}
		switch t.rank() {
		case 2:
			low[t.suit()]++
		case 8:
			high[t.suit()]++
		default:
			return false
		}
	}
	for s := 1; s <= 3; s++ {
		if s != pair.suit() && (low[s] == 0 || high[s] == 0) {
			return false
		}
	}
	return true
}

func sort3(m *[3]tile) {
	if m[1] < m[0] {
		m[0], m[1] = m[1], m[0]
	}
	if m[2] < m[1] {
		m[1], m[2] = m[2], m[1]
		if m[1] < m[0] {
			m[0], m[1] = m[1], m[0]
		}
	}
}

func sort4(m *[4]tile) {
	for i := 1; i < 4; i++ {
		for j := i; j > 0 && m[j] < m[j-1]; j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
}
