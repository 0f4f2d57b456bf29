package vision

import (
	"image"
	"math"
	"sort"

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

// detectTiles finds the tiles, first in the whole photo and, when they come
// out small, in overlapping windows (a fifth of a window's side shared with
// the next); boxes seen twice at the seams are merged, and tiles cut by a
// window's edge are left to the window that holds them whole.
func detectTiles(net *gocv.Net, m *models.Manifest, img gocv.Mat) []box {
	whole := detect(net, m, img)
	W, H := img.Cols(), img.Rows()
	scale := float64(m.Input.Width) / float64(max(W, H))
	// The tiles' size is judged by the boxes the detector is sure of: the
	// weak ones a low threshold lets through are often not tiles at all.
	s := float64(blankGuess)
	var short []float64
	for _, b := range whole {
		if b.score >= weakBox {
			short = append(short, math.Min(b.w(), b.h())*scale)
		}
	}
	if len(short) > 0 {
		sort.Float64s(short)
		s = short[len(short)/2]
	} else if scale > 0.4 {
		return whole // a small photo with nothing found: nothing is there
	}
	if s >= smallTile {
		return whole
	}
	zoom := math.Min(4, goodTile/math.Max(s, 1))
	side := int(float64(max(W, H)) / zoom)
	if side < 64 {
		return whole
	}
	var all []box
	for _, y0 := range windowStarts(H, side) {
		for _, x0 := range windowStarts(W, side) {
			r := image.Rect(x0, y0, min(W, x0+side), min(H, y0+side))
			all = append(all, detectWindow(net, m, img, r)...)
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

// detectWindow runs the detector on one window and returns its boxes in
// photo pixels, leaving out those touching an edge of the window that is
// inside the photo (the tile runs on into the next window).
func detectWindow(net *gocv.Net, m *models.Manifest, img gocv.Mat, r image.Rectangle) []box {
	region := img.Region(r)
	defer region.Close()
	var out []box
	edge := 2.0
	for _, b := range detect(net, m, region) {
		if (r.Min.X > 0 && b.x0 < edge) || (r.Min.Y > 0 && b.y0 < edge) ||
			(r.Max.X < img.Cols() && b.x1 > float64(r.Dx())-edge) || (r.Max.Y < img.Rows() && b.y1 > float64(r.Dy())-edge) {
			continue
		}
		b.x0 += float64(r.Min.X)
		b.x1 += float64(r.Min.X)
		b.y0 += float64(r.Min.Y)
		b.y1 += float64(r.Min.Y)
		out = append(out, b)
	}
	return out
}
