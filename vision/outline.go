package vision

import (
	"errors"
	"math"
	"slices"
)

// A taught set's outline: how the detector's box of one of the set's tiles
// is moved to the tile's whole visible outline (face, top and side), as the
// set's own labels box it. The detector boxes an unseen set's tiles a
// little short of that, most of all on the side the tile's body shows
// (the broad detector on the held-out designs: the right edge 4–10% of
// the width and the bottom 4–10% of the height short), and a box that
// short of its tile can fall under IoU 0.5 with it. The teaching photos
// say by how much, for this set and this way of photographing it: each
// labelled tile the detector found gives one sample of the four edges'
// offsets, and the set's boxes are moved by their medians.
const (
	// outlineMatch: a detector box and a label of at least this IoU are
	// one tile, a sample of the outline.
	outlineMatch = 0.3
	// minOutlineSamples of one kind of box before its edges are moved.
	minOutlineSamples = 8
	// maxOutlineSamples of each kind a bank keeps (the first ones).
	maxOutlineSamples = 400
	// maxOutlineShift bounds an edge's move, as a share of the box's side.
	maxOutlineShift = 0.35
)

// Outline keeps the samples of a taught set's box offsets: for each
// detector box of a labelled tile, the label's edges less the box's
// (x0, y0, x1, y1), as shares of the box's width and height. Upright
// boxes (taller than wide) and lying ones are kept apart: a tile's body
// shows on another side of a tile lying across.
type Outline struct {
	Upright [][4]float32 `json:"upright,omitempty"`
	Lying   [][4]float32 `json:"lying,omitempty"`
}

// add keeps the sample of one label's box against the detector's box of
// the same tile.
func (o *Outline) add(detected, label box) {
	w, h := detected.w(), detected.h()
	if w <= 0 || h <= 0 {
		return
	}
	s := [4]float32{
		float32((label.x0 - detected.x0) / w),
		float32((label.y0 - detected.y0) / h),
		float32((label.x1 - detected.x1) / w),
		float32((label.y1 - detected.y1) / h),
	}
	for _, v := range s {
		if math.Abs(float64(v)) > maxOutlineShift {
			return // another tile's label, or a box cut short by the photo's edge
		}
	}
	if w > h {
		if len(o.Lying) < maxOutlineSamples {
			o.Lying = append(o.Lying, s)
		}
	} else if len(o.Upright) < maxOutlineSamples {
		o.Upright = append(o.Upright, s)
	}
}

// addPairs samples the outline from one photo's labelled boxes and the
// detector's boxes: each label with the box that overlaps it most, when
// that is at least outlineMatch.
func (o *Outline) addPairs(labels, found []box) {
	for _, l := range labels {
		bi, best := -1, outlineMatch
		for j, fb := range found {
			if v := iou(l, fb); v >= best {
				bi, best = j, v
			}
		}
		if bi >= 0 {
			o.add(found[bi], l)
		}
	}
}

// outlineMove is an outline's median move of each edge, for upright and
// for lying boxes, worked out once for a photo (Outline.move).
type outlineMove struct {
	upright, lying       [4]float64
	hasUpright, hasLying bool // the set was taught enough boxes of the shape
}

// move works out the median move of each edge of each shape of box; a
// shape taught fewer than minOutlineSamples boxes is not moved.
func (o *Outline) move() outlineMove {
	var m outlineMove
	if o == nil {
		return m
	}
	m.upright, m.hasUpright = medianEdges(o.Upright)
	m.lying, m.hasLying = medianEdges(o.Lying)
	return m
}

func medianEdges(samples [][4]float32) (s [4]float64, ok bool) {
	if len(samples) < minOutlineSamples {
		return s, false
	}
	col := make([]float64, len(samples))
	for k := range 4 {
		for i, v := range samples {
			col[i] = float64(v[k])
		}
		slices.Sort(col)
		n := len(col)
		s[k] = (col[(n-1)/2] + col[n/2]) / 2
	}
	return s, true
}

// apply moves a detector box to the tile's outline, within the photo
// (cols×rows pixels).
func (m outlineMove) apply(b box, cols, rows int) box {
	s, ok := m.upright, m.hasUpright
	if b.w() > b.h() {
		s, ok = m.lying, m.hasLying
	}
	if !ok {
		return b
	}
	w, h := b.w(), b.h()
	out := b
	out.x0 = math.Max(0, b.x0+s[0]*w)
	out.y0 = math.Max(0, b.y0+s[1]*h)
	out.x1 = math.Min(float64(cols), b.x1+s[2]*w)
	out.y1 = math.Min(float64(rows), b.y1+s[3]*h)
	if out.x1-out.x0 < 1 || out.y1-out.y0 < 1 {
		return b
	}
	return out
}

func (o *Outline) validate() error {
	if o == nil {
		return nil
	}
	if len(o.Upright) > maxOutlineSamples || len(o.Lying) > maxOutlineSamples {
		return errors.New("template bank: the outline keeps more samples than a bank holds")
	}
	for _, s := range append(append([][4]float32(nil), o.Upright...), o.Lying...) {
		for _, v := range s {
			if math.IsNaN(float64(v)) || math.Abs(float64(v)) > maxOutlineShift {
				return errors.New("template bank: the outline's samples are damaged")
			}
		}
	}
	return nil
}
