package vision

import (
	"image"
	"image/color"
	"math"
	"sync"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// How a bank's verdict weighs against the network's. Scores are
// TM_CCOEFF_NORMED correlations of colour cuts (1 for a perfect match);
// the margin is over the best template of another face, so a red five and
// its plain five do not crowd each other out. Chosen on synthetic scenes
// of the egypt set, which the network never saw (it read 5 of 76 found
// tiles right, the bank's best match 54), and on the committed photos of a
// set it knows, read with the egypt bank: there the bank's best match is
// wrong on a tile of another set, and some score up to 0.87 with a margin
// of 0.08, so a match overturns a confident network only above that.
// Egypt matches scoring 0.88 or more with a margin of 0.04 or more were
// right 36 times in 36.
const (
	// A strong match is taken over any network reading: this is what makes
	// a set the network never saw readable.
	strongScore, strongMargin = 0.88, 0.04
	// A clear match overturns a network reading below lowConfidence.
	clearScore, clearMargin = 0.80, 0.02
	lowConfidence           = 0.70
	// A match's margin is turned into a confidence by a logistic curve
	// through these (0.5 at the centre; 0.86 at a margin of 0.05).
	marginCentre, marginScale = 0.028, 0.012
	// minSpread is the grey-level standard deviation below which a cut is
	// taken for blank: its correlations say nothing.
	minSpread = 4.0
	// sharpTemplate is the classifier's input width (48 px): a template
	// cut from a tile narrower than this, as the photo was read, was
	// enlarged to be kept, and tells a suit by its colours but not a
	// numeral or a character from its neighbour's (see decide).
	sharpTemplate = 48
	// sureWithinSuit: nor does any template overturn a reading of its
	// own suit that is at least this sure (held-out "traditional",
	// taught: a 1m the head and the network agreed on, overturned by a
	// template of 8m cut from a large tile, eight times).
	sureWithinSuit = 0.9
)

// bankView holds a bank's templates, prepared for matching, stacked in
// one column: one MatchTemplate call then scores a tile against all of
// them (about twenty times faster than a call per template).
type bankView struct {
	bank    *Bank
	montage gocv.Mat // the prepared templates, one under another
	blank   []bool   // templates with nothing on them to match
	// crop is the classifier's preprocess block: a photo's tile is cut
	// for matching as the classifier cuts it.
	crop models.Preprocess
}

// view gives the bank's templates ready to match. They are prepared once
// for the bank (prepared) and each photo gets its own Mat of them, closed
// with the view; crop is the classifier's preprocess block.
func (b *Bank) view(crop models.Preprocess) *bankView {
	p := b.prepared()
	W, H, n := b.Width, b.Height, len(b.Templates)
	m, err := gocv.NewMatFromBytes(max(1, n)*H, W, gocv.MatTypeCV8UC3, p.montage)
	if err != nil {
		m = gocv.NewMatWithSize(max(1, n)*H, W, gocv.MatTypeCV8UC3)
	}
	return &bankView{bank: b, montage: m, blank: p.blank, crop: crop}
}

// bankPrep is a bank's templates as matched: one column of prepared cuts.
type bankPrep struct {
	montage []byte
	blank   []bool
}

var prepMu sync.Mutex

// prepared prepares the bank's templates the first time it is asked.
func (b *Bank) prepared() *bankPrep {
	prepMu.Lock()
	defer prepMu.Unlock()
	if b.prep == nil {
		v := b.prepare()
		b.prep = &bankPrep{montage: v.montage.ToBytes(), blank: v.blank}
		v.close()
	}
	return b.prep
}

func (b *Bank) prepare() *bankView {
	W, H, n := b.Width, b.Height, len(b.Templates)
	v := &bankView{bank: b, montage: gocv.NewMatWithSize(max(1, n)*H, W, gocv.MatTypeCV8UC3), blank: make([]bool, n)}
	for i, t := range b.Templates {
		v.blank[i] = true
		if len(t.BGR) != W*H*3 {
			continue
		}
		bgr, err := gocv.NewMatFromBytes(H, W, gocv.MatTypeCV8UC3, t.BGR)
		if err == nil && !bgr.Empty() {
			v.blank[i] = !v.prepareInto(bgr, image.Rect(0, i*H, W, (i+1)*H))
		}
		bgr.Close()
	}
	return v
}

func (v *bankView) close() { v.montage.Close() }

// prepare turns a W×H colour cut into what is matched: the colours, a
// little blurred (the cuts of one tile in two photos differ by a pixel or
// two however carefully they are made; colour tells apart faces alike in
// grey, red fives among them). False for a blank cut.
func (v *bankView) prepare(bgr gocv.Mat, dst *gocv.Mat) bool {
	g := gocv.NewMat()
	defer g.Close()
	gocv.CvtColor(bgr, &g, gocv.ColorBGRToGray)
	if spread(g.ToBytes()) < minSpread {
		return false
	}
	gocv.GaussianBlur(bgr, dst, image.Pt(0, 0), 1, 1, gocv.BorderReplicate)
	return true
}

// prepareInto prepares a template into its cell of the montage.
func (v *bankView) prepareInto(bgr gocv.Mat, cell image.Rectangle) bool {
	p := gocv.NewMat()
	defer p.Close()
	if !v.prepare(bgr, &p) || p.Cols() != cell.Dx() || p.Rows() != cell.Dy() || p.Type() != v.montage.Type() {
		return false
	}
	dst := v.montage.Region(cell)
	defer dst.Close()
	p.CopyTo(&dst)
	return true
}

// spread is the standard deviation of grey levels.
func spread(px []byte) float64 {
	if len(px) == 0 {
		return 0
	}
	var s, s2 float64
	for _, p := range px {
		s += float64(p)
		s2 += float64(p) * float64(p)
	}
	n := float64(len(px))
	return math.Sqrt(math.Max(0, s2/n-(s/n)*(s/n)))
}

// scores matches one tile of the photo against every template: the
// tile is cut as for the classifier, its middle (bankShift pixels in from
// each side) is slid over each template, as cut and turned half round,
// and the best correlation kept. It returns nil for a tile too small or
// too blank to match; a blank template scores -1.
func (v *bankView) scores(img gocv.Mat, b box) []float64 {
	W, H, n := v.bank.Width, v.bank.Height, len(v.blank)
	if n == 0 || v.montage.Rows() != n*H || v.montage.Cols() != W {
		return nil
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = -1
	}
	any := false
	for _, deg := range tileAngles(img, b) {
		any = v.scoreTurned(img, b, deg, out) || any
	}
	if !any {
		return nil
	}
	return out
}

// tileAngles is the angles a tile is cut at: upright, and turned as far
// as its edges say it stands turned, when that is more than a few degrees.
func tileAngles(img gocv.Mat, b box) []float64 {
	if a := edgeAngle(img, b); math.Abs(a) >= 4 {
		return []float64{0, a}
	}
	return []float64{0}
}

// edgeAngle estimates, in degrees within ±45, how far the tile in box b
// stands turned clockwise: the strongest direction of the grey-level edges
// in the box, modulo a quarter turn (a tile's edges meet at right angles).
func edgeAngle(img gocv.Mat, b box) float64 {
	r := image.Rect(int(b.x0), int(b.y0), int(math.Ceil(b.x1)), int(math.Ceil(b.y1))).Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if r.Dx() < 8 || r.Dy() < 8 || img.Type() != gocv.MatTypeCV8UC3 {
		return 0
	}
	region := img.Region(r)
	defer region.Close()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(region, &grey, gocv.ColorBGRToGray)
	// About 64 pixels on the long side, the same scale both ways.
	k := 64 / float64(max(r.Dx(), r.Dy()))
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(grey, &small, image.Pt(max(8, int(float64(r.Dx())*k)), max(8, int(float64(r.Dy())*k))), 0, 0, gocv.InterpolationArea)
	px, w, h := small.ToBytes(), small.Cols(), small.Rows()
	if len(px) != w*h {
		return 0
	}
	var hist [90]float64
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			gx := float64(px[y*w+x+1]) - float64(px[y*w+x-1])
			gy := float64(px[(y+1)*w+x]) - float64(px[(y-1)*w+x])
			m := gx*gx + gy*gy
			if m < 400 {
				continue
			}
			d := math.Mod(math.Atan2(gy, gx)*180/math.Pi+360, 90)
			hist[int(d)%90] += math.Sqrt(m)
		}
	}
	best, bestV := 0, -1.0
	for i := range hist {
		v := hist[(i+89)%90] + 2*hist[i] + hist[(i+1)%90]
		if v > bestV {
			best, bestV = i, v
		}
	}
	a := float64(best)
	if a > 45 {
		a -= 90
	}
	return a
}

