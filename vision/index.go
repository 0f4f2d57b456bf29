package vision

import (
	"gocv.io/x/gocv"

	"mjscan/models"
)

// The index reader (models/index_reader.onnx) reads the small Arabic
// numeral many sets print in a corner of their suit tiles: Western and
// American sets, many Chinese and Vietnamese ones. Where a set the
// classifier never saw draws its numerals, dots or sticks in a hand of its
// own, the index still says 3 and not 2 (models/README.md, "Reading the
// index"). It reads the halves the part reader reads, but keeps their way
// up: the top half as it is and the bottom half turned half round, so that
// a tile lying upside down shows its index upright and a 6 stays a 6.
//
// Its labels, in order: the digits 1 to 9, and none.
var indexLabels = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "none"}

const indexNone = 9

// indexSure: a tile's index weighs its reading only where one of its
// halves shows an index at least this surely (indexShares). Chosen on the
// validation designs and dev, whose sets print no index, as the lowest
// value that loses nothing there: with either reader, at 0.5 gnome taught
// lost a tile (0.9539 -> 0.9529); with the second reader at 0.65 no
// figure moves (models/README.md, "Reading the index" and "A wider look
// at the index"; the first reader was shipped at 0.8).
const indexSure = 0.65

// indexLift: before a sure index weighs a suit, each of the suit's codes
// is lifted by this share of the suit's total, so that an index can raise
// a code the reading gave next to nothing (a taught head sure of 8m where
// the index says 2). Chosen on the validation designs and dev as the
// largest value tried that loses nothing there: at 0.03 gnome taught lost
// a tile and dev a tile, at 0.1 more (models/README.md, "A wider look at
// the index").
const indexLift = 0.01

// indexUnsure: a photo read with the shipped models alone has the index
// read only of the suit tiles the network reads under this surely; a sure
// reading keeps its code whatever the index says, and the reader's time
// is spent where it can help: about 10 ms of CPU a dev photo, for one
// tile of traditional-set read alone (0.8688 -> 0.8679; models/README.md,
// "A wider look at the index"). A taught set's tiles are all read: its
// head, not the network, reads them.
const indexUnsure = 0.97

// indexSuit says whether a code is a suit tile, which an index numbers:
// the 1 to 9 (and the red five, 0) of characters, dots and bamboo.
func indexSuit(code string) bool {
	return len(code) == 2 && code[0] >= '0' && code[0] <= '9' && (code[1] == 'm' || code[1] == 'p' || code[1] == 's')
}

// readIndex reads the index of every tile the network may read as a suit
// tile (such a code first) — with every false, only of those it reads
// under indexUnsure — and keeps it in the reading (index: how surely a
// half shows an index, then the digits' shares). The reading itself is
// not changed, as with the part reader's glyphs: only the reading
// reported is weighed (weighed, Head.review).
func readIndex(net *gocv.Net, m *models.Manifest, img gocv.Mat, boxes []box, reads []reading, every bool) []reading {
	return readEachHalves(net, m, img, boxes, reads, true, func(rd reading) bool {
		return len(rd.labels) > 0 && indexSuit(rd.labels[0]) && (every || rd.probs[0] < indexUnsure)
	}, func(rd *reading, top, bottom []float64) { rd.index = indexShares(top, bottom) })
}

// indexShares is what a tile's two halves (each indexLabels' probabilities)
// say of its index: first how surely one of them shows an index at all
// (the larger of one minus each half's none), then each digit's share of
// both halves' digits.
func indexShares(top, bottom []float64) []float64 {
	out := make([]float64, len(indexLabels))
	out[0] = max(1-top[indexNone], 1-bottom[indexNone])
	sum := 0.0
	for d := range indexNone {
		sum += top[d] + bottom[d]
	}
	if sum <= 0 {
		out[0] = 0
		return out
	}
	for d := range indexNone {
		out[1+d] = (top[d] + bottom[d]) / sum
	}
	return out
}

// indexFactor is how much an index read as shares (indexShares) weighs a
// suit tile's code: its digit's share where the halves surely show an
// index, nothing (the same for every digit) where they surely show none.
func indexFactor(code string, index []float64) float64 {
	n := int(code[0] - '0')
	if n == 0 { // the red five
		n = 5
	}
	sure := index[0]
	return (1-sure)/float64(indexNone) + sure*index[n]
}
