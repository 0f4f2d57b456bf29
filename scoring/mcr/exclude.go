package mcr

// excludeImplied applies the Non-Repeat principle: a fan that another fan
// of the hand implies is not counted. The list follows the seed's "these
// points are not counted" lines, as the reference calculator applies them
// after every fan has been found.
func excludeImplied(ft *fanTable, rules *Rules) {
	if ft[BigFourWinds] != 0 {
		ft[AllPungs] = 0
		ft[PungOfTerminalsOrHonors] = 0
	}
	if ft[BigThreeDragons] != 0 {
		ft[DragonPung] = 0
	}
	if ft[AllGreen] != 0 {
		ft[HalfFlush] = 0
		ft[OneVoidedSuit] = 0
	}
	if ft[FourKongs] != 0 {
		ft[SingleWait] = 0
	}
	if ft[AllTerminals] != 0 {
		ft[AllPungs] = 0
		ft[OutsideHand] = 0
		ft[PungOfTerminalsOrHonors] = 0
		ft[NoHonors] = 0
		if !rules.AllTerminalsDoublePung {
			ft[DoublePung] = 0 // the common reading: All Terminals implies Double Pung
		}
	}
	if ft[LittleFourWinds] != 0 {
		// The fourth set is a terminal pung (All Terminals and Honors), a
		// dragon pung (All Honors) or no terminal pung at all.
		ft[PungOfTerminalsOrHonors] = 0
	}
	if ft[LittleThreeDragons] != 0 {
		ft[DragonPung] = 0
	}
	if ft[AllHonors] != 0 {
		ft[AllPungs] = 0
		ft[OutsideHand] = 0
		ft[PungOfTerminalsOrHonors] = 0
		ft[OneVoidedSuit] = 0
	}
	if ft[FourConcealedPungs] != 0 {
		ft[AllPungs] = 0
		ft[ConcealedHand] = 0
		if ft[FullyConcealedHand] != 0 {
			ft[FullyConcealedHand] = 0
			ft[SelfDrawn] = 1
		}
	}
	if ft[PureTerminalChows] != 0 {
		ft[FullFlush] = 0
		ft[AllChows] = 0
		ft[NoHonors] = 0
	}
	if ft[FourPureShiftedPungs] != 0 {
		ft[AllPungs] = 0
	}
	if ft[AllTerminalsAndHonors] != 0 {
		ft[AllPungs] = 0
		ft[OutsideHand] = 0
		ft[PungOfTerminalsOrHonors] = 0
	}
	if ft[AllEvenPungs] != 0 {
		ft[AllPungs] = 0
		ft[AllSimples] = 0
		ft[NoHonors] = 0
	}
	if ft[UpperTiles] != 0 {
		ft[NoHonors] = 0
	}
	if ft[MiddleTiles] != 0 {
		ft[AllSimples] = 0
		ft[NoHonors] = 0
	}
	if ft[LowerTiles] != 0 {
		ft[NoHonors] = 0
	}
	if ft[ThreeSuitedTerminalChows] != 0 {
		ft[AllChows] = 0
		ft[NoHonors] = 0
	}
	if ft[AllFives] != 0 {
		ft[AllSimples] = 0
		ft[NoHonors] = 0
	}
	if ft[UpperFour] != 0 {
		ft[NoHonors] = 0
	}
	if ft[LowerFour] != 0 {
		ft[NoHonors] = 0
	}
	if ft[BigThreeWinds] != 0 && ft[AllHonors] == 0 && ft[AllTerminalsAndHonors] == 0 {
		// The three wind pungs are inside Big Three Winds.
		ft[PungOfTerminalsOrHonors] -= 3
	}
	if ft[ReversibleTiles] != 0 {
		ft[OneVoidedSuit] = 0
	}
	if ft[LastTileDraw] != 0 {
		ft[SelfDrawn] = 0
	}
	if ft[OutWithReplacementTile] != 0 {
		ft[SelfDrawn] = 0
	}
	if ft[MeldedHand] != 0 {
		ft[SingleWait] = 0
	}
	if ft[TwoDragonPungs] != 0 {
		ft[DragonPung] = 0
	}
	if ft[FullyConcealedHand] != 0 {
		ft[SelfDrawn] = 0
	}
	if ft[AllChows] != 0 {
		ft[NoHonors] = 0
	}
	if ft[AllSimples] != 0 {
		ft[NoHonors] = 0
	}
}
