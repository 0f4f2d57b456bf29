package mcr

// Fan is an official MCR fan number, 1–81 in the order of the 1998 rule
// book (the CONTRACT numbering). The zero value is no fan.
type Fan uint8

// The 81 fans. Values are in fanValues; names in fanNames.
const (
	BigFourWinds Fan = iota + 1
	BigThreeDragons
	AllGreen
	NineGates
	FourKongs
	SevenShiftedPairs
	ThirteenOrphans

	AllTerminals
	LittleFourWinds
	LittleThreeDragons
	AllHonors
	FourConcealedPungs
	PureTerminalChows

	QuadrupleChow
	FourPureShiftedPungs

	FourPureShiftedChows
	ThreeKongs
	AllTerminalsAndHonors

	SevenPairs
	GreaterHonorsAndKnittedTiles
	AllEvenPungs
	FullFlush
	PureTripleChow
	PureShiftedPungs
	UpperTiles
	MiddleTiles
	LowerTiles

	PureStraight
	ThreeSuitedTerminalChows
	PureShiftedChows
	AllFives
	TriplePung
	ThreeConcealedPungs

	LesserHonorsAndKnittedTiles
	KnittedStraight
	UpperFour
	LowerFour
	BigThreeWinds

	MixedStraight
	ReversibleTiles
	MixedTripleChow
	MixedShiftedPungs
	ChickenHand
	LastTileDraw
	LastTileClaim
	OutWithReplacementTile
	RobbingTheKong

	AllPungs
	HalfFlush
	MixedShiftedChows
	AllTypes
	MeldedHand
	TwoConcealedKongs
	TwoDragonPungs

	OutsideHand
	FullyConcealedHand
	TwoMeldedKongs
	LastTile

	DragonPung
	PrevalentWind
	SeatWind
	ConcealedHand
	AllChows
	TileHog
	DoublePung
	TwoConcealedPungs
	ConcealedKong
	AllSimples

	PureDoubleChow
	MixedDoubleChow
	ShortStraight
	TwoTerminalChows
	PungOfTerminalsOrHonors
	MeldedKong
	OneVoidedSuit
	NoHonors
	EdgeWait
	ClosedWait
	SingleWait
	SelfDrawn

	FlowerTiles

	numFans = int(FlowerTiles) + 1
)

// fanValues are the points of each fan in the seed's table (seed 003).
// Two Concealed Kongs is the one value that differs between editions: the
// rule set carries it (Rules.TwoConcealedKongs) and overrides this entry.
var fanValues = [numFans]int{
	0,
	88, 88, 88, 88, 88, 88, 88,
	64, 64, 64, 64, 64, 64,
	48, 48,
	32, 32, 32,
	24, 24, 24, 24, 24, 24, 24, 24, 24,
	16, 16, 16, 16, 16, 16,
	12, 12, 12, 12, 12,
	8, 8, 8, 8, 8, 8, 8, 8, 8,
	6, 6, 6, 6, 6, 8, 6,
	4, 4, 4, 4,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1,
}

var fanNames = [numFans]string{
	"",
	"Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Kongs", "Seven Shifted Pairs", "Thirteen Orphans",
	"All Terminals", "Little Four Winds", "Little Three Dragons", "All Honors", "Four Concealed Pungs", "Pure Terminal Chows",
	"Quadruple Chow", "Four Pure Shifted Pungs",
	"Four Pure Shifted Chows", "Three Kongs", "All Terminals and Honors",
	"Seven Pairs", "Greater Honors and Knitted Tiles", "All Even Pungs", "Full Flush", "Pure Triple Chow",
	"Pure Shifted Pungs", "Upper Tiles", "Middle Tiles", "Lower Tiles",
	"Pure Straight", "Three-Suited Terminal Chows", "Pure Shifted Chows", "All Fives", "Triple Pung", "Three Concealed Pungs",
	"Lesser Honors and Knitted Tiles", "Knitted Straight", "Upper Four", "Lower Four", "Big Three Winds",
	"Mixed Straight", "Reversible Tiles", "Mixed Triple Chow", "Mixed Shifted Pungs", "Chicken Hand",
	"Last Tile Draw", "Last Tile Claim", "Out with Replacement Tile", "Robbing the Kong",
	"All Pungs", "Half Flush", "Mixed Shifted Chows", "All Types", "Melded Hand", "Two Concealed Kongs", "Two Dragon Pungs",
	"Outside Hand", "Fully Concealed Hand", "Two Melded Kongs", "Last Tile",
	"Dragon Pung", "Prevalent Wind", "Seat Wind", "Concealed Hand", "All Chows", "Tile Hog", "Double Pung",
	"Two Concealed Pungs", "Concealed Kong", "All Simples",
	"Pure Double Chow", "Mixed Double Chow", "Short Straight", "Two Terminal Chows", "Pung of Terminals or Honors",
	"Melded Kong", "One Voided Suit", "No Honors", "Edge Wait", "Closed Wait", "Single Wait", "Self-Drawn",
	"Flower Tiles",
}

// String is the fan's English name.
func (f Fan) String() string {
	if int(f) < numFans {
		return fanNames[f]
	}
	return "unknown fan"
}

// fanTable counts each fan of one reading. Counts are signed because the
// wind fans take back Pung of Terminals or Honors one set at a time.
type fanTable [numFans]int8

// empty reports whether no fan is counted.
func (t *fanTable) empty() bool {
	for _, n := range t {
		if n != 0 {
			return false
		}
	}
	return true
}
