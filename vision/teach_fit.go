package vision

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"runtime"
	"sort"
	"strings"
	"sync"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// How the head is fitted: each example is cut headViews times, shifted,
// scaled, turned a little (and half round, as tiles lie either way up),
// lit and blurred differently, and the head is a softmax regression on
// the network's features of those cuts, fitted by full-batch Adam.
const (
	headViews  = 12
	headSteps  = 250
	headRate   = 0.05
	headDecay  = 1e-4
	headScale  = 8 // unit-length features times this
	headBatch  = 64
	headSeed   = 1
	headNoTile = 0.6 // a box the head reads as no tile at this or more is left out
	// fitChunks: the rows of a fit are summed in this many runs at once,
	// whatever the number of cores (fitSoftmax).
	fitChunks = 8
	// backOverHead: a box the network reads as a back this surely is kept
	// where the head takes it for no tile, if the set was taught its backs.
	backOverHead = 0.99
	// noTileDoubt: a blank face the head reads (a back or the blank
	// dragon) is doubtful (reading.doubtfulBlank) where the head holds the
	// box no tile at this or more, or the network reads that face under
	// sureBack (blank.go); dropWeak leaves out a doubtful blank face the
	// detector is unsure of. Chosen with sureBack's 0.9 on the boxes the
	// head reads as backs in the held-out designs (at 0.1 and 0.2 alike;
	// 0.05 with 0.95 lost more real backs), so measured on the designs it
	// was chosen on (models/README.md, "Doubtful backs and blank
	// dragons").
	noTileDoubt = 0.1
	// minPrior and maxPrior bound Head.Prior, how much the network's own
	// reading weighs beside the head's (see Fit).
	minPrior, maxPrior = 0.1, 1.0
	// blurredExample and sharpExample: a code whose sharpest taught
	// example is at most blurredExample times as sharp as the set's
	// median example is not trusted to the head at all, one at least
	// sharpExample times is trusted fully, and those between in
	// proportion (exampleTrust).
	blurredExample, sharpExample = 0.5, 0.9
	// sharpnessRim: the share of the tile's size by which its box is grown
	// to measure an example's sharpness.
	sharpnessRim = 0.05
	// tinyTile: a tile whose box's short side is under this many px (as
	// the photo is read) is read by the head's second fit (Head.SmallW),
	// on cuts shrunk to smallLeast–smallMost of the classifier's input.
	tinyTile              = 20
	smallLeast, smallMost = 0.2, 0.42
)

// ErrNoFeatures says the shipped classifier has no features output, so a
// set cannot be taught.
var ErrNoFeatures = errors.New("the classifier has no features output: a tile set cannot be taught with it")

// Fit fits the bank's head on its examples. It needs at least two classes.
func (b *Bank) Fit(rec *Recognizer) error {
	if rec.cls.Features == nil {
		return ErrNoFeatures
	}
	var codes []string
	index := map[string]int{}
	for _, e := range b.Examples {
		if _, ok := index[e.Code]; !ok {
			index[e.Code] = len(codes)
			codes = append(codes, e.Code)
		}
	}
	if len(codes) < 2 {
		return fmt.Errorf("%w: a set needs at least two kinds of tile to learn from", ErrNothingToTeach)
	}
	sort.Strings(codes)
	for i, c := range codes {
		index[c] = i
	}
	X, y, netRight, tiles, err := b.features(rec, index, false)
	if err != nil {
		return err
	}
	b.Head = fitSoftmax(X, y, codes, rec.cls.Features.Size)
	if X, y, _, _, err = b.features(rec, index, true); err != nil {
		return err
	}
	small := fitSoftmax(X, y, codes, rec.cls.Features.Size)
	b.Head.SmallW, b.Head.SmallB = small.W, small.B
	b.Head.Features = rec.features()
	b.Head.Trust = b.trust(codes)
	// The network's reading weighs as much as it is right on this set's
	// taught tiles: a reading is the head's probability times the
	// network's to this power. End to end, taught from the fewest photos:
	// FluffyStuff (the network reads 0.95 of it right) 0.904 at a power of
	// 0.5, 0.907 at 1; egypt (0.24 right) 0.77 at 0.5, 0.70 at 1.
	b.Head.Prior, b.Head.Tiles = minPrior, b.Tiles()
	if tiles > 0 {
		b.Head.Prior = float32(math.Min(maxPrior, math.Max(minPrior, float64(netRight)/float64(tiles))))
	}
	return nil
}