// scoreTurned matches the tile cut as if turned deg degrees, keeping each
// template's best score in out; false when the tile cannot be cut.
func (v *bankView) scoreTurned(img gocv.Mat, b box, deg float64, out []float64) bool {
	W, H, n := v.bank.Width, v.bank.Height, len(v.blank)
	crop := cutTurned(img, b, deg, W, H, v.crop)
	defer crop.Close()
	if crop.Empty() || crop.Type() != gocv.MatTypeCV8UC3 || crop.Cols() != W || crop.Rows() != H {
		return false
	}
	tile := gocv.NewMat()
	defer tile.Close()
	if !v.prepare(crop, &tile) || tile.Type() != v.montage.Type() {
		return false
	}
	turned := gocv.NewMat()
	defer turned.Close()
	gocv.Rotate(tile, &turned, gocv.Rotate180Clockwise)
	s := bankShift
	res := gocv.NewMat()
	defer res.Close()
	noMask := gocv.NewMat()
	defer noMask.Close()
	for _, view := range []gocv.Mat{tile, turned} {
		mid := view.Region(image.Rect(s, s, W-s, H-s))
		gocv.MatchTemplate(v.montage, mid, &res, gocv.TmCcoeffNormed, noMask)
		mid.Close()
		rc := 2*s + 1
		data, err := res.DataPtrFloat32()
		if err != nil || res.Cols() != rc || res.Rows() != n*H-(H-2*s)+1 || len(data) != res.Rows()*rc {
			return false
		}
		// Template i's own positions are rows i*H … i*H+2s of the result;
		// the rows between straddle two templates.
		for i := range out {
			if v.blank[i] {
				continue
			}
			for _, f := range data[i*H*rc : (i*H+rc)*rc] {
				if f := float64(f); f > out[i] && f <= 1.0001 {
					out[i] = f
				}
			}
		}
	}
	return true
}

