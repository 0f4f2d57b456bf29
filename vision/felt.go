package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"mjscan/scoring"
)

// A patch of felt read as a back. A face-down tile is one flat colour,
// and so is a patch of the table: a stretch of bare felt between the
// rows, the shade at a rack's edge, or a faint patch of light. The network
// (and a taught set's head, whose backs may be any colour) reads such a
// patch surely as a back, and the detector boxes it as surely as a tile
// (heldout, taught: 21 boxes read as backs where no tile is, at 0.88 to
// 1.00). What tells them apart is the table around them: a back is a
// tile's colour on the table, a patch of felt is the table's own colour.
// So the middle of each box read as a back is compared with the pixels
// just outside it that lie in no other box (its neighbours in a row of
// backs are backs too), and a box the colour of what surrounds it is left
// out. Measured on the final boxes of five held-out designs (heldout,
// traditional-set, fluffy, fluffy-black, proc-set) and both validation
// designs, alone and taught: of 1,435 backs found right and 112 boxes
// read as backs where no tile is, a distance under feltDistance holds 34
// of the boxes where no tile is and one back, a dark grey back on a dark
// grey table in a grey photo (models/README.md, "Felt and glare read as
// backs"). That is the price: a back the very colour of the table around
// it, with no neighbour boxed beside it, is left out.
//
// Glare is not the felt's colour, but it has no edges: a tile's outline is
// a sharp change of colour, and a patch of light fades into the felt. So
// a box is also left out where the sharpest change of colour in and
// around it is weak for how far its middle lies from the colour around it
// (softEdges), whatever it is read as: glare is read as a back, and as
// faces with little ink (the blank dragon, the joker) too. The other
// tiles' boxes are left out of its sharpest change, as they are of its
// ring, since glare lying beside a tile would take the tile's outline for
// its own. Measured on every box the build reads in seven held-out designs
// and both validation designs, alone and taught (models/README.md, "Glare
// read as any tile"): of 15,265 tiles read right, 1,026 misread and 211
// boxes where no tile is, the glare test leaves out 22 of the last and
// none of the others. In a photo blurred all over, where every tile's
// edges are soft, the test falls with them (blurredPhoto).
const (
	// feltDistance is the colour distance (CIELAB as OpenCV keeps it in
	// 8 bits: L* × 255/100, a* and b* + 128) under which a back's middle
	// is the colour of the table around it. Chosen on the validation
	// designs: 6 and 8 drop no back there, 10 drops one.
	feltDistance = 8.0
	// feltInset is the share of the box's width and height left out on
	// each side to take its middle.
	feltInset = 0.25
	// feltMargin is the width of the ring around the box, as a share of
	// the box's shorter side.
	feltMargin = 0.35
	// softEdges: a tile's outline is a sharp change of colour, glare's is
	// not. A box whose sharpest change of colour in and around it (the
	// 99th percentile of the colour gradient's size, outside the other
	// boxes) is under softEdges times its distance from the ring's colour
	// is a patch of light. Chosen on the validation designs, where the
	// boxes where no tile is lie at 0.095 to 0.164 and the least tile at
	// 0.206: 0.17 leaves them all out, with room for the gradient's steps
	// of 0.5. No tile read right lies under 0.18 in any design.
	softEdges = 0.17
	// blurredPhoto: glare is soft where the tiles around it are sharp. In
	// a photo blurred all over (a shaken phone, a lens out of focus) every
	// tile's edges are soft, a blank one's most: there a box is glare only
	// where its edges are softer than blurredPhoto times the median of the
	// photo's boxes (each box's sharpest change over its distance from the
	// ring's colour). Every box where no tile is that softEdges leaves out
	// in the measured designs lies under 0.40 of its photo's median, and a
	// blank tile blurred as much as the rest lies over 0.5 (TestDropFelt:
	// a photo blurred with a Gaussian of 3 px keeps its blank dragon and
	// back, which softEdges alone leaves out).
	blurredPhoto = 0.5
	// otherEdge is how far past another box its tile's outline may lie
	// (pixels), left out of a box's sharpest change.
	otherEdge = 2
	// feltRing is the least share of the box's area the ring must keep,
	// once the other boxes are left out of it, to say what the table is.
	feltRing = 0.1
)