// features runs the network on headViews cuts of every example and gives
// their unit-length feature vectors, row by row, and each row's class; and
// of the examples' plain cuts that are tiles, how many the network reads
// right by itself. With small, every cut is seen as a tile under
// tinyTile px is (smallCut).
func (b *Bank) features(rec *Recognizer, index map[string]int, small bool) ([]float32, []int, int, int, error) {
	w := <-rec.pool
	defer func() { rec.pool <- w }()
	m := &rec.cls
	d := m.Features.Size
	row := len(m.Labels)
	if m.Lying != nil {
		row++
	}
	r := rand.New(rand.NewSource(headSeed))
	var X []float32
	var y []int
	var batch []gocv.Mat
	var classes []int
	var plain []string // the code of a plain cut, "" for the augmented ones
	right, tiles := 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		logits, feats := forward(&w.cls, m, batch, row)
		closeAll(batch)
		if feats == nil || logits == nil {
			return errors.New("the classifier gave no features")
		}
		for i := range batch {
			X = append(X, unit(feats[i*d:(i+1)*d])...)
			if plain[i] == "" || plain[i] == noTile {
				continue
			}
			tiles++
			best := 0
			for j := 1; j < len(m.Labels); j++ {
				if logits[i*row+j] > logits[i*row+best] {
					best = j
				}
			}
			if m.Labels[best] == plain[i] {
				right++
			}
		}
		y = append(y, classes...)
		batch, classes, plain = batch[:0], classes[:0], plain[:0]
		return nil
	}
	for _, e := range b.Examples {
		src, err := gocv.NewMatFromBytes(exampleHeight, exampleWidth, gocv.MatTypeCV8UC3, e.BGR)
		if err != nil || src.Empty() {
			src.Close()
			continue
		}
		for v := 0; v < headViews; v++ {
			c := augmentedCut(src, m, r, v == 0)
			if v > 0 && !c.Empty() && inkMayTurn(e.Code) && r.Intn(2) == 0 {
				turnHue(c, r.Float64()*2*math.Pi)
			}
			if small && !c.Empty() {
				smallCut(c, r)
			}
			if c.Empty() {
				c.Close()
				continue
			}
			batch = append(batch, c)
			classes = append(classes, index[e.Code])
			if v == 0 {
				plain = append(plain, e.Code)
			} else {
				plain = append(plain, "")
			}
			if len(batch) == headBatch {
				if err := flush(); err != nil {
					src.Close()
					return nil, nil, 0, 0, err
				}
			}
		}
		src.Close()
	}
	if err := flush(); err != nil {
		return nil, nil, 0, 0, err
	}
	return X, y, right, tiles, nil
}

