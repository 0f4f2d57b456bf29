package vision

import (
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// The part reader (models/part_reader.onnx) reads the characters on one
// half of a tile: the wind under 王 or 后 on a king or queen, the numeral
// over 萬 on a character tile. On the whole tile the wind is a few pixels
// of the classifier's 48×64 input, drawn in a hand a set the classifier
// never saw may draw its own way; the reader sees it at four times the
// pixels and learned it in every training font (models/README.md,
// "Reading half a tile").
//
// Its labels, in order: the nine numerals, the four winds, 王, 后, and
// anything else (萬, half a character, a blank).
var partGlyphs = []string{"一", "二", "三", "四", "五", "六", "七", "八", "九", "東", "南", "西", "北", "王", "后", "other"}

const (
	glyphWind  = 9  // 東 at 9, 南, 西, 北
	glyphKing  = 13 // 王
	glyphQueen = 14 // 后
)

// partFamily is the kind of tile whose reading the part reader weighs:
// 'k' for the kings and queens, 0 for every other code. The reader also
// reads the numeral of a character tile (partShare tells its code), but
// characters are not weighed by it: on the validation designs, which have
// no kings, weighing them lost a little (taught, gnome-set 0.9213 ->
// 0.9199 and gnome 0.9539 -> 0.9534; alone gnome 0.8275 -> 0.8266;
// models/README.md, "Reading half a tile").
func partFamily(code string) byte {
	if len(code) == 2 && code[1] == 'k' {
		return 'k'
	}
	return 0
}

// partShare is how likely the halves' readings s (both halves' glyph
// probabilities summed) make code: a character by its numeral, a king or
// queen by its wind and by 王 against 后.
func partShare(code string, s []float64) float64 {
	n := int(code[0] - '0')
	share := func(i, from, to int) float64 {
		sum := 0.0
		for _, v := range s[from:to] {
			sum += v
		}
		if sum <= 0 {
			return 0
		}
		return s[i] / sum
	}
	if code[1] == 'm' {
		if n == 0 { // the red five: 五, red
			n = 5
		}
		return share(n-1, 0, 9)
	}
	big := glyphKing
	if n > 4 {
		big = glyphQueen
	}
	return share(glyphWind+(n-1)%4, glyphWind, glyphKing) * share(big, glyphKing, glyphQueen+1)
}

// readParts reads the halves of every tile the network may read as a
// king or a queen (such a code among its first three) with
// the part reader, and keeps what it reads in the reading (glyphs: both
// halves' probabilities summed). The reading itself is not changed: every
// choice the recogniser makes on readings and photos is made on the
// classifier's, and the glyphs weigh only the reading reported (weighed),
// or a taught set's head's (Head.review). A reading whose halves cannot be
// cut or read keeps no glyphs.
func readParts(net *gocv.Net, m *models.Manifest, img gocv.Mat, boxes []box, reads []reading) []reading {
	return readEachHalves(net, m, img, boxes, reads, false, func(rd reading) bool {
		return slices.ContainsFunc(rd.labels, func(l string) bool { return partFamily(l) != 0 })
	}, func(rd *reading, top, bottom []float64) { rd.glyphs = sumHalves(top, bottom) })
}

// readEachHalves reads the halves of every tile whose reading want accepts
// (halvesOf, readHalves) with a reader of halves, and gives reads with
// keep's note of each such tile's two halves (top, then bottom) in a copy
// of its reading; reads as they were when nothing could be read.
func readEachHalves(net *gocv.Net, m *models.Manifest, img gocv.Mat, boxes []box, reads []reading, turnBottom bool,
	want func(reading) bool, keep func(rd *reading, top, bottom []float64)) []reading {
	at, halves := halvesOf(img, boxes, reads, m, turnBottom, want)
	defer closeAll(halves)
	probs := readHalves(net, m, halves)
	if probs == nil || len(probs) != 2*len(at) {
		return reads
	}
	reads = slices.Clone(reads)
	for j, i := range at {
		keep(&reads[i], probs[2*j], probs[2*j+1])
	}
	return reads
}

// halvesOf cuts the halves of every tile whose reading want accepts
// (cutHalves; with turnBottom, each bottom half turned half round) and
// gives the indices of those tiles and their halves, two a tile, for the
// caller to close. A tile whose halves cannot be cut is left out.
func halvesOf(img gocv.Mat, boxes []box, reads []reading, m *models.Manifest, turnBottom bool, want func(reading) bool) ([]int, []gocv.Mat) {
	var at []int
	var halves []gocv.Mat
	for i, rd := range reads {
		if !want(rd) {
			continue
		}
		top, bottom, ok := cutHalves(img, boxes[i], m)
		if !ok {
			continue
		}
		if turnBottom {
			turned := gocv.NewMat()
			gocv.Rotate(bottom, &turned, gocv.Rotate180Clockwise)
			bottom.Close()
			bottom = turned
		}
		at = append(at, i)
		halves = append(halves, top, bottom)
	}
	return at, halves
}

// sumHalves is a tile's glyphs: its two halves' probabilities summed (top
// is summed into).
func sumHalves(top, bottom []float64) []float64 {
	for g, v := range bottom {
		top[g] += v
	}
	return top
}

// readHalves runs a reader of halves (the part reader, the index reader)
// on halves, two a tile, and gives each half's probabilities of the
// manifest's labels. nil when there are none, or the output is not the
// manifest's shape.
func readHalves(net *gocv.Net, m *models.Manifest, halves []gocv.Mat) [][]float64 {
	if len(halves) == 0 || len(halves)%2 != 0 {
		return nil
	}
	k := len(m.Labels)
	blob := gocv.NewMat()
	defer blob.Close()
	gocv.BlobFromImages(halves, &blob, m.Preprocess.Scale, image.Pt(m.Input.Width, m.Input.Height), mean(m.Preprocess), false, false, gocv.MatTypeCV32F)
	net.SetInput(blob, m.Input.Name)
	out := net.Forward(m.Output.Name)
	defer out.Close()
	logits := copyFloats(out, k*len(halves))
	if logits == nil {
		return nil
	}
	probs := make([][]float64, len(halves))
	for j := range probs {
		probs[j] = softmax(logits[j*k:(j+1)*k], 1)
	}
	return probs
}

// weighed is the reading to report: without glyphs or an index, its own
// first labels and probabilities; with them, the network's whole reading
// (all, in the order of labels, the classifier's) weighed by them
// (weighParts), cut to as many codes as the reading names.
func (rd reading) weighed(labels []string) ([]string, []float64) {
	if (rd.glyphs == nil && rd.index == nil) || len(rd.labels) == 0 {
		return rd.labels, rd.probs
	}
	codes, probs := rd.labels, rd.probs
	if len(rd.all) == len(labels) {
		codes, probs = labels, rd.all
	}
	codes, probs = weighParts(codes, probs, rd)
	n := min(len(rd.labels), len(codes))
	return codes[:n], probs[:n]
}

// weighParts weighs a reading (codes and their probabilities) by what its
// halves show (weighHalves) and returns the codes sorted by the weighed
// probabilities, the input untouched.
func weighParts(codes []string, probs []float64, rd reading) ([]string, []float64) {
	w := weighHalves(codes, probs, rd)
	idx := make([]int, len(w))
	for c := range idx {
		idx[c] = c
	}
	sort.SliceStable(idx, func(a, b int) bool { return w[idx[a]] > w[idx[b]] })
	outCodes, outProbs := make([]string, len(idx)), make([]float64, len(idx))
	for j, c := range idx {
		outCodes[j], outProbs[j] = codes[c], w[c]
	}
	return outCodes, outProbs
}

// weighHalves gives probs (of codes) weighed by the part reader's glyphs
// (weigh) and then by the index reader's index (weighIndex).
func weighHalves(codes []string, probs []float64, rd reading) []float64 {
	return weighIndex(codes, weigh(codes, probs, rd.glyphs), rd.index)
}

// weigh gives probs (of codes) weighed by glyphs: within the kind of the
// likeliest code (partFamily), each code's probability is multiplied by
// partShare and the kind keeps its total. A reading of another kind, or
// one whose halves show none of its kind's glyphs, comes back as it was
// (a copy either way).
func weigh(codes []string, probs []float64, glyphs []float64) []float64 {
	if len(codes) == 0 || len(codes) != len(probs) || len(glyphs) != len(partGlyphs) {
		return slices.Clone(probs)
	}
	fam := partFamily(codes[likeliest(probs)])
	if fam == 0 {
		return slices.Clone(probs)
	}
	return within(codes, probs, func(code string) bool { return partFamily(code) == fam },
		func(code string) float64 { return partShare(code, glyphs) })
}

// weighIndex gives probs (of codes) weighed by a tile's index (readIndex):
// within the suit of the likeliest code, if it is a suit tile and its
// halves show an index at least indexSure surely, each code's probability
// is lifted by indexLift of the suit's total, multiplied by indexFactor,
// and the suit keeps its total. Any other reading comes back as it was (a
// copy either way).
func weighIndex(codes []string, probs []float64, index []float64) []float64 {
	if len(codes) == 0 || len(codes) != len(probs) || len(index) != len(indexLabels) || index[0] < indexSure {
		return slices.Clone(probs)
	}
	first := codes[likeliest(probs)]
	if !indexSuit(first) {
		return slices.Clone(probs)
	}
	in := func(code string) bool { return indexSuit(code) && code[1] == first[1] }
	total, n := 0.0, 0
	for c, code := range codes {
		if in(code) {
			total += probs[c]
			n++
		}
	}
	lifted := slices.Clone(probs)
	for c, code := range codes {
		if in(code) {
			lifted[c] += indexLift * total
		}
	}
	// within keeps the lifted suit's total, (1 + n·indexLift) times the
	// suit's own
	w := within(codes, lifted, in, func(code string) float64 { return indexFactor(code, index) })
	for c, code := range codes {
		if in(code) {
			w[c] /= 1 + indexLift*float64(n)
		}
	}
	return w
}

// likeliest is the index of the largest of probs (the first of equals).
func likeliest(probs []float64) int {
	first := 0
	for c := range probs {
		if probs[c] > probs[first] {
			first = c
		}
	}
	return first
}

// within multiplies the probabilities of the codes of one kind (in) by
// factor, the kind keeping its total; a copy of probs comes back, as it
// was where the factors leave the kind nothing.
func within(codes []string, probs []float64, in func(string) bool, factor func(string) float64) []float64 {
	w := slices.Clone(probs)
	before, after := 0.0, 0.0
	for c, code := range codes {
		if in(code) {
			before += w[c]
			w[c] *= factor(code)
			after += w[c]
		}
	}
	if after <= 0 {
		return slices.Clone(probs)
	}
	for c, code := range codes {
		if in(code) {
			w[c] *= before / after
		}
	}
	return w
}

// cutHalves cuts a tile's box into its top and bottom half, each resized
// to the part reader's input: a box wider than the manifest's turn aspect
// is turned a quarter clockwise first, as the classifier's cut is (a tile
// upside down has its numeral in the bottom half, which the reader reads
// either way up). ok is false when a half would hold too few pixels.
func cutHalves(img gocv.Mat, b box, m *models.Manifest) (top, bottom gocv.Mat, ok bool) {
	r := image.Rect(
		max(0, int(math.Round(b.x0))), max(0, int(math.Round(b.y0))),
		min(img.Cols(), int(math.Round(b.x1))), min(img.Rows(), int(math.Round(b.y1))))
	if r.Dx() < 4 || r.Dy() < 4 {
		return gocv.Mat{}, gocv.Mat{}, false
	}
	region := img.Region(r)
	defer region.Close()
	upright := gocv.NewMat()
	defer upright.Close()
	if float64(r.Dx()) > m.Preprocess.TurnAspect*float64(r.Dy()) {
		gocv.Rotate(region, &upright, gocv.Rotate90Clockwise)
	} else {
		region.CopyTo(&upright)
	}
	h := upright.Rows()
	size := image.Pt(m.Input.Width, m.Input.Height)
	cut := func(y0, y1 int) gocv.Mat {
		half := upright.Region(image.Rect(0, y0, upright.Cols(), y1))
		defer half.Close()
		out := gocv.NewMat()
		gocv.Resize(half, &out, size, 0, 0, interpolation(m.Preprocess))
		return out
	}
	return cut(0, h/2), cut(h/2, h), true
}
