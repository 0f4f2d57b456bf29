package zungjung

import "strings"

// Pattern is one entry of the Zung Jung v3.3 pattern table (Alan Kwan,
// https://zj-mahjong.info/zj33_patterns_eng.html; values as in
// shared/spec/rules/ZUNG_JUNG.md §2). The World Series of Mahjong uses the
// same table (seed 004 scores "according to the Scoring System chapter").
type Pattern uint8

const (
	AllSequences               Pattern = iota + 1 // 1.1
	ConcealedHand                                 // 1.2
	NoTerminals                                   // 1.3
	MixedOneSuit                                  // 2.1.1
	PureOneSuit                                   // 2.1.2
	NineGates                                     // 2.2
	ValueHonor                                    // 3.1, once per value set
	SmallThreeDragons                             // 3.2.1
	BigThreeDragons                               // 3.2.2
	SmallThreeWinds                               // 3.3.1
	BigThreeWinds                                 // 3.3.2
	SmallFourWinds                                // 3.3.3
	BigFourWinds                                  // 3.3.4
	AllHonors                                     // 3.4
	AllTriplets                                   // 4.1
	TwoConcealedTriplets                          // 4.2.1
	ThreeConcealedTriplets                        // 4.2.2
	FourConcealedTriplets                         // 4.2.3
	OneKong                                       // 4.3.1
	TwoKongs                                      // 4.3.2
	ThreeKongs                                    // 4.3.3
	FourKongs                                     // 4.3.4
	TwoIdenticalSequences                         // 5.1.1
	TwoIdenticalSequencesTwice                    // 5.1.2
	ThreeIdenticalSequences                       // 5.1.3
	FourIdenticalSequences                        // 5.1.4
	ThreeSimilarSequences                         // 6.1
	SmallThreeSimilarTriplets                     // 6.2.1
	ThreeSimilarTriplets                          // 6.2.2
	NineTileStraight                              // 7.1
	ThreeConsecutiveTriplets                      // 7.2.1
	FourConsecutiveTriplets                       // 7.2.2
	MixedLesserTerminals                          // 8.1.1
	PureLesserTerminals                           // 8.1.2
	MixedGreaterTerminals                         // 8.1.3
	PureGreaterTerminals                          // 8.1.4
	FinalDraw                                     // 9.1.1
	FinalDiscard                                  // 9.1.2
	WinOnKong                                     // 9.2
	RobbingAKong                                  // 9.3
	BlessingOfHeaven                              // 9.4.1
	BlessingOfEarth                               // 9.4.2
	ThirteenTerminals                             // 10.1
	SevenPairs                                    // 10.2
	ChickenHand                                   // Zung Jung only: a legal hand with no pattern
	numPatterns
)

type patternInfo struct {
	no     string // number in the table: category.series[.rank]
	name   string
	points int
}