// augmentedCut cuts an example as the classifier cls reads a tile (its box
// grown by the preprocess block's margin), at its input size; plain gives
// the cut as is, otherwise it is shifted, scaled, turned and lit at random.
func augmentedCut(src gocv.Mat, cls *models.Manifest, r *rand.Rand, plain bool) gocv.Mat {
	w, h, margin := cls.Input.Width, cls.Input.Height, cls.Preprocess.Margin
	// The tile's box in the example, and the classifier's crop around it.
	bw, bh := float64(exampleWidth)/(1+2*exampleMargin), float64(exampleHeight)/(1+2*exampleMargin)
	cw, ch := bw*(1+2*margin), bh*(1+2*margin)
	cx, cy := float64(exampleWidth)/2, float64(exampleHeight)/2
	angle := 0.0
	if !plain {
		cw *= 0.9 + 0.2*r.Float64()
		ch *= 0.9 + 0.2*r.Float64()
		cx += bw * 0.12 * (r.Float64() - 0.5)
		cy += bh * 0.12 * (r.Float64() - 0.5)
		angle = 12 * (r.Float64() - 0.5)
		if r.Intn(2) == 0 {
			angle += 180
		}
	}
	t := angle * math.Pi / 180
	cos, sin := math.Cos(t), math.Sin(t)
	kx, ky := float64(w)/cw, float64(h)/ch
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	// dst = K·R·(src − c) + centre of the cut
	m.SetDoubleAt(0, 0, kx*cos)
	m.SetDoubleAt(0, 1, kx*sin)
	m.SetDoubleAt(0, 2, float64(w)/2-kx*(cos*cx+sin*cy))
	m.SetDoubleAt(1, 0, -ky*sin)
	m.SetDoubleAt(1, 1, ky*cos)
	m.SetDoubleAt(1, 2, float64(h)/2-ky*(-sin*cx+cos*cy))
	out := gocv.NewMat()
	gocv.WarpAffineWithParams(src, &out, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	if plain || out.Empty() {
		return out
	}
	if r.Intn(4) == 0 { // a tile photographed smaller
		k := 0.35 + 0.3*r.Float64()
		small := gocv.NewMat()
		gocv.Resize(out, &small, image.Pt(max(4, int(float64(w)*k)), max(4, int(float64(h)*k))), 0, 0, gocv.InterpolationArea)
		gocv.Resize(small, &out, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
		small.Close()
	}
	if r.Intn(4) == 0 {
		gocv.GaussianBlur(out, &out, image.Pt(0, 0), 0.6+0.6*r.Float64(), 0, gocv.BorderReplicate)
	}
	lit := gocv.NewMat()
	out.ConvertToWithParams(&lit, gocv.MatTypeCV8UC3, float32(0.75+0.5*r.Float64()), float32(40*(r.Float64()-0.5)))
	out.Close()
	return lit
}

// smallCut shows a cut as a tile under tinyTile px is photographed: shrunk
// to smallLeast–smallMost of its width (a tile of 10 to 19 px in the
// classifier's 48 px input), then enlarged back as the classifier's
// preprocess enlarges it.
func smallCut(c gocv.Mat, r *rand.Rand) {
	w, h := c.Cols(), c.Rows()
	k := smallLeast + (smallMost-smallLeast)*r.Float64()
	sw, sh := max(4, int(float64(w)*k)), max(4, int(float64(h)*k))
	tiny := gocv.NewMat()
	defer tiny.Close()
	gocv.Resize(c, &tiny, image.Pt(sw, sh), 0, 0, gocv.InterpolationArea)
	gocv.Resize(tiny, &c, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
}

// inkMayTurn says whether a taught tile may be shown to the head in other
// inks: every tile but the fives, whose red is what tells a red five.
func inkMayTurn(code string) bool {
	return len(code) == 2 && !(strings.ContainsRune("mps", rune(code[1])) && (code[0] == '5' || code[0] == '0'))
}

// turnHue turns the hue of every pixel of a BGR cut by angle (radians),
// about the grey axis: grey stays grey, lightness is kept, and the inks
// take other colours. A set's own tiles are printed in one ink, but the
// light of a photo and a player's lamp turn it.
func turnHue(c gocv.Mat, angle float64) {
	if c.Type() != gocv.MatTypeCV8UC3 || c.Empty() {
		return
	}
	cos, sin := math.Cos(angle), math.Sin(angle)
	const k = 1.0 / 3
	s3 := math.Sqrt(k)
	// Rodrigues' rotation about (1,1,1)/√3, in R,G,B order.
	var m [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] = k * (1 - cos)
			if i == j {
				m[i][j] += cos
			}
		}
	}
	m[0][1] -= s3 * sin
	m[0][2] += s3 * sin
	m[1][0] += s3 * sin
	m[1][2] -= s3 * sin
	m[2][0] -= s3 * sin
	m[2][1] += s3 * sin
	// The same rotation on the cut's B,G,R channels (rows and columns in
	// reverse order), by OpenCV's transform, which rounds and saturates.
	tm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer tm.Close()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			tm.SetDoubleAt(i, j, m[2-i][2-j])
		}
	}
	out := gocv.NewMat()
	defer out.Close()
	gocv.Transform(c, &out, tm)
	out.CopyTo(&c)
}

// unit scales a vector to unit length times headScale.
func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	k := float32(0)
	if s > 0 {
		k = float32(headScale / math.Sqrt(s))
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * k
	}
	return out
}

