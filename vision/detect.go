package vision

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// box is a tile found by the detector, in photo pixels.
type box struct {
	x0, y0, x1, y1 float64
	score          float64
}

func (b box) w() float64 { return b.x1 - b.x0 }
func (b box) h() float64 { return b.y1 - b.y0 }

// pixels is the box in whole pixels, each edge rounded.
func (b box) pixels() image.Rectangle {
	return image.Rect(int(math.Round(b.x0)), int(math.Round(b.y0)), int(math.Round(b.x1)), int(math.Round(b.y1)))
}

// shortSide is the box's shorter side, rounded to whole pixels.
func shortSide(b box) int { return int(math.Round(math.Min(b.w(), b.h()))) }

func iou(a, b box) float64 {
	ix := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
	iy := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
	if ix <= 0 || iy <= 0 {
		return 0
	}
	in := ix * iy
	return in / (a.w()*a.h() + b.w()*b.h() - in)
}

// cover is the share of the smaller box's area that the two boxes share.
func cover(b, o box) float64 {
	ix := math.Min(b.x1, o.x1) - math.Max(b.x0, o.x0)
	iy := math.Min(b.y1, o.y1) - math.Max(b.y0, o.y0)
	if ix <= 0 || iy <= 0 {
		return 0
	}
	return ix * iy / math.Min(b.w()*b.h(), o.w()*o.h())
}

// maxCover is how much of the smaller of two boxes may be shared before
// the weaker is taken for another reading of the same tile (a tile split
// in two gives boxes that overlap little but lie mostly inside one another).
var maxCover = 0.6

// nms keeps the best-scored of boxes that overlap more than thr, or whose
// weaker box lies mostly inside the stronger.
func nms(bs []box, thr float64) []box {
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].score > bs[j].score })
	order := make([]int, len(bs))
	for i := range order {
		order[i] = i
	}
	kept := keepFirst(order, func(i, k int) bool { return iou(bs[i], bs[k]) >= thr || cover(bs[i], bs[k]) >= maxCover })
	var out []box
	for i, b := range bs {
		if kept[i] {
			out = append(out, b)
		}
	}
	return out
}

// keepFirst walks order, the best first, and keeps each item that is not
// the same (same) as one kept before it: the suppression of nms and of
// readOnce. It says, by index, which are kept.
func keepFirst(order []int, same func(i, k int) bool) []bool {
	kept := make([]bool, len(order))
	var before []int
	for _, i := range order {
		kept[i] = !slices.ContainsFunc(before, func(k int) bool { return same(i, k) })
		if kept[i] {
			before = append(before, i)
		}
	}
	return kept
}

// detect finds the tiles in a BGR photo. The whole photo is scaled to fit the
// detector's square input, keeping its aspect ratio: the training photos show
// whole tables at this scale, so tiles keep the size the network knows. The
// manifest's preprocess block says how it is resized and padded.
func detect(net *gocv.Net, m *models.Manifest, img gocv.Mat) []box {
	side, pre := m.Input.Width, m.Preprocess
	W, H := img.Cols(), img.Rows()
	scale := float64(side) / float64(max(W, H))
	nw := min(side, max(1, int(math.Round(float64(W)*scale))))
	nh := min(side, max(1, int(math.Round(float64(H)*scale))))
	resized := gocv.NewMat()
	defer resized.Close()
	gocv.Resize(img, &resized, image.Pt(nw, nh), 0, 0, interpolation(pre))
	padded := gocv.NewMat()
	defer padded.Close()
	gocv.CopyMakeBorder(resized, &padded, 0, side-nh, 0, side-nw, gocv.BorderConstant, padColour(pre))
	blob := gocv.BlobFromImage(padded, pre.Scale, image.Pt(side, side), mean(pre), false, false)
	defer blob.Close()
	net.SetInput(blob, m.Input.Name)
	out := net.Forward(m.Output.Name)
	defer out.Close()
	data, err := out.DataPtrFloat32()
	stride := m.Output.Stride
	n := side / stride
	if err != nil || stride <= 0 || len(data) != 5*n*n {
		return nil
	}
	heat := data[:n*n]
	var found []box
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			s := heat[y*n+x]
			if float64(s) < m.Decode.Threshold || !isPeak(heat, n, x, y) {
				continue
			}
			w := math.Exp(float64(data[n*n+y*n+x])) * float64(stride)
			h := math.Exp(float64(data[2*n*n+y*n+x])) * float64(stride)
			cx := (float64(x) + float64(data[3*n*n+y*n+x])) * float64(stride)
			cy := (float64(y) + float64(data[4*n*n+y*n+x])) * float64(stride)
			b := box{(cx - w/2) / scale, (cy - h/2) / scale, (cx + w/2) / scale, (cy + h/2) / scale, float64(s)}
			b.x0, b.y0 = math.Max(0, b.x0), math.Max(0, b.y0)
			b.x1, b.y1 = math.Min(float64(W), b.x1), math.Min(float64(H), b.y1)
			if b.w() >= 2 && b.h() >= 2 {
				found = append(found, b)
			}
		}
	}
	return nms(found, m.Decode.NMSIoU)
}

// padColour is a detector's letterbox colour (the manifest gives it BGR).
func padColour(p models.Preprocess) color.RGBA {
	return color.RGBA{R: uint8(p.Pad[2]), G: uint8(p.Pad[1]), B: uint8(p.Pad[0])}
}

// isPeak says whether heat at (x, y) is the largest in its 3×3 neighbourhood
// (ties keep the first cell in reading order, so a plateau gives one tile).
func isPeak(heat []float32, n, x, y int) bool {
	v := heat[y*n+x]
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			xx, yy := x+dx, y+dy
			if (dx == 0 && dy == 0) || xx < 0 || yy < 0 || xx >= n || yy >= n {
				continue
			}
			u := heat[yy*n+xx]
			if u > v || (u == v && (dy < 0 || (dy == 0 && dx < 0))) {
				return false
			}
		}
	}
	return true
}