var patternTable = [numPatterns]patternInfo{
	AllSequences:               {"1.1", "All Sequences", 5},
	ConcealedHand:              {"1.2", "Concealed Hand", 5},
	NoTerminals:                {"1.3", "No Terminals", 5},
	MixedOneSuit:               {"2.1.1", "Mixed One-Suit", 40},
	PureOneSuit:                {"2.1.2", "Pure One-Suit", 80},
	NineGates:                  {"2.2", "Nine Gates", 480},
	ValueHonor:                 {"3.1", "Value Honor", 10},
	SmallThreeDragons:          {"3.2.1", "Small Three Dragons", 40},
	BigThreeDragons:            {"3.2.2", "Big Three Dragons", 130},
	SmallThreeWinds:            {"3.3.1", "Small Three Winds", 30},
	BigThreeWinds:              {"3.3.2", "Big Three Winds", 120},
	SmallFourWinds:             {"3.3.3", "Small Four Winds", 320},
	BigFourWinds:               {"3.3.4", "Big Four Winds", 400},
	AllHonors:                  {"3.4", "All Honors", 320},
	AllTriplets:                {"4.1", "All Triplets", 30},
	TwoConcealedTriplets:       {"4.2.1", "Two Concealed Triplets", 5},
	ThreeConcealedTriplets:     {"4.2.2", "Three Concealed Triplets", 30},
	FourConcealedTriplets:      {"4.2.3", "Four Concealed Triplets", 125},
	OneKong:                    {"4.3.1", "One Kong", 5},
	TwoKongs:                   {"4.3.2", "Two Kongs", 20},
	ThreeKongs:                 {"4.3.3", "Three Kongs", 120},
	FourKongs:                  {"4.3.4", "Four Kongs", 480},
	TwoIdenticalSequences:      {"5.1.1", "Two Identical Sequences", 10},
	TwoIdenticalSequencesTwice: {"5.1.2", "Two Identical Sequences Twice", 60},
	ThreeIdenticalSequences:    {"5.1.3", "Three Identical Sequences", 120},
	FourIdenticalSequences:     {"5.1.4", "Four Identical Sequences", 480},
	ThreeSimilarSequences:      {"6.1", "Three Similar Sequences", 35},
	SmallThreeSimilarTriplets:  {"6.2.1", "Small Three Similar Triplets", 30},
	ThreeSimilarTriplets:       {"6.2.2", "Three Similar Triplets", 120},
	NineTileStraight:           {"7.1", "Nine-Tile Straight", 40},
	ThreeConsecutiveTriplets:   {"7.2.1", "Three Consecutive Triplets", 100},
	FourConsecutiveTriplets:    {"7.2.2", "Four Consecutive Triplets", 200},
	MixedLesserTerminals:       {"8.1.1", "Mixed Lesser Terminals", 40},
	PureLesserTerminals:        {"8.1.2", "Pure Lesser Terminals", 50},
	MixedGreaterTerminals:      {"8.1.3", "Mixed Greater Terminals", 100},
	PureGreaterTerminals:       {"8.1.4", "Pure Greater Terminals", 400},
	FinalDraw:                  {"9.1.1", "Final Draw", 10},
	FinalDiscard:               {"9.1.2", "Final Discard", 10},
	WinOnKong:                  {"9.2", "Win on Kong", 10},
	RobbingAKong:               {"9.3", "Robbing a Kong", 10},
	BlessingOfHeaven:           {"9.4.1", "Blessing of Heaven", 155},
	BlessingOfEarth:            {"9.4.2", "Blessing of Earth", 155},
	ThirteenTerminals:          {"10.1", "Thirteen Terminals", 160},
	SevenPairs:                 {"10.2", "Seven Pairs", 30},
	ChickenHand:                {"0", "Chicken Hand", 1},
}

// Name is the pattern's name as the table spells it.
func (p Pattern) Name() string { return patternTable[p].name }

// No is the pattern's number in the table, such as "3.3.2".
func (p Pattern) No() string { return patternTable[p].no }

// Points is the pattern's value.
func (p Pattern) Points() int { return patternTable[p].points }

// Series is the first two numbers of the pattern's number ("3.3" for Big
// Three Winds): only the best pattern of a series counts.
func (p Pattern) Series() string {
	no := patternTable[p].no
	if i := strings.IndexByte(no, '.'); i >= 0 {
		if j := strings.IndexByte(no[i+1:], '.'); j >= 0 {
			return no[:i+1+j]
		}
	}
	return no
}

// PatternByName finds a pattern by its table name (for tests and tools).
func PatternByName(name string) (Pattern, bool) {
	for p := Pattern(1); p < numPatterns; p++ {
		if patternTable[p].name == name {
			return p, true
		}
	}
	return 0, false
}

// PatternNames lists every pattern in table order.
func PatternNames() []string {
	out := make([]string, 0, numPatterns-1)
	for p := Pattern(1); p < numPatterns; p++ {
		out = append(out, patternTable[p].name)
	}
	return out
}