// fitSoftmax fits a softmax regression (weight decay headDecay) by
// full-batch Adam, classes balanced by weighting each row by the inverse
// of its class's count.
func fitSoftmax(X []float32, y []int, codes []string, d int) *Head {
	n, k := len(y), len(codes)
	W := make([]float64, k*d)
	B := make([]float64, k)
	mW, vW := make([]float64, k*d), make([]float64, k*d)
	mB, vB := make([]float64, k), make([]float64, k)
	count := make([]float64, k)
	for _, c := range y {
		count[c]++
	}
	weight := make([]float64, n)
	for i, c := range y {
		weight[i] = float64(n) / (float64(k) * count[c] * float64(n))
	}
	gW, gB := make([]float64, k*d), make([]float64, k)
	// The gradient is summed over fitChunks runs of rows at once, each
	// into its own buffer, then the buffers in order: the same sums, and
	// so the same head, on any number of cores.
	chunk := (n + fitChunks - 1) / fitChunks
	parts := make([]gradient, fitChunks)
	for p := range parts {
		parts[p] = gradient{W: make([]float64, k*d), B: make([]float64, k), z: make([]float64, k)}
	}
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for step := 1; step <= headSteps; step++ {
		var wg sync.WaitGroup
		free := make(chan struct{}, runtime.GOMAXPROCS(0))
		for p := range parts {
			wg.Add(1)
			free <- struct{}{}
			go func(g *gradient, from, to int) {
				defer func() { <-free; wg.Done() }()
				g.of(X[from*d:to*d], y[from:to], weight[from:to], W, B)
			}(&parts[p], min(n, p*chunk), min(n, (p+1)*chunk))
		}
		wg.Wait()
		clear(gW)
		clear(gB)
		for _, g := range parts {
			for j, v := range g.W {
				gW[j] += v
			}
			for c, v := range g.B {
				gB[c] += v
			}
		}
		c1, c2 := 1-math.Pow(b1, float64(step)), 1-math.Pow(b2, float64(step))
		for j := range W {
			g := gW[j] + headDecay*W[j]
			mW[j] = b1*mW[j] + (1-b1)*g
			vW[j] = b2*vW[j] + (1-b2)*g*g
			W[j] -= headRate * (mW[j] / c1) / (math.Sqrt(vW[j]/c2) + eps)
		}
		for c := range B {
			g := gB[c]
			mB[c] = b1*mB[c] + (1-b1)*g
			vB[c] = b2*vB[c] + (1-b2)*g*g
			B[c] -= headRate * (mB[c] / c1) / (math.Sqrt(vB[c]/c2) + eps)
		}
	}
	h := &Head{Codes: codes, Dim: d, W: make([]float32, k*d), B: make([]float32, k), Scale: headScale}
	for j, w := range W {
		h.W[j] = float32(w)
	}
	for c, b := range B {
		h.B[c] = float32(b)
	}
	return h
}

// gradient is the softmax loss's gradient by W and B over some rows, and
// room for one row's scores (z).
type gradient struct{ W, B, z []float64 }

// of sets g to the gradient at W and B (k classes of d weights) over the
// rows of X (d features each), their classes y and their weights.
func (g *gradient) of(X []float32, y []int, weight, W, B []float64) {
	k := len(B)
	d := len(W) / k
	clear(g.W)
	clear(g.B)
	z := g.z
	for i := range y {
		x := X[i*d : (i+1)*d]
		mx := math.Inf(-1)
		for c := 0; c < k; c++ {
			s := B[c]
			wc := W[c*d : (c+1)*d]
			for j, xj := range x {
				s += wc[j] * float64(xj)
			}
			z[c] = s
			mx = math.Max(mx, s)
		}
		sum := 0.0
		for c := range z {
			z[c] = math.Exp(z[c] - mx)
			sum += z[c]
		}
		for c := 0; c < k; c++ {
			p := z[c] / sum
			if c == y[i] {
				p--
			}
			p *= weight[i]
			g.B[c] += p
			gc := g.W[c*d : (c+1)*d]
			for j, xj := range x {
				gc[j] += p * float64(xj)
			}
		}
	}
}

// probs gives the head's probability of each of its codes for one
// feature vector (as the classifier gave it), or nil when it does not fit:
// with small, by its second fit where it has one (SmallW).
func (h *Head) probs(feat []float32, small bool) []float64 {
	if h == nil || len(feat) != h.Dim || len(h.W) != len(h.Codes)*h.Dim || len(h.B) != len(h.Codes) {
		return nil
	}
	W, B := h.W, h.B
	if small && len(h.SmallW) == len(h.W) && len(h.SmallB) == len(h.B) {
		W, B = h.SmallW, h.SmallB
	}
	x := unit(feat)
	z := make([]float32, len(h.Codes))
	for c := range h.Codes {
		s := B[c]
		for j, xj := range x {
			s += W[c*h.Dim+j] * xj
		}
		z[c] = s
	}
	return softmax(z, 1)
}

