package vision

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// cropMargin grows a box on each side before the tile is cut out, and
// sidewaysAspect is the width/height above which a crop is turned upright.
// Both repeat models/train/common.py: the classifier saw crops made this way.
const (
	cropMargin     = 0.06
	sidewaysAspect = 1.15
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
}

// cropTile cuts one tile out of the photo as the classifier expects it:
// portrait, at the manifest's input size, and says whether it turned the
// cut a quarter to get there. It returns an empty Mat when the box holds
// too few pixels.
func cropTile(img gocv.Mat, b box, w, h int) (gocv.Mat, bool) {
	mx, my := b.w()*cropMargin, b.h()*cropMargin
	r := image.Rect(
		max(0, int(math.Round(b.x0-mx))), max(0, int(math.Round(b.y0-my))),
		min(img.Cols(), int(math.Round(b.x1+mx))), min(img.Rows(), int(math.Round(b.y1+my))))
	out := gocv.NewMat()
	if r.Dx() < 2 || r.Dy() < 2 {
		return out, false
	}
	region := img.Region(r)
	defer region.Close()
	turn := float64(r.Dx()) > sidewaysAspect*float64(r.Dy())
	if turn {
		upright := gocv.NewMat()
		defer upright.Close()
		gocv.Rotate(region, &upright, gocv.Rotate90Clockwise)
		gocv.Resize(upright, &out, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	} else {
		gocv.Resize(region, &out, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	}
	return out, turn
}

// classify reads every box with one batch through the classifier.
func classify(net *gocv.Net, m *models.Manifest, img gocv.Mat, boxes []box) []reading {
	if len(boxes) == 0 {
		return nil
	}
	w, h := m.Input.Width, m.Input.Height
	crops := make([]gocv.Mat, 0, len(boxes))
	defer func() {
		for _, c := range crops {
			c.Close()
		}
	}()
	blank := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	defer blank.Close()
	// Each tile is read twice, as cut and turned half round, and the two
	// readings averaged: tiles lie either way up, and the two views'
	// mistakes differ (dev crops: 94.1% right from one view, 94.4% from two,
	// first-stage classifier).
	turns := make([]bool, len(boxes))
	for i, b := range boxes {
		c, turn := cropTile(img, b, w, h)
		turns[i] = turn
		if c.Empty() {
			c.Close()
			c = blank.Clone()
		}
		turned := gocv.NewMat()
		gocv.Rotate(c, &turned, gocv.Rotate180Clockwise)
		crops = append(crops, c, turned)
	}
	blob := gocv.NewMat()
	defer blob.Close()
	gocv.BlobFromImages(crops, &blob, m.Input.Scale, image.Pt(w, h), gocv.NewScalar(0, 0, 0, 0), false, false, gocv.MatTypeCV32F)
	net.SetInput(blob, m.Input.Name)
	out := net.Forward(m.Output.Name)
	defer out.Close()
	logits, err := out.DataPtrFloat32()
	k := len(m.Labels)
	row := k
	if m.Lying != nil {
		row++
	}
	if err != nil || len(logits) != 2*row*len(boxes) {
		return nil
	}
	temp := m.Temperature
	if temp <= 0 {
		temp = 1
	}
	res := make([]reading, len(boxes))
	for i := range boxes {
		a, b := logits[2*i*row:(2*i+1)*row], logits[(2*i+1)*row:(2*i+2)*row]
		mean := make([]float32, k)
		for j := range mean {
			mean[j] = (a[j] + b[j]) / 2
		}
		p := softmax(mean, temp)
		idx := make([]int, k)
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] > p[idx[b]] })
		r := reading{turned: turns[i], lying: -1}
		if m.Lying != nil {
			r.lying = 1 / (1 + math.Exp(-float64(a[k]+b[k])/2))
		}
		for _, j := range idx[:min(3, k)] {
			r.labels = append(r.labels, m.Labels[j])
			r.probs = append(r.probs, p[j])
		}
		res[i] = r
	}
	return res
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
