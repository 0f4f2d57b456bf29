package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// blankScene draws tiles on green felt: ivory faces with dark strokes
// (read as 1m), and the blank tiles given, each a plain face of its
// colour; it gives the photo, the boxes and the readings.
func blankScene(t *testing.T, blanks []color.RGBA, read []string, sure []float64) (gocv.Mat, []box, []reading) {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 120, 30, 0), 200, 60*(4+len(blanks)), gocv.MatTypeCV8UC3)
	ivory := color.RGBA{R: 240, G: 236, B: 222}
	var boxes []box
	var reads []reading
	for i := 0; i < 4; i++ {
		x := 10 + 60*i
		gocv.Rectangle(&img, image.Rect(x, 40, x+44, 100), ivory, -1)
		gocv.Line(&img, image.Pt(x+10, 60), image.Pt(x+34, 60), color.RGBA{R: 20, G: 20, B: 20}, 3)
		gocv.Line(&img, image.Pt(x+22, 66), image.Pt(x+22, 90), color.RGBA{R: 200, G: 30, B: 30}, 3)
		boxes = append(boxes, box{x0: float64(x), y0: 40, x1: float64(x + 44), y1: 100})
		reads = append(reads, reading{labels: []string{"1m", "2m"}, probs: []float64{0.9, 0.1}})
	}
	for i, c := range blanks {
		x := 10 + 60*(4+i)
		gocv.Rectangle(&img, image.Rect(x, 40, x+44, 100), c, -1)
		boxes = append(boxes, box{x0: float64(x), y0: 40, x1: float64(x + 44), y1: 100})
		other := "5z"
		if read[i] == "5z" {
			other = "0z"
		}
		reads = append(reads, reading{labels: []string{read[i], other, "8p"}, probs: []float64{sure[i], 1 - sure[i], 0}})
	}
	return img, boxes, reads
}

// TestBlanksByColour: a tile read as a blank dragon whose colour is not
// the faces' is a back; one read as a back with the faces' colour is a
// blank dragon where the photo's backs are coloured, and stays a back
// where they are not; a black back is no face; a greyscale photo changes
// nothing.
func TestBlanksByColour(t *testing.T) {
	blue := color.RGBA{R: 40, G: 95, B: 170}
	ivory := color.RGBA{R: 238, G: 234, B: 220}
	black := color.RGBA{R: 30, G: 30, B: 32}
	cases := []struct {
		name   string
		blanks []color.RGBA
		read   []string
		sure   []float64
		want   []string
	}{
		{"a blue back read as the dragon", []color.RGBA{blue}, []string{"5z"}, []float64{0.9}, []string{"0z"}},
		{"the dragon read as a back beside a blue back", []color.RGBA{ivory, blue}, []string{"0z", "0z"}, []float64{0.6, 0.95}, []string{"5z", "0z"}},
		{"the dragon read as a back beside a back read unsurely", []color.RGBA{ivory, blue}, []string{"0z", "0z"}, []float64{0.6, 0.5}, []string{"0z", "0z"}},
		{"a face-coloured back alone", []color.RGBA{ivory}, []string{"0z"}, []float64{0.9}, []string{"0z"}},
		{"a black back beside a blue one", []color.RGBA{black, blue}, []string{"0z", "0z"}, []float64{0.9, 0.95}, []string{"0z", "0z"}},
		{"the dragon read as the dragon", []color.RGBA{ivory}, []string{"5z"}, []float64{0.9}, []string{"5z"}},
	}
	for _, c := range cases {
		img, boxes, reads := blankScene(t, c.blanks, c.read, c.sure)
		got := blanks(img, boxes, reads)
		for i, w := range c.want {
			rd := got[4+i]
			if rd.labels[0] != w || len(rd.labels) != 3 || rd.probs[0] != c.sure[i] {
				t.Errorf("%s: tile %d read %v %v, want %s first of three at %g", c.name, i, rd.labels, rd.probs, w, c.sure[i])
			}
		}
		for i := 0; i < 4; i++ {
			if got[i].labels[0] != "1m" {
				t.Errorf("%s: a face read %s", c.name, got[i].labels[0])
			}
		}
		grey := gocv.NewMat()
		gocv.CvtColor(img, &grey, gocv.ColorBGRToGray)
		gocv.CvtColor(grey, &grey, gocv.ColorGrayToBGR)
		again, boxes, reads := blankScene(t, c.blanks, c.read, c.sure)
		again.Close()
		for i, rd := range blanks(grey, boxes, reads)[4:] {
			if rd.labels[0] != c.read[i] {
				t.Errorf("%s, in grey: tile %d read %s, want %s as it was", c.name, i, rd.labels[0], c.read[i])
			}
		}
		grey.Close()
		img.Close()
	}
}

// TestBlanksLeaveBadBoxes: boxes outside the photo or too small to hold a
// colour, and readings that do not match the boxes, change nothing.
func TestBlanksLeaveBadBoxes(t *testing.T) {
	img, boxes, reads := blankScene(t, []color.RGBA{{R: 40, G: 95, B: 170}}, []string{"5z"}, []float64{0.9})
	defer img.Close()
	boxes[4] = box{x0: 5000, y0: 5000, x1: 5100, y1: 5100}
	if got := blanks(img, boxes, reads); got[4].labels[0] != "5z" {
		t.Fatalf("a box outside the photo was read again: %v", got[4].labels)
	}
	boxes[4] = box{x0: 250, y0: 50, x1: 251, y1: 51}
	if got := blanks(img, boxes, reads); got[4].labels[0] != "5z" {
		t.Fatalf("a box of a pixel was read again: %v", got[4].labels)
	}
	if got := blanks(img, boxes[:3], reads); len(got) != len(reads) || got[4].labels[0] != "5z" {
		t.Fatal("readings that do not match the boxes were changed")
	}
	empty := gocv.NewMat()
	defer empty.Close()
	if got := blanks(empty, boxes, reads); got[4].labels[0] != "5z" {
		t.Fatal("an empty photo changed a reading")
	}
}

// BenchmarkBlanks: reading blank faces again by colour, on a photo of
// four faces and two blank tiles (a back read as the dragon, the dragon
// read as a back).
func BenchmarkBlanks(b *testing.B) {
	t := &testing.T{}
	img, boxes, reads := blankScene(t, []color.RGBA{{R: 40, G: 95, B: 170}, {R: 238, G: 234, B: 220}}, []string{"5z", "0z"}, []float64{0.95, 0.6})
	defer img.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rs := make([]reading, len(reads))
		copy(rs, reads)
		blanks(img, boxes, rs)
	}
}