// read gives the head's probability of each of its codes for one feature
// vector: for a tiny tile (tinyTile), each tile code's probability is the
// mean of the first fit's and the second's (SmallW, its no tile left out
// and the first fit's share of tiles kept), and no tile's is the first
// fit's. Chosen on the validation designs, taught (models/README.md, "A
// second fit for tiny tiles"): the second fit alone, no tile included,
// took small blurs for tiles (gnome-set 0.9213 -> 0.9155); alone, with
// the first fit's no tile, 0.9206 and gnome 0.9539 -> 0.9541; the mean
// 0.9219 and 0.9578.
func (h *Head) read(feat []float32, tiny bool) []float64 {
	q := h.probs(feat, false)
	if !tiny || q == nil || len(h.SmallW) != len(h.W) {
		return q
	}
	qs := h.probs(feat, true)
	none, smallNone := 0.0, 0.0
	for j, c := range h.Codes {
		if c == noTile {
			none, smallNone = q[j], qs[j]
		}
	}
	if smallNone >= 1 {
		return q
	}
	for j, c := range h.Codes {
		if c != noTile {
			q[j] = (q[j] + qs[j]/(1-smallNone)*(1-none)) / 2
		}
	}
	return q
}

// review reads every tile with the head and the network together: each
// taught code scores the head's probability times the network's to the
// power Prior. The network's reading stands where it is sure of a tile
// the set was not taught (a back or a joker the teaching photos did not
// show). Boxes the head takes for no tile come back with keep false, and
// blank faces it reads that the network or its no-tile class doubts come
// back marked doubtfulBlank (see noTileDoubt). labels are the network's
// labels, in the order of each reading's all.
func (h *Head) review(boxes []box, reads []reading, labels []string) ([]reading, []bool) {
	keepBox := make([]bool, len(reads))
	taught := map[string]bool{}
	for _, c := range h.Codes {
		taught[c] = true
	}
	at := map[string]int{}
	for i, l := range labels {
		at[l] = i
	}
	for i, rd := range reads {
		keepBox[i] = true
		q := h.read(rd.feat, i < len(boxes) && shortSide(boxes[i]) < tinyTile)
		if q == nil || len(rd.labels) == 0 {
			continue
		}
		if !taught[rd.labels[0]] && rd.probs[0] >= 0.9 {
			continue
		}
		none := 0.0
		score := make([]float64, len(q))
		sum := 0.0
		for j, c := range h.Codes {
			if c == noTile {
				none = q[j]
				continue
			}
			score[j] = q[j]
			if k, ok := at[c]; ok && k < len(rd.all) {
				score[j] *= math.Pow(math.Max(rd.all[k], 1e-6), float64(h.Prior))
			}
			sum += score[j]
		}
		// A set's backs can be the colour of its table (egypt's green
		// backs beside the green table its no-tile patches came from): the
		// network's sure back stands, and is not doubted (doubtfulBlank)
		// however much the head takes it for no tile (fluffy-black's teal
		// backs on wood, where the head's no-tile class held 0.4).
		netBack := taught["0z"] && rd.labels[0] == "0z" && rd.probs[0] >= backOverHead
		if none >= headNoTile && !netBack {
			keepBox[i] = false
			continue
		}
		if netBack {
			none = 0
		}
		if len(h.Trust) == len(h.Codes) { // Fit leaves Trust empty where it trusts every code
			sum = h.abstain(q, score)
		}
		// The part reader's glyphs and the index reader's index weigh
		// the head's reading within its kind (each kind keeps its total,
		// so sum stands), and the reading reported is this one (out has
		// neither).
		score = weighHalves(h.Codes, score, rd)
		if sum <= 0 {
			continue
		}
		idx := make([]int, len(q))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
		out := reading{turned: rd.turned, lying: rd.lying, feat: rd.feat}
		for _, j := range idx {
			if h.Codes[j] == noTile {
				continue
			}
			out.labels = append(out.labels, h.Codes[j])
			out.probs = append(out.probs, score[j]/sum*(1-none))
			if len(out.labels) == 3 {
				break
			}
		}
		if len(out.labels) > 0 && blankFace(out.labels[0]) {
			net := 0.0
			if k, ok := at[out.labels[0]]; ok && k < len(rd.all) {
				net = rd.all[k]
			}
			out.doubtfulBlank = net < sureBack || none >= noTileDoubt
		}
		reads[i] = out
	}
	return reads, keepBox
}

