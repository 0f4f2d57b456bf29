package vision

import (
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// reading is the classifier's verdict on one tile: labels and
// probabilities, best first; whether its crop was turned upright (a wide
// box); and, from a classifier with the lying-across output, the
// probability that the tile lies across its crop (-1 without).
type reading struct {
	labels []string
	probs  []float64
	turned bool
	lying  float64
	// feat is the classifier's feature vector for the crop (the mean of
	// both views when it was read twice); nil when the model has none.
	feat []float32
	// all is the network's probability of every label, in the manifest's
	// order (nil where a reading did not come from the network).
	all []float64
	// doubtfulBlank marks a taught set's head reading a blank face (a back
	// or the blank white dragon) where the network or the head's own
	// no-tile class doubts it (Head.review): a bare patch of table or
	// glare looks like a back or a blank dragon to a head taught them.
	doubtfulBlank bool
	// glyphs is what the part reader read on the tile's halves (both
	// halves' probabilities of partGlyphs summed), for a tile the network
	// may read as a king or a queen; nil otherwise
	// (readParts).
	glyphs []float64
	// index is what the index reader read of the tile's index
	// (indexShares: how surely it shows one, then the shares of 1-9), for
	// a tile the network reads as a suit tile; nil otherwise (readIndex).
	index []float64
}

// cropTile cuts one tile out of the photo as the classifier expects it
// (its manifest's preprocess block: the box grown by the margin, a cut
// wider than the turn aspect turned upright, resized): portrait, at the
// manifest's input size, and says whether it turned the cut a quarter to
// get there. It returns an empty Mat when the box holds too few pixels.
func cropTile(img gocv.Mat, b box, m *models.Manifest) (gocv.Mat, bool) {
	pre, w, h := m.Preprocess, m.Input.Width, m.Input.Height
	mx, my := b.w()*pre.Margin, b.h()*pre.Margin
	r := image.Rect(
		max(0, int(math.Round(b.x0-mx))), max(0, int(math.Round(b.y0-my))),
		min(img.Cols(), int(math.Round(b.x1+mx))), min(img.Rows(), int(math.Round(b.y1+my))))
	out := gocv.NewMat()
	if r.Dx() < 2 || r.Dy() < 2 {
		return out, false
	}
	region := img.Region(r)
	defer region.Close()
	turn := float64(r.Dx()) > pre.TurnAspect*float64(r.Dy())
	if turn {
		upright := gocv.NewMat()
		defer upright.Close()
		gocv.Rotate(region, &upright, gocv.Rotate90Clockwise)
		gocv.Resize(upright, &out, image.Pt(w, h), 0, 0, interpolation(pre))
	} else {
		gocv.Resize(region, &out, image.Pt(w, h), 0, 0, interpolation(pre))
	}
	return out, turn
}

// secondView: a tile whose first reading is less sure than this is read
// again from its crop turned half round, and the two views' logits are
// averaged: tiles lie either way up, and the two views' mistakes differ
// (dev crops: 94.1% right from one view, 94.4% from two, first-stage
// classifier). A tile read surely from the first view is not read twice,
// which saves most of the second pass in a clear photo: at 0.97 dev, the
// held-out scenes (with and without a template bank) and calibration read
// exactly as with two views for every tile (at 0.9: one dev photo fewer
// exact), and reading the sample photo's 12 tiles takes 22 ms instead of
// 35 (stage-9 classifier, alone on this machine).
const secondView = 0.97

// classify reads every box through the classifier: one batch of the crops
// as cut, then one of those read less surely than secondView turned half
// round.
func classify(net *gocv.Net, m *models.Manifest, img gocv.Mat, boxes []box) []reading {
	if len(boxes) == 0 {
		return nil
	}
	w, h := m.Input.Width, m.Input.Height
	crops := make([]gocv.Mat, len(boxes))
	defer closeAll(crops)
	turns := make([]bool, len(boxes))
	for i, b := range boxes {
		c, turn := cropTile(img, b, m)
		turns[i] = turn
		if c.Empty() {
			c.Close()
			c = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		}
		crops[i] = c
	}
	k := len(m.Labels)
	row := k
	if m.Lying != nil {
		row++
	}
	logits, feats := forward(net, m, crops, row)
	if logits == nil {
		return nil
	}
	temp := m.Temperature
	if temp <= 0 {
		temp = 1
	}
	probs := make([][]float64, len(boxes))
	var unsure []int
	for i := range boxes {
		probs[i] = softmax(logits[i*row:i*row+k], temp)
		if slices.Max(probs[i]) < secondView {
			unsure = append(unsure, i)
		}
	}
	if len(unsure) > 0 {
		turned := make([]gocv.Mat, len(unsure))
		defer closeAll(turned)
		for j, i := range unsure {
			turned[j] = gocv.NewMat()
			gocv.Rotate(crops[i], &turned[j], gocv.Rotate180Clockwise)
		}
		second, feats2 := forward(net, m, turned, row)
		if second == nil {
			return nil
		}
		for j, i := range unsure {
			a, b := logits[i*row:(i+1)*row], second[j*row:(j+1)*row]
			for c := range a {
				a[c] = (a[c] + b[c]) / 2
			}
			probs[i] = softmax(a[:k], temp)
			if feats != nil && feats2 != nil {
				d := m.Features.Size
				fa, fb := feats[i*d:(i+1)*d], feats2[j*d:(j+1)*d]
				for c := range fa {
					fa[c] = (fa[c] + fb[c]) / 2
				}
			}
		}
	}
	res := make([]reading, len(boxes))
	for i, p := range probs {
		idx := make([]int, k)
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] > p[idx[b]] })
		r := reading{turned: turns[i], lying: -1, all: p}
		if feats != nil {
			d := m.Features.Size
			r.feat = feats[i*d : (i+1)*d : (i+1)*d]
		}
		if m.Lying != nil {
			r.lying = 1 / (1 + math.Exp(-float64(logits[i*row+k])))
		}
		for _, j := range idx[:min(3, k)] {
			r.labels = append(r.labels, m.Labels[j])
			r.probs = append(r.probs, p[j])
		}
		res[i] = r
	}
	return res
}

