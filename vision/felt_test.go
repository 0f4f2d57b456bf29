package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// TestDropFelt: on green felt, a box read as a back over bare felt, over
// a faint patch of light on it, or over glare (a pale patch fading into
// the felt) is left out. Kept: a blue back alone, its edges sharp; each
// back of a wall of blue backs, two rows of three touching (whose
// neighbours are backs, not felt); a back of a darker green than the felt
// it lies on; bare felt read as another tile; a back cut by the photo's
// edge; a box too small to tell. Glare read as a face with little ink (the
// blank dragon, the joker) is left out too, and a blank dragon, bare but
// for its sharp outline, is kept; glare beside a tile is left out though
// the tile's sharp outline lies in its ring. A photo that is not BGR comes back as it
// was.
func TestDropFelt(t *testing.T) {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(50, 120, 40, 0), 320, 400, gocv.MatTypeCV8UC3)
	defer img.Close()
	blue := color.RGBA{R: 40, G: 70, B: 170}
	gocv.Rectangle(&img, image.Rect(20, 20, 60, 76), blue, -1) // a back alone
	for x := 100; x < 220; x += 40 {                           // a wall: two rows of three backs touching
		gocv.Rectangle(&img, image.Rect(x, 20, x+40, 132), blue, -1)
		gocv.Line(&img, image.Pt(x, 20), image.Pt(x, 132), color.RGBA{R: 20, G: 40, B: 100}, 1)
	}
	gocv.Line(&img, image.Pt(100, 76), image.Pt(220, 76), color.RGBA{R: 20, G: 40, B: 100}, 1)
	// a green back on green felt, a darker green than the felt, with its
	// ivory body below it and its shadow around it
	gocv.Rectangle(&img, image.Rect(256, 16, 304, 84), color.RGBA{R: 20, G: 60, B: 25}, -1)
	gocv.Rectangle(&img, image.Rect(260, 20, 300, 80), color.RGBA{R: 225, G: 220, B: 200}, -1)
	gocv.Rectangle(&img, image.Rect(260, 20, 300, 70), color.RGBA{R: 25, G: 95, B: 40}, -1)
	gocv.Circle(&img, image.Pt(180, 172), 18, color.RGBA{R: 43, G: 124, B: 53}, -1) // a faint patch of light
	gocv.Rectangle(&img, image.Rect(380, 200, 400, 240), blue, -1)                  // a back cut by the photo's edge
	// glare: a pale patch that fades into the felt
	gocv.Ellipse(&img, image.Pt(265, 185), image.Pt(24, 18), 0, 0, 360, color.RGBA{R: 205, G: 225, B: 230}, -1)
	glare := img.Region(image.Rect(225, 140, 305, 232))
	gocv.GaussianBlur(glare, &glare, image.Pt(0, 0), 7, 7, gocv.BorderDefault)
	glare.Close()
	// more glare, and a blank dragon: an ivory face with its outline
	gocv.Ellipse(&img, image.Pt(60, 280), image.Pt(22, 20), 0, 0, 360, color.RGBA{R: 235, G: 240, B: 235}, -1)
	glare = img.Region(image.Rect(20, 240, 100, 320))
	gocv.GaussianBlur(glare, &glare, image.Pt(0, 0), 7, 7, gocv.BorderDefault)
	glare.Close()
	gocv.Rectangle(&img, image.Rect(140, 250, 180, 306), color.RGBA{R: 235, G: 232, B: 220}, -1)
	gocv.Rectangle(&img, image.Rect(140, 250, 180, 306), color.RGBA{R: 170, G: 165, B: 150}, 1)
	// glare beside a tile with ink on it
	gocv.Ellipse(&img, image.Pt(272, 280), image.Pt(20, 18), 0, 0, 360, color.RGBA{R: 205, G: 225, B: 230}, -1)
	glare = img.Region(image.Rect(236, 240, 299, 320))
	gocv.GaussianBlur(glare, &glare, image.Pt(0, 0), 6, 6, gocv.BorderDefault)
	glare.Close()
	gocv.Rectangle(&img, image.Rect(300, 250, 340, 306), color.RGBA{R: 235, G: 232, B: 220}, -1)
	gocv.Line(&img, image.Pt(320, 258), image.Pt(320, 298), color.RGBA{R: 20, G: 90, B: 30}, 4)

	back := reading{labels: []string{"0z", "5z"}, probs: []float64{0.99, 0.01}}
	other := reading{labels: []string{"1s", "0z"}, probs: []float64{0.9, 0.05}}
	dragon := reading{labels: []string{"5z", "0z"}, probs: []float64{0.9, 0.05}}
	joker := reading{labels: []string{"9j", "5z"}, probs: []float64{0.6, 0.3}}
	cases := []struct {
		name string
		b    box
		rd   reading
		kept bool
	}{
		{"a back alone", box{x0: 20, y0: 20, x1: 60, y1: 76}, back, true},
		{"the wall's first back", box{x0: 100, y0: 20, x1: 140, y1: 76}, back, true},
		{"the wall's middle back", box{x0: 140, y0: 20, x1: 180, y1: 76}, back, true},
		{"the wall's last back", box{x0: 180, y0: 20, x1: 220, y1: 76}, back, true},
		{"the wall's lower first back", box{x0: 100, y0: 76, x1: 140, y1: 132}, back, true},
		{"the wall's lower middle back", box{x0: 140, y0: 76, x1: 180, y1: 132}, back, true},
		{"the wall's lower last back", box{x0: 180, y0: 76, x1: 220, y1: 132}, back, true},
		{"a green back on green felt", box{x0: 258, y0: 18, x1: 302, y1: 82}, back, true},
		{"bare felt read as a back", box{x0: 40, y0: 150, x1: 80, y1: 206}, back, false},
		{"a faint patch of light read as a back", box{x0: 160, y0: 150, x1: 200, y1: 198}, back, false},
		{"glare read as a back", box{x0: 245, y0: 167, x1: 285, y1: 203}, back, false},
		{"bare felt read as a tile", box{x0: 320, y0: 150, x1: 360, y1: 206}, other, true},
		{"a back cut by the photo's edge", box{x0: 380, y0: 200, x1: 420, y1: 260}, back, true},
		{"a box too small to tell", box{x0: 300, y0: 120, x1: 302, y1: 123}, back, true},
		{"glare read as the blank dragon", box{x0: 42, y0: 262, x1: 78, y1: 298}, dragon, false},
		{"glare read as a joker", box{x0: 247, y0: 169, x1: 283, y1: 201}, joker, false},
		{"a blank dragon", box{x0: 140, y0: 250, x1: 180, y1: 306}, dragon, true},
		{"glare beside a tile read as a back", box{x0: 256, y0: 264, x1: 292, y1: 296}, back, false},
		{"the tile beside glare", box{x0: 300, y0: 250, x1: 340, y1: 306}, other, true},
	}
	var boxes []box
	var reads []reading
	for _, c := range cases {
		boxes = append(boxes, c.b)
		reads = append(reads, c.rd)
	}
	got, gotReads := dropFelt(img, boxes, reads, mustTile)
	if len(gotReads) != len(got) {
		t.Fatalf("%d boxes came back with %d readings", len(got), len(gotReads))
	}
	k := 0
	for _, c := range cases {
		kept := k < len(got) && got[k] == c.b
		if kept {
			k++
		}
		if kept != c.kept {
			t.Errorf("%s: kept %v, want %v", c.name, kept, c.kept)
		}
	}
	if k != len(got) {
		t.Errorf("%d boxes came back that were never given", len(got)-k)
	}

	grey := gocv.NewMatWithSize(50, 50, gocv.MatTypeCV8UC1)
	defer grey.Close()
	if got, _ := dropFelt(grey, boxes[:1], reads[:1], nil); len(got) != 1 {
		t.Error("a photo that is not BGR lost a box")
	}
}