// A code taught only from blurred examples (a tile caught moving, or
// photographed small) is learned from what does not look like the sharp
// tiles of that code: the head then reads a sharp one as a neighbour it
// was shown clearly (held-out "traditional": a joker 6j taught once,
// blurred, read as 4j eighteen times, where the network alone reads it
// right). So the head does not speak for such a code: its probability is
// raised toward the head's surest, q^t · top^(1−t) for trust t, and the
// network decides between that code and the others.

// trust gives each of codes its trust (see exampleTrust), or nil when
// every code is trusted. A blank face (a back, the blank dragon) has no
// detail to be blurred, and is always trusted.
func (b *Bank) trust(codes []string) []float32 {
	var sharpness []float64
	best := map[string]float64{}
	for _, e := range b.Examples {
		if e.Code == noTile || blankFace(e.Code) {
			continue
		}
		s, ok := exampleSharpness(e)
		if !ok {
			continue
		}
		sharpness = append(sharpness, s)
		best[e.Code] = math.Max(best[e.Code], s)
	}
	if len(sharpness) == 0 {
		return nil
	}
	sort.Float64s(sharpness)
	median := sharpness[len(sharpness)/2]
	out := make([]float32, len(codes))
	all := true
	for i, c := range codes {
		out[i] = 1
		if s, ok := best[c]; ok {
			out[i] = float32(exampleTrust(s, median))
		}
		all = all && out[i] == 1
	}
	if all {
		return nil
	}
	return out
}

// knownSet and knownTiles: a set whose taught tiles the network already
// reads right, all but one in thirty or fewer (Head.Prior is that share),
// measured on knownTiles of them or more, is a set the shipped models
// know, and it is read as they read it. Its head and the broad detector
// could only lose tiles there: taught from the fewest of dev's photos (the
// set the models learned from; 87 of its 87 taught tiles read right),
// dev's other 97 photos read 0.9827 with 73 exact through the head and the
// broad detector, 0.9856 and 76 with the shipped detector, 0.9869 and 77
// with the shipped detector and no head, against 0.9880 and 77 read alone.
// No held-out or validation design's taught tiles are read right more
// than 0.911 of the time (models/README.md, "Teaching a set the models
// know", in the third section of 2026-12-05). The share of a few tiles
// says little: a hand of 14 tiles of a set the network reads 0.91 of is
// read all right one time in four. 60 tiles all read right put the share
// at 0.95 or more with 95% confidence (0.05^(1/60) = 0.951).
const (
	knownSet   = 0.97
	knownTiles = 60
)

// Known says whether the shipped models already read the set (knownSet):
// a recogniser given the bank then reads as it does without one. A set
// read with its lightness inverted is never known: its tiles were read
// right in a view the recogniser alone tries only when unsure.
func (b *Bank) Known() bool {
	return b != nil && b.Head != nil && !b.Inverted && b.Head.Prior >= knownSet && b.Head.Tiles >= knownTiles
}