// forward runs the classifier on a batch of crops and returns a copy of
// its logits, row values a crop, and of its features (nil when the model
// has none); nil logits when the output is not that shape.
func forward(net *gocv.Net, m *models.Manifest, crops []gocv.Mat, row int) ([]float32, []float32) {
	blob := gocv.NewMat()
	defer blob.Close()
	gocv.BlobFromImages(crops, &blob, m.Preprocess.Scale, image.Pt(m.Input.Width, m.Input.Height), mean(m.Preprocess), false, false, gocv.MatTypeCV32F)
	net.SetInput(blob, m.Input.Name)
	if m.Features == nil {
		out := net.Forward(m.Output.Name)
		defer out.Close()
		return copyFloats(out, row*len(crops)), nil
	}
	outs := net.ForwardLayers([]string{m.Output.Name, m.Features.Name})
	defer closeAll(outs)
	if len(outs) != 2 {
		return nil, nil
	}
	logits := copyFloats(outs[0], row*len(crops))
	feats := copyFloats(outs[1], m.Features.Size*len(crops))
	if feats == nil {
		return logits, nil
	}
	return logits, feats
}

// interpolation is OpenCV's flag for a preprocess block's resize.
func interpolation(p models.Preprocess) gocv.InterpolationFlags {
	return gocv.InterpolationFlags(p.Interpolation())
}

// mean is a preprocess block's mean as the blob functions take it (BGR).
func mean(p models.Preprocess) gocv.Scalar {
	return gocv.NewScalar(p.Mean[0], p.Mean[1], p.Mean[2], 0)
}

// copyFloats copies a float Mat's n values, or gives nil when it holds
// another number of them.
func copyFloats(out gocv.Mat, n int) []float32 {
	v, err := out.DataPtrFloat32()
	if err != nil || len(v) != n {
		return nil
	}
	return append([]float32(nil), v...)
}

// closeAll closes every Mat of a batch.
func closeAll(ms []gocv.Mat) {
	for _, c := range ms {
		c.Close()
	}
}

// softmax turns logits into probabilities; temp > 1 softens overconfident
// logits (the temperature is fitted after training, see the manifest).
func softmax(logits []float32, temp float64) []float64 {
	mx := math.Inf(-1)
	for _, v := range logits {
		mx = math.Max(mx, float64(v))
	}
	p := make([]float64, len(logits))
	sum := 0.0
	for i, v := range logits {
		p[i] = math.Exp((float64(v) - mx) / temp)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}