// cutTurned cuts the tile in box b upright at W×H, taking it to stand
// turned deg degrees clockwise: the box of a turned tile is larger than
// the tile, so the tile's own size is worked out from the box and the
// angle. A box wider than tall is a tile lying across, turned upright as
// cropTile does; the classifier's preprocess block pre gives the turn
// aspect and the margin. It returns an empty Mat when the box and the
// angle do not fit together.
func cutTurned(img gocv.Mat, b box, deg float64, W, H int, pre models.Preprocess) gocv.Mat {
	out := gocv.NewMat()
	ew, eh, base := b.w(), b.h(), 0.0
	if ew > pre.TurnAspect*eh {
		ew, eh, base = eh, ew, -90
	}
	a := deg * math.Pi / 180
	c, s := math.Abs(math.Cos(a)), math.Abs(math.Sin(a))
	den := c*c - s*s
	if den < 0.3 || img.Empty() || W < 2 || H < 2 {
		return out
	}
	w, h := (ew*c-eh*s)/den, (eh*c-ew*s)/den
	if w < 4 || h < 4 {
		return out
	}
	w, h = w*(1+2*pre.Margin), h*(1+2*pre.Margin)
	// Forward map, photo to cut (at twice the size, then shrunk by area
	// so that small faces are not aliased): about the box's centre, turn
	// back by the angle, then scale the tile to the cut.
	t := (base + deg) * math.Pi / 180
	cos, sin := math.Cos(t), math.Sin(t)
	sx, sy := float64(2*W)/w, float64(2*H)/h
	cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, sx*cos)
	m.SetDoubleAt(0, 1, sx*sin)
	m.SetDoubleAt(0, 2, float64(W)-sx*(cos*cx+sin*cy))
	m.SetDoubleAt(1, 0, -sy*sin)
	m.SetDoubleAt(1, 1, sy*cos)
	m.SetDoubleAt(1, 2, float64(H)-sy*(-sin*cx+cos*cy))
	big := gocv.NewMat()
	defer big.Close()
	gocv.WarpAffineWithParams(img, &big, m, image.Pt(2*W, 2*H), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	if big.Empty() {
		return out
	}
	gocv.Resize(big, &out, image.Pt(W, H), 0, 0, gocv.InterpolationArea)
	return out
}

// bankVerdict is the bank's best match for one tile and its margin over
// the best template of another face.
type bankVerdict struct {
	code          string
	score, margin float64
	runnerUp      string
	// sharp: the best template was cut from a tile at least sharpTemplate
	// wide (Template.side).
	sharp bool
}

func (v *bankView) verdict(scores []float64) (bankVerdict, bool) {
	best := -1
	for i, s := range scores {
		if s > -1 && (best < 0 || s > scores[best]) {
			best = i
		}
	}
	if best < 0 {
		return bankVerdict{}, false
	}
	t := v.bank.Templates[best]
	bv := bankVerdict{code: t.Code, score: scores[best], margin: scores[best] + 1, sharp: t.side() >= sharpTemplate}
	for i, s := range scores {
		c := v.bank.Templates[i].Code
		if i != best && normalFive(c) != normalFive(bv.code) && scores[best]-s < bv.margin {
			bv.margin, bv.runnerUp = scores[best]-s, c
		}
	}
	return bv, true
}