// Blurred names the codes the head trusts less than fully, as they were
// taught only from blurred tiles: a sharper photo of them teaches them
// better.
func (b *Bank) Blurred() []string {
	if b.Head == nil || len(b.Head.Trust) != len(b.Head.Codes) {
		return nil
	}
	var out []string
	for i, c := range b.Head.Codes {
		if c != noTile && b.Head.Trust[i] < 1 {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// exampleTrust: 0 for a code whose sharpest example is at most
// blurredExample of the set's median sharpness, 1 from sharpExample, and
// in proportion between.
func exampleTrust(sharpest, median float64) float64 {
	if median <= 0 {
		return 1
	}
	return math.Min(1, math.Max(0, (sharpest/median-blurredExample)/(sharpExample-blurredExample)))
}

// exampleSharpness measures how sharp an example's face is: the spread of
// its fine detail (the face less the face blurred by a pixel) over the
// spread of the face itself, so neither the light nor the ink's contrast
// counts. It is measured on the tile's box grown by sharpnessRim, so that
// the tile's outline, the sharpest edge of a blank-ish face, counts.
func exampleSharpness(e Example) (float64, bool) {
	if len(e.BGR) != exampleWidth*exampleHeight*3 {
		return 0, false
	}
	src, err := gocv.NewMatFromBytes(exampleHeight, exampleWidth, gocv.MatTypeCV8UC3, e.BGR)
	if err != nil {
		return 0, false
	}
	defer src.Close()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(src, &grey, gocv.ColorBGRToGray)
	f := gocv.NewMat()
	defer f.Close()
	grey.ConvertTo(&f, gocv.MatTypeCV32F)
	bw, bh := exampleWidth/(1+2*exampleMargin), exampleHeight/(1+2*exampleMargin)
	mx := int(math.Round(bw*exampleMargin - sharpnessRim*bw))
	my := int(math.Round(bh*exampleMargin - sharpnessRim*bh))
	face := f.Region(image.Rect(mx, my, exampleWidth-mx, exampleHeight-my))
	defer face.Close()
	blurred := gocv.NewMat()
	defer blurred.Close()
	gocv.GaussianBlur(face, &blurred, image.Pt(0, 0), 1, 0, gocv.BorderReplicate)
	detail := gocv.NewMat()
	defer detail.Close()
	gocv.Subtract(face, blurred, &detail)
	spread := deviation(face)
	if spread < 1 { // a blank face: nothing to be sharp or blurred
		return 0, false
	}
	return deviation(detail) / spread, true
}

// deviation is the standard deviation of a one-channel Mat's values.
func deviation(m gocv.Mat) float64 {
	mean, dev := gocv.NewMat(), gocv.NewMat()
	defer mean.Close()
	defer dev.Close()
	gocv.MeanStdDev(m, &mean, &dev)
	if dev.Empty() {
		return 0
	}
	return dev.GetDoubleAt(0, 0)
}

// abstain raises each distrusted code's score toward the head's surest
// (see trust): score holds the head's probability q times the network's
// weight, and comes back changed with its new sum (noTile left out).
func (h *Head) abstain(q, score []float64) float64 {
	top := 0.0
	for j, c := range h.Codes {
		if c != noTile {
			top = math.Max(top, q[j])
		}
	}
	sum := 0.0
	for j, c := range h.Codes {
		if c == noTile {
			continue
		}
		if t := float64(h.Trust[j]); t < 1 && q[j] > 0 {
			score[j] *= math.Pow(top/q[j], 1-t)
		}
		sum += score[j]
	}
	return sum
}

func (h *Head) validate() error {
	seen := map[string]bool{}
	for _, c := range h.Codes {
		if c != noTile && !labelCode(c) {
			return fmt.Errorf("template bank: the head names %q, not a tile code", c)
		}
		if seen[c] {
			return fmt.Errorf("template bank: the head names %s twice", c)
		}
		seen[c] = true
	}
	switch {
	case len(h.Codes) < 2:
		return errors.New("template bank: the head has fewer than two classes")
	case h.Tiles < 0:
		return errors.New("template bank: the head was measured on a negative count of tiles")
	case h.Prior < 0 || h.Prior > maxPrior || math.IsNaN(float64(h.Prior)):
		return fmt.Errorf("template bank: the head's prior %g lies outside 0 to %g", h.Prior, maxPrior)
	case len(h.Features) > 100:
		return errors.New("template bank: the head's features name is too long to be a model's")
	case len(h.Trust) != 0 && len(h.Trust) != len(h.Codes):
		return fmt.Errorf("template bank: the head trusts %d codes of its %d", len(h.Trust), len(h.Codes))
	case h.Dim <= 0 || h.Dim > 4096 || len(h.W) != len(h.Codes)*h.Dim || len(h.B) != len(h.Codes):
		return fmt.Errorf("template bank: the head's weights do not fit %d classes of %d features", len(h.Codes), h.Dim)
	}
	for _, t := range h.Trust {
		if !(t >= 0 && t <= 1) {
			return errors.New("template bank: the head's trust in a code lies outside 0 to 1")
		}
	}
	for _, w := range append(append([]float32(nil), h.W...), h.B...) {
		if math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) {
			return errors.New("template bank: the head's weights are damaged")
		}
	}
	return nil
}