// dropFelt leaves out the boxes read as backs whose middle is the colour
// of the table around them, and every box whose edges are as soft as
// glare's (see above). img is the BGR photo the boxes were found in, tile
// the typed tile of a code.
func dropFelt(img gocv.Mat, boxes []box, reads []reading, tile func(string) scoring.Tile) ([]box, []reading) {
	if img.Type() != gocv.MatTypeCV8UC3 || len(boxes) != len(reads) {
		return boxes, reads
	}
	// only the part of the photo the boxes and their rings reach is
	// looked at: reach, where the boxes are placed
	photo := image.Rect(0, 0, img.Cols(), img.Rows())
	rects := make([]image.Rectangle, len(boxes))
	var reach image.Rectangle
	for k, b := range boxes {
		rects[k] = b.pixels()
		_, outer := ringOf(rects[k], photo)
		reach = reach.Union(outer)
	}
	if reach.Empty() {
		return boxes, reads
	}
	for k := range rects {
		rects[k] = rects[k].Sub(reach.Min)
	}
	region := img.Region(reach)
	lab := gocv.NewMat() // reach in CIELAB
	defer lab.Close()
	gocv.CvtColor(region, &lab, gocv.ColorBGRToLab)
	region.Close()
	type look struct {
		dist, sharpest float64
		ok             bool
	}
	looks := make([]look, len(boxes))
	var sharpness []float64 // of each box judged, its sharpest change over its distance
	for i, rd := range reads {
		if len(rd.labels) == 0 {
			continue
		}
		l := &looks[i]
		l.dist, l.sharpest, l.ok = lookAround(lab, rects, i)
		if l.ok && l.dist >= feltDistance {
			sharpness = append(sharpness, l.sharpest/l.dist)
		}
	}
	// in a photo blurred all over every tile's edges are soft, and the
	// glare test falls with them
	soft := softEdges
	if len(sharpness) > 0 {
		soft = min(soft, blurredPhoto*median(sharpness))
	}
	i := -1
	return keep(boxes, reads, func(_ box, rd reading) bool {
		i++
		l := looks[i]
		if !l.ok {
			return true
		}
		glare := l.dist >= feltDistance && l.sharpest < soft*l.dist
		if tile(rd.labels[0]) != scoring.Back {
			return !glare
		}
		return l.dist >= feltDistance && !glare
	})
}

// lookAround gives the colour distance between the middle of rects[i] (a
// box in whole pixels of lab, a CIELAB cut of the photo) and the ring
// around it outside every box, and the sharpest change of colour in and
// around the box (sharpest); false when the box or its ring holds too few
// of the cut's pixels to tell.
func lookAround(lab gocv.Mat, rects []image.Rectangle, i int) (dist, sharpest float64, ok bool) {
	own, outer := ringOf(rects[i], image.Rect(0, 0, lab.Cols(), lab.Rows()))
	w, h := own.Dx(), own.Dy()
	if w < 4 || h < 4 {
		return 0, 0, false
	}
	middle := image.Rect(own.Min.X+int(feltInset*float64(w)), own.Min.Y+int(feltInset*float64(h)),
		own.Max.X-int(feltInset*float64(w)), own.Max.Y-int(feltInset*float64(h)))
	if middle.Empty() || outer.Dx() < 3 || outer.Dy() < 3 {
		return 0, 0, false
	}
	region := lab.Region(outer)
	cut := region.Clone()
	defer cut.Close()
	region.Close()
	px, err := cut.DataPtrUint8()
	if err != nil || len(px) < 3*outer.Dx()*outer.Dy() {
		return 0, 0, false
	}
	var others []image.Rectangle // the other boxes that reach the ring
	for k, r := range rects {
		if k != i && r.Overlaps(outer) {
			others = append(others, r)
		}
	}
	step := sampleStep(outer.Dx() * outer.Dy())
	var in, ring labHistogram
	for y := outer.Min.Y; y < outer.Max.Y; y += step {
		row := 3 * (y - outer.Min.Y) * outer.Dx()
		for x := outer.Min.X; x < outer.Max.X; x += step {
			p := image.Pt(x, y)
			c := px[row+3*(x-outer.Min.X):]
			switch {
			case p.In(middle):
				in.add(c)
			case p.In(own) || inAny(p, others):
			default:
				ring.add(c)
			}
		}
	}
	if in.n == 0 || float64(ring.n*step*step) < feltRing*float64(w*h) {
		return 0, 0, false
	}
	a, r := in.median(), ring.median()
	dist = math.Sqrt(sq(a[0]-r[0]) + sq(a[1]-r[1]) + sq(a[2]-r[2]))
	// the edges of the other tiles near it are not its own: their boxes,
	// grown by otherEdge, are left out of its sharpest change
	grown := make([]image.Rectangle, len(others))
	for k, r := range others {
		grown[k] = r.Inset(-otherEdge)
	}
	sharpest, ok = sharpestChange(cut, step, func(x, y int) bool {
		p := image.Pt(outer.Min.X+x, outer.Min.Y+y)
		return p.In(own) || !inAny(p, grown)
	})
	return dist, sharpest, ok
}

