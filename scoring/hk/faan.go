package hk

// Faan is one entry of the Hong Kong Old Style faan table. The values are
// the default column of shared/spec/rules/HK.md §2 (EpicOrange/riichi_advanced
// hk.majs, checked against its hk_yaku_test.exs hands); the alternatives
// of other tables (npm hk-mahjong, McGill club, Wikipedia) are listed there.
type Faan uint8

const (
	ChickenHand           Faan = iota + 1 // nothing but bonus tiles, 0
	AllSequences                          // four chows, any pair
	ConcealedHand                         // no claimed set (concealed kongs allowed)
	SelfDraw                              // won on one's own draw
	NoFlowers                             // no bonus tile (bonus faan)
	SeatFlower                            // the flower of one's seat (bonus faan)
	SeatSeason                            // the season of one's seat (bonus faan)
	AllFlowers                            // all four flowers (bonus faan, replaces Seat Flower)
	AllSeasons                            // all four seasons (bonus faan, replaces Seat Season)
	WhiteDragon                           // a pung or kong of 5z
	GreenDragon                           // … of 6z
	RedDragon                             // … of 7z
	SeatWind                              // a pung or kong of one's seat wind
	PrevalentWind                         // … of the round wind (both when they are the same wind)
	HalfFlush                             // one suit and honours
	FullFlush                             // one suit only
	AllTriplets                           // four pungs or kongs
	LittleThreeDragons                    // two dragon pungs and a dragon pair
	BigThreeDragons                       // three dragon pungs
	LittleFourWinds                       // three wind pungs and a wind pair
	BigFourWinds                          // four wind pungs
	AllHonours                            // honours only
	MixedTerminals                        // terminals and honours only, some of each
	AllTerminals                          // terminals only
	FourConcealedTriplets                 // four concealed pungs or kongs
	FourKongs                             // four kongs
	ThirteenOrphans                       // one of each terminal and honour, one doubled
	NineGates                             // 1112345678999 of one suit and any tile of it, concealed
	BlessingOfHeaven                      // the dealer wins on the dealt hand
	BlessingOfEarth                       // a non-dealer wins on the dealer's first discard (or own first draw)
	BlessingOfMan                         // a non-dealer wins on a discard before their first draw
	RobbingAKong                          // won on a tile added to a pung
	AfterAKong                            // self-drawn on a kong replacement
	AfterAFlower                          // self-drawn on a bonus-tile replacement
	AfterMultipleKongs                    // on the replacement of a kong declared on a kong replacement
	FinalTile                             // the last wall tile drawn, or the last discard
	PureStraight                          // 123 456 789 of one suit
	SevenPairs                            // seven pairs (optional)
	numFaan
)

type faanInfo struct {
	name  string
	faan  int
	bonus bool // from bonus tiles: not counted toward the minimum
}

var faanTable = [numFaan]faanInfo{
	ChickenHand:           {"Chicken Hand", 0, false},
	AllSequences:          {"All Sequences", 1, false},
	ConcealedHand:         {"Concealed Hand", 1, false},
	SelfDraw:              {"Self Draw", 1, false},
	NoFlowers:             {"No Flowers", 1, true},
	SeatFlower:            {"Seat Flower", 1, true},
	SeatSeason:            {"Seat Season", 1, true},
	AllFlowers:            {"All Flowers", 2, true},
	AllSeasons:            {"All Seasons", 2, true},
	WhiteDragon:           {"White Dragon", 1, false},
	GreenDragon:           {"Green Dragon", 1, false},
	RedDragon:             {"Red Dragon", 1, false},
	SeatWind:              {"Seat Wind", 1, false},
	PrevalentWind:         {"Prevalent Wind", 1, false},
	HalfFlush:             {"Half Flush", 3, false},
	FullFlush:             {"Full Flush", 7, false},
	AllTriplets:           {"All Triplets", 3, false},
	LittleThreeDragons:    {"Little Three Dragons", 5, false},
	BigThreeDragons:       {"Big Three Dragons", 8, false},
	LittleFourWinds:       {"Little Four Winds", 6, false},
	BigFourWinds:          {"Big Four Winds", 13, false},
	AllHonours:            {"All Honours", 10, false},
	MixedTerminals:        {"Mixed Terminals", 4, false},
	AllTerminals:          {"All Terminals", 13, false},
	FourConcealedTriplets: {"Four Concealed Triplets", 8, false},
	FourKongs:             {"Four Kongs", 13, false},
	ThirteenOrphans:       {"Thirteen Orphans", 13, false},
	NineGates:             {"Nine Gates", 13, false},
	BlessingOfHeaven:      {"Blessing of Heaven", 13, false},
	BlessingOfEarth:       {"Blessing of Earth", 13, false},
	BlessingOfMan:         {"Blessing of Man", 13, false},
	RobbingAKong:          {"Robbing a Kong", 1, false},
	AfterAKong:            {"After a Kong", 1, false},
	AfterAFlower:          {"After a Flower", 1, false},
	AfterMultipleKongs:    {"After Multiple Kongs", 8, false},
	FinalTile:             {"Final Tile", 1, false},
	PureStraight:          {"Pure Straight", 8, false},
	SevenPairs:            {"Seven Pairs", 4, false},
}

// overrides says which entries a pattern replaces (HK.md §2 notes,
// riichi_advanced's yaku precedence): the bigger pattern already pays for
// them.
var overrides = map[Faan][]Faan{
	FourConcealedTriplets: {AllTriplets},
	FourKongs:             {AllTriplets},
	AllTerminals:          {AllTriplets},
	ThirteenOrphans:       {MixedTerminals},
	NineGates:             {FullFlush, ConcealedHand},
	BigThreeDragons:       {WhiteDragon, GreenDragon, RedDragon},
	BigFourWinds:          {PrevalentWind, SeatWind},
	AllHonours:            {PrevalentWind, SeatWind, AllTriplets, HalfFlush, MixedTerminals},
	BlessingOfHeaven:      {SelfDraw, ConcealedHand},
	BlessingOfEarth:       {SelfDraw, ConcealedHand},
	BlessingOfMan:         {ConcealedHand},
	AfterMultipleKongs:    {AfterAKong},
}

// Name is the pattern's name.
func (f Faan) Name() string { return faanTable[f].name }

// Value is the pattern's faan in the default table.
func (f Faan) Value() int { return faanTable[f].faan }

// Bonus reports whether the faan comes from bonus tiles.
func (f Faan) Bonus() bool { return faanTable[f].bonus }

// ID is the pattern's number in the result's fans list (table order).
func (f Faan) ID() int { return int(f) }

// FaanByName finds a pattern by its name (for tests and tools).
func FaanByName(name string) (Faan, bool) {
	for f := Faan(1); f < numFaan; f++ {
		if faanTable[f].name == name {
			return f, true
		}
	}
	return 0, false
}

// FaanNames lists every pattern in table order.
func FaanNames() []string {
	out := make([]string, 0, numFaan-1)
	for f := Faan(1); f < numFaan; f++ {
		out = append(out, faanTable[f].name)
	}
	return out
}