// TestDropFeltBlurredPhoto: in a photo blurred all over, whose tiles'
// edges are all soft, a blank dragon and a back are tiles, not glare
// (blurredPhoto); softEdges alone would leave both out.
func TestDropFeltBlurredPhoto(t *testing.T) {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(50, 120, 40, 0), 160, 400, gocv.MatTypeCV8UC3)
	defer img.Close()
	ivory := color.RGBA{R: 235, G: 232, B: 220}
	ink := color.RGBA{R: 30, G: 30, B: 30}
	var boxes []box
	var reads []reading
	for k, code := range []string{"1m", "2p", "3s", "5z", "0z", "7z"} {
		r := image.Rect(20+60*k, 50, 60+60*k, 106)
		switch code {
		case "0z":
			gocv.Rectangle(&img, r, color.RGBA{R: 40, G: 70, B: 170}, -1)
		default:
			gocv.Rectangle(&img, r, ivory, -1)
		}
		switch code {
		case "1m", "2p", "3s", "7z": // some ink on the face
			gocv.Line(&img, image.Pt(r.Min.X+10, r.Min.Y+15), image.Pt(r.Max.X-10, r.Min.Y+15), ink, 3)
			gocv.Circle(&img, image.Pt(r.Min.X+20, r.Min.Y+36), 7, ink, 2)
		}
		boxes = append(boxes, box{x0: float64(r.Min.X), y0: float64(r.Min.Y), x1: float64(r.Max.X), y1: float64(r.Max.Y)})
		reads = append(reads, reading{labels: []string{code}, probs: []float64{0.9}})
	}
	gocv.GaussianBlur(img, &img, image.Pt(0, 0), 3, 3, gocv.BorderDefault)
	got, _ := dropFelt(img, boxes, reads, mustTile)
	if len(got) != len(boxes) {
		t.Errorf("a photo blurred all over kept %d of its %d tiles", len(got), len(boxes))
	}
}
