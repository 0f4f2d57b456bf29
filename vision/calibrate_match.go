package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// How a bank's verdict weighs against the network's (scores are
// TM_CCOEFF_NORMED correlations, 1 for a perfect match; the margin is over
// the best template of another face, so a red five and its plain five do
// not crowd each other out). Measured on the egypt scenes, a set the
// network never saw: see TestBankReadsAnUnseenSet.
const (
	// A strong match is taken over any network reading: this is what makes
	// a set the network never saw readable.
	strongScore, strongMargin = 0.50, 0.05
	// A clear match overturns a network reading below lowConfidence.
	clearScore, clearMargin = 0.40, 0.025
	lowConfidence           = 0.70
	// minSpread is the grey-level standard deviation below which a crop is
	// taken for blank: its correlations say nothing.
	minSpread = 4.0
)

// bankView holds a bank's templates, prepared for matching, stacked in
// one column: one MatchTemplate call then scores a tile against all of
// them (about twenty times faster than a call per template).
type bankView struct {
	bank    *Bank
	montage gocv.Mat // the prepared templates, one under another
	blank   []bool   // templates with nothing on them to match
}

func (b *Bank) view() *bankView {
	W, H, n := b.Width, b.Height, len(b.Templates)
	typ := gocv.MatTypeCV8UC1
	if expColour {
		typ = gocv.MatTypeCV8UC3
	}
	v := &bankView{bank: b, montage: gocv.NewMatWithSize(max(1, n)*H, W, typ), blank: make([]bool, n)}
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

var (
	expColour = true
	expBlur   = 1.0
)

// prepare turns a W×H colour cut into what is matched (grey, slightly
// blurred); false for a blank one.
func (v *bankView) prepare(bgr gocv.Mat, dst *gocv.Mat) bool {
	g := gocv.NewMat()
	defer g.Close()
	gocv.CvtColor(bgr, &g, gocv.ColorBGRToGray)
	if spread(g.ToBytes()) < minSpread {
		return false
	}
	src := g
	if expColour {
		src = bgr
	}
	if expBlur > 0 {
		gocv.GaussianBlur(src, dst, image.Pt(0, 0), expBlur, expBlur, gocv.BorderReplicate)
	} else {
		src.CopyTo(dst)
	}
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
	crop := cropTile(img, b, W, H)
	defer crop.Close()
	if crop.Empty() || crop.Type() != gocv.MatTypeCV8UC3 || crop.Cols() != W || crop.Rows() != H {
		return nil
	}
	tile := gocv.NewMat()
	defer tile.Close()
	if !v.prepare(crop, &tile) || tile.Type() != v.montage.Type() {
		return nil
	}
	turned := gocv.NewMat()
	defer turned.Close()
	gocv.Rotate(tile, &turned, gocv.Rotate180Clockwise)
	s := bankShift
	res := gocv.NewMat()
	defer res.Close()
	noMask := gocv.NewMat()
	defer noMask.Close()
	out := make([]float64, n)
	for i := range out {
		out[i] = -1
	}
	for _, view := range []gocv.Mat{tile, turned} {
		mid := view.Region(image.Rect(s, s, W-s, H-s))
		gocv.MatchTemplate(v.montage, mid, &res, gocv.TmCcoeffNormed, noMask)
		mid.Close()
		rc := 2*s + 1
		data, err := res.DataPtrFloat32()
		if err != nil || res.Cols() != rc || res.Rows() != n*H-(H-2*s)+1 || len(data) != res.Rows()*rc {
			return nil
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
	return out
}

// bankVerdict is the bank's best match for one tile and its margin over
// the best template of another face.
type bankVerdict struct {
	code          string
	score, margin float64
	runnerUp      string
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
	bv := bankVerdict{code: v.bank.Templates[best].Code, score: scores[best], margin: scores[best] + 1}
	for i, s := range scores {
		c := v.bank.Templates[i].Code
		if i != best && normalFive(c) != normalFive(bv.code) && scores[best]-s < bv.margin {
			bv.margin, bv.runnerUp = scores[best]-s, c
		}
	}
	return bv, true
}

// confidence turns a match into a probability that it names the tile:
// a margin of clearMargin is a fair bet, one of strongMargin near certain.
func (bv bankVerdict) confidence() float64 {
	if bv.score <= 0 {
		return 0
	}
	return 1 / (1 + math.Exp(-(bv.margin-clearMargin)/0.008))
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
// clear match wins over an unsure network.
func decide(rd reading, bv bankVerdict) reading {
	net, p := rd.labels[0], rd.probs[0]
	q := bv.confidence()
	switch {
	case bv.code == net:
		rd.probs[0] = math.Max(p, q)
		return rd
	case bv.score >= strongScore && bv.margin >= strongMargin,
		p < lowConfidence && bv.score >= clearScore && bv.margin >= clearMargin:
		out := reading{labels: []string{bv.code}, probs: []float64{q}}
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