// ringOf gives the part of a box within the photo (own) and that part
// with the ring around it (outer), within the photo too.
func ringOf(r, photo image.Rectangle) (own, outer image.Rectangle) {
	own = r.Intersect(photo)
	if own.Empty() {
		return own, own
	}
	m := max(2, int(feltMargin*float64(min(own.Dx(), own.Dy()))))
	return own, image.Rect(own.Min.X-m, own.Min.Y-m, own.Max.X+m, own.Max.Y+m).Intersect(photo)
}

// sampledPixels is about how many pixels of a box and its ring are looked
// at: a larger cut is sampled every few pixels across and down
// (sampleStep), which leaves its medians and percentiles where they were
// and the time the same for a tile of any size.
const sampledPixels = 4096

// sampleStep is the step across and down that looks at about
// sampledPixels of n pixels.
func sampleStep(n int) int {
	return max(1, int(math.Sqrt(float64(n)/sampledPixels)))
}

// sharpestChange is the 99th percentile, over a CIELAB cut, of the size
// of its colour gradient: each channel's 3×3 Sobel derivatives, across
// and down, squared and summed over the channels, its root over 8. It
// looks at every step-th pixel across and down for which counted (x, y
// within the cut) holds.
func sharpestChange(lab gocv.Mat, step int, counted func(x, y int) bool) (float64, bool) {
	dx, dy := gocv.NewMat(), gocv.NewMat()
	defer dx.Close()
	defer dy.Close()
	gocv.Sobel(lab, &dx, gocv.MatTypeCV32F, 1, 0, 3, 1, 0, gocv.BorderReflect101)
	gocv.Sobel(lab, &dy, gocv.MatTypeCV32F, 0, 1, 3, 1, 0, gocv.BorderReflect101)
	gx, errX := dx.DataPtrFloat32()
	gy, errY := dy.DataPtrFloat32()
	cols, rows := lab.Cols(), lab.Rows()
	if errX != nil || errY != nil || len(gx) != 3*cols*rows || len(gy) != len(gx) {
		return 0, false
	}
	// a histogram of the sizes, in steps of changeStep, finds the
	// percentile without sorting
	const changeStep, bins = 0.5, 1024
	var hist [bins]int
	n := 0
	for y := 0; y < rows; y += step {
		for x := 0; x < cols; x += step {
			if !counted(x, y) {
				continue
			}
			p := 3 * (y*cols + x)
			sum := 0.0
			for c := p; c < p+3; c++ {
				sum += float64(gx[c])*float64(gx[c]) + float64(gy[c])*float64(gy[c])
			}
			hist[min(bins-1, int(math.Sqrt(sum)/8/changeStep))]++
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	above := 0
	for b := bins - 1; b >= 0; b-- {
		above += hist[b]
		if 100*above >= n {
			return (float64(b) + 0.5) * changeStep, true
		}
	}
	return 0, true
}

func inAny(p image.Point, rs []image.Rectangle) bool {
	for _, r := range rs {
		if p.In(r) {
			return true
		}
	}
	return false
}

func sq(v float64) float64 { return v * v }

// labHistogram counts pixels of each level of each of three channels, to
// give their medians.
type labHistogram struct {
	levels [3][256]int
	n      int
}

func (h *labHistogram) add(c []uint8) {
	h.levels[0][c[0]]++
	h.levels[1][c[1]]++
	h.levels[2][c[2]]++
	h.n++
}

// median is each channel's median level (the lower of the middle two).
func (h *labHistogram) median() [3]float64 {
	var m [3]float64
	for k := range 3 {
		seen := 0
		for v, n := range h.levels[k] {
			seen += n
			if 2*seen >= h.n {
				m[k] = float64(v)
				break
			}
		}
	}
	return m
}
