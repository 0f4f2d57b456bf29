package mcr

// Fans read off the hand as a whole: suits, tile kinds, ranks, groups.

// suitFans: No Honors, One Voided Suit, Half Flush, Full Flush, All Types.
func suitFans(tiles []tile, ft *fanTable) {
	var flag uint8
	for _, t := range tiles {
		flag |= 1 << t.suit()
	}
	if flag&0xF1 == 0 {
		ft[NoHonors] = 1
	}
	for _, mask := range [...]uint8{0xE3, 0xE5, 0xE9} {
		if flag&mask == 0 {
			ft[OneVoidedSuit]++
		}
	}
	// Two suits missing: a flush.
	if ft[OneVoidedSuit] == 2 {
		ft[OneVoidedSuit] = 0
		if ft[NoHonors] == 0 {
			ft[HalfFlush] = 1
		} else {
			ft[FullFlush] = 1
			ft[NoHonors] = 0
		}
	}
	if flag == 0x1E {
		wind, dragon := false, false
		for _, t := range tiles {
			wind = wind || t.wind()
			dragon = dragon || t.dragon()
		}
		if wind && dragon {
			ft[AllTypes] = 1
		}
	}
}

// tileFans: All Simples, Reversible Tiles, All Green, All Honors, All
// Terminals, All Terminals and Honors.
func tileFans(tiles []tile, ft *fanTable) {
	simples, reversible, green, honors, terminals, outside := true, true, true, true, true, true
	for _, t := range tiles {
		th := t.terminalOrHonor()
		simples = simples && !th
		reversible = reversible && t.reversible()
		green = green && t.green()
		honors = honors && t.honor()
		terminals = terminals && t.terminal()
		outside = outside && th
	}
	if simples {
		ft[AllSimples] = 1
	}
	if reversible {
		ft[ReversibleTiles] = 1
	}
	if green {
		ft[AllGreen] = 1
	}
	if simples {
		return
	}
	switch {
	case honors:
		ft[AllHonors] = 1
	case terminals:
		ft[AllTerminals] = 1
	case outside:
		ft[AllTerminalsAndHonors] = 1
	}
}

// rankFans: Upper/Middle/Lower Tiles, Upper/Lower Four.
func rankFans(tiles []tile, ft *fanTable) {
	var flag uint16
	for _, t := range tiles {
		if !t.numbered() {
			return
		}
		flag |= 1 << t.rank()
	}
	switch {
	case flag&0xFFE1 == 0: // only 1–4
		if flag&0x0010 != 0 {
			ft[LowerFour] = 1
		} else {
			ft[LowerTiles] = 1
		}
	case flag&0xFC3F == 0: // only 6–9
		if flag&0x0040 != 0 {
			ft[UpperFour] = 1
		} else {
			ft[UpperTiles] = 1
		}
	case flag&0xFF8F == 0: // only 4–6
		ft[MiddleTiles] = 1
	}
}

// groupFans: Outside Hand, All Fives, All Even Pungs, from what every
// group (pair included) holds.
func groupFans(p *[5]pack, ft *fanTable) {
	terminal, honor, five, even := 0, 0, 0, 0
	for i := range p {
		t := p[i].tile
		if !t.numbered() {
			honor++
			continue
		}
		r := t.rank()
		if p[i].kind == kindChow {
			switch r {
			case 2, 8:
				terminal++
			case 4, 5, 6:
				five++
			}
			continue
		}
		switch r {
		case 1, 9:
			terminal++
		case 5:
			five++
		case 2, 4, 6, 8:
			even++
		}
	}
	switch {
	case terminal+honor == 5:
		ft[OutsideHand] = 1
	case five == 5:
		ft[AllFives] = 1
	case even == 5:
		ft[AllEvenPungs] = 1
	}
}

// tileHogs: every kind used four times, less those used as kongs.
func tileHogs(all *counts, kongs int, ft *fanTable) {
	n := 0
	for _, t := range allTiles {
		if all[t] == 4 {
			n++
		}
	}
	ft[TileHog] = int8(n - kongs)
}

// waitFans: Edge, Closed or Single Wait for a hand that waited on one
// kind, read from the concealed groups; only one of them counts.
func waitFans(concealed []pack, win tile, ft *fanTable) {
	if ft[MeldedHand] != 0 || ft[FourKongs] != 0 {
		return
	}
	var edge, closed, single bool
	for _, p := range concealed {
		switch p.kind {
		case kindChow:
			if p.tile == win {
				closed = true
			} else if p.tile+1 == win || p.tile-1 == win {
				edge = true
			}
		case kindPair:
			if p.tile == win {
				single = true
			}
		}
	}
	switch {
	case edge:
		ft[EdgeWait] = 1
	case closed:
		ft[ClosedWait] = 1
	case single:
		ft[SingleWait] = 1
	}
}

// windFans: Prevalent and Seat Wind for a wind pung, which then no longer
// counts as a Pung of Terminals or Honors (unless a bigger fan already
// took those away).
func windFans(t tile, round, seat int, ft *fanTable) {
	deducted := ft[BigThreeWinds] != 0 || ft[AllTerminalsAndHonors] != 0 || ft[AllHonors] != 0 || ft[LittleFourWinds] != 0
	d := int(t - tEast)
	if d == round {
		ft[PrevalentWind] = 1
		if !deducted {
			ft[PungOfTerminalsOrHonors]--
		}
	}
	if d == seat {
		ft[SeatWind] = 1
		if seat != round && !deducted {
			ft[PungOfTerminalsOrHonors]--
		}
	}
}

// situationFans: Last Tile, Self-Drawn, Last Tile Draw/Claim, Out with
// Replacement Tile, Robbing the Kong.
func situationFans(f winFlag, ft *fanTable) {
	if f&flagLastTile != 0 {
		ft[LastTile] = 1
	}
	if f&flagSelfDrawn != 0 {
		ft[SelfDrawn] = 1
		if f&flagWallLast != 0 {
			ft[LastTileDraw] = 1
			ft[SelfDrawn] = 0
		}
		if f&flagKong != 0 {
			ft[OutWithReplacementTile] = 1
			ft[SelfDrawn] = 0
		}
		return
	}
	if f&flagWallLast != 0 {
		ft[LastTileClaim] = 1
	}
	if f&flagKong != 0 {
		ft[RobbingTheKong] = 1
		ft[LastTile] = 0
	}
}
