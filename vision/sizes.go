package vision

import (
	"math"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// The tiles of one set seen in one photo are one size, give or take the
// perspective between neighbours. The detector sometimes boxes a tile with
// much empty face (the 2 of bamboo: two sticks far apart) by its art alone,
// a box as tall as its neighbours but a third narrower, and the classifier,
// shown the middle of the tile, reads a joker or the 1 of bamboo. So a box
// much smaller than the tiles around it is read again grown to their size,
// and the reading that is surer stands.
const (
	// oddSize: a box under this share of its neighbours' median width or
	// height is read again at their size. 0.85 left a 2 of bamboo boxed
	// 37 px wide beside neighbours of 40 (dev's IMG_20231217_164515) read at
	// 0.398; 0.95 reads it, and every held-out design alone reads as well or
	// better (models/README.md, "Boxes of the tiles' size").
	oddSize = 0.95
	// nearTiles: the neighbours are the boxes standing the same way whose
	// centre lies within this many of the box's own long sides.
	nearTiles = 2.5
	// minNear: fewer neighbours than this say nothing of a tile's size.
	minNear = 2
	// sureEnough: a box read at least this surely is left as it is.
	sureEnough = 0.9
)

// evenSizes reads again, grown to its neighbours' size, each box much
// smaller than them, and keeps the grown box where its reading is surer.
func evenSizes(net *gocv.Net, m *models.Manifest, img gocv.Mat, boxes []box, reads []reading) ([]box, []reading) {
	if len(boxes) != len(reads) || len(boxes) <= minNear {
		return boxes, reads
	}
	var at []int
	var grown []box
	for i := range boxes {
		if len(reads[i].probs) > 0 && reads[i].probs[0] >= sureEnough {
			continue
		}
		g, ok := grownToNeighbours(boxes, i, float64(img.Cols()), float64(img.Rows()))
		if ok {
			at = append(at, i)
			grown = append(grown, g)
		}
	}
	if len(grown) == 0 {
		return boxes, reads
	}
	again := classify(net, m, img, grown)
	if len(again) != len(grown) {
		return boxes, reads
	}
	boxes, reads = append([]box(nil), boxes...), append([]reading(nil), reads...)
	for k, i := range at {
		if len(again[k].probs) > 0 && (len(reads[i].probs) == 0 || again[k].probs[0] > reads[i].probs[0]) {
			boxes[i], reads[i] = grown[k], again[k]
		}
	}
	return boxes, reads
}

// grownToNeighbours gives box i grown, about its centre and within the
// photo (w x h), to the median size of the boxes around it that stand the
// same way, when it is much smaller than them; ok is false otherwise.
func grownToNeighbours(boxes []box, i int, w, h float64) (box, bool) {
	b := boxes[i]
	standing := b.h() >= b.w()
	cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	reach := nearTiles * math.Max(b.w(), b.h())
	var ws, hs []float64
	for j, o := range boxes {
		if j == i || (o.h() >= o.w()) != standing {
			continue
		}
		if math.Hypot((o.x0+o.x1)/2-cx, (o.y0+o.y1)/2-cy) > reach {
			continue
		}
		ws, hs = append(ws, o.w()), append(hs, o.h())
	}
	if len(ws) < minNear {
		return b, false
	}
	mw, mh := median(ws), median(hs)
	if b.w() >= oddSize*mw && b.h() >= oddSize*mh {
		return b, false
	}
	gw, gh := math.Max(b.w(), mw)/2, math.Max(b.h(), mh)/2
	g := box{x0: math.Max(0, cx-gw), y0: math.Max(0, cy-gh), x1: math.Min(w, cx+gw), y1: math.Min(h, cy+gh), score: b.score}
	if g.w() < 2 || g.h() < 2 {
		return b, false
	}
	return g, true
}

// meanSure is the mean of the readings' best probabilities.
func meanSure(reads []reading) float64 {
	s := 0.0
	for _, rd := range reads {
		if len(rd.probs) > 0 {
			s += rd.probs[0]
		}
	}
	if len(reads) == 0 {
		return 0
	}
	return s / float64(len(reads))
}

// A box much smaller than the photo's tiles is a speck, not a tile: a
// glint on a table's rim, a corner of felt, a part of a tile. No tile of
// a set lies that much smaller than the others in one photo (the far row
// of a table seen at a slant comes out about 0.6 of the near one).
const (
	// speck: a box whose side (the root of its area) is under this share
	// of the photo's median box's is left out. Chosen on the validation
	// design (scripts/validate.sh), where the boxes under 0.4 were 11
	// glints on a white rim read as backs and the smallest real tile came
	// out 0.6-0.7 (models/README.md, "Specks").
	speck = 0.5
	// minSpeckBoxes: with fewer boxes than this the photo's tiles' size is
	// not known.
	minSpeckBoxes = 4
)

// dropSpecks leaves out the boxes much smaller than the photo's others.
func dropSpecks(boxes []box, reads []reading) ([]box, []reading) {
	if len(boxes) < minSpeckBoxes {
		return boxes, reads
	}
	sides := make([]float64, len(boxes))
	for i, b := range boxes {
		sides[i] = math.Sqrt(b.w() * b.h())
	}
	least := speck * median(sides)
	i := -1
	return keep(boxes, reads, func(box, reading) bool { i++; return sides[i] >= least })
}