// withinSuit says whether two different codes are of one suit (honours,
// backs included, are one; so are the flowers, and the kings and queens)
// and not a five and its red five, which differ by colour alone.
func withinSuit(a, b string) bool {
	return len(a) == 2 && len(b) == 2 && a[1] == b[1] && normalFive(a) != normalFive(b)
}

// samePicture says whether two codes are of one kind that only a small
// glyph tells apart: two kings/queens, or two jokers (of one family, as
// minReading counts them; a five and its red five are told apart by
// colour, which the bank sees).
func samePicture(a, b string) bool {
	f := family(a)
	return f == family(b) && (f == "k" || f == "j")
}

// confidence turns a match into a probability that it names the tile.
func (bv bankVerdict) confidence() float64 {
	if bv.score <= 0 {
		return 0
	}
	return 1 / (1 + math.Exp(-(bv.margin-marginCentre)/marginScale))
}

// review lets the bank confirm or overturn each of the network's readings.
// A reading the bank overturns keeps the network's choice as the first
// alternative; one the bank doubts without overturning gets the bank's
// choice as an alternative.
func (v *bankView) review(img gocv.Mat, boxes []box, reads []reading) []reading {
	for i, b := range boxes {
		if i >= len(reads) || len(reads[i].labels) == 0 {
			continue
		}
		bv, ok := v.verdict(v.scores(img, b))
		if !ok {
			continue
		}
		reads[i] = decide(reads[i], bv)
	}
	return reads
}

// decide applies the rule: agreement confirms, a strong match wins, a
// clear match wins over an unsure network; but a template cut from a small
// tile does not overturn a reading of its own suit.
func decide(rd reading, bv bankVerdict) reading {
	net, p := rd.labels[0], rd.probs[0]
	q := bv.confidence()
	switch {
	case bv.code == net:
		rd.probs[0] = math.Max(p, q)
		for j := 1; j < len(rd.probs); j++ {
			rd.probs[j] = math.Min(rd.probs[j], 1-rd.probs[0])
		}
		return rd
	case (!bv.sharp || p >= sureWithinSuit) && withinSuit(net, bv.code):
		// A template from a set's own photos is often a tile of 30 px
		// enlarged: it matches by colour, so it tells 6s from 8p but not
		// 8f from 5f or 3m from 2m, which the head reads better. Taught
		// from the fewest photos, left to overturn those it cost proc-set
		// 0.917 -> 0.887 and the validation designs 0.920 -> 0.917 and
		// 0.951 -> 0.942; a grid photo's templates (tiles of 56 px and
		// more) still overturn (models/README.md, "Templates within a
		// suit").
	case samePicture(net, bv.code):
		// Kings, queens and jokers differ from their kin by one small
		// glyph; the match is swayed more by the ink and the frame, so
		// within a kind the network's choice stands (held-out kings: F1
		// 0.54 without a bank, 0.47 when the bank could overturn them).
	case bv.score >= strongScore && bv.margin >= strongMargin,
		p < lowConfidence && bv.score >= clearScore && bv.margin >= clearMargin:
		out := reading{labels: []string{bv.code}, probs: []float64{q}, turned: rd.turned, lying: rd.lying}
		out.labels = append(out.labels, net)
		out.probs = append(out.probs, math.Min(p, 1-q))
		for j := 1; j < len(rd.labels) && len(out.labels) < 3; j++ {
			if rd.labels[j] != bv.code {
				out.labels = append(out.labels, rd.labels[j])
				out.probs = append(out.probs, math.Min(rd.probs[j], 1-q))
			}
		}
		return out
	}
	// The network stands; the bank's choice joins its alternatives.
	for _, l := range rd.labels {
		if l == bv.code {
			return rd
		}
	}
	if len(rd.labels) >= 3 {
		rd.labels, rd.probs = rd.labels[:2], rd.probs[:2]
	}
	rd.labels = append(rd.labels, bv.code)
	rd.probs = append(rd.probs, math.Min(q, 1-p))
	if k := len(rd.probs) - 1; k >= 2 && rd.probs[k] > rd.probs[k-1] {
		rd.labels[k], rd.labels[k-1] = rd.labels[k-1], rd.labels[k]
		rd.probs[k], rd.probs[k-1] = rd.probs[k-1], rd.probs[k]
	}
	return rd
}
