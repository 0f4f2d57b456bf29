package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// TestDropTable: on green felt, a weak box of bare felt is left out and a
// weak box on a tile is kept, as is a sure box of felt (the rule judges
// weak boxes only); black tiles on black felt keep their weak boxes, as
// the tiles' colours are the table's too; with fewer than minSure sure
// tiles nothing is judged.
func TestDropTable(t *testing.T) {
	img, boxes, reads := blankScene(t, nil, nil, nil)
	defer img.Close()
	for i := range boxes {
		boxes[i].score = 0.7
	}
	felt := box{x0: 10, y0: 120, x1: 54, y1: 180, score: 0.3}
	weakTile := boxes[3]
	weakTile.score = 0.3
	sureFelt := box{x0: 70, y0: 120, x1: 114, y1: 180, score: 0.7}
	one := reading{labels: []string{"1s"}, probs: []float64{0.99}}
	all := append(append([]box(nil), boxes[:3]...), weakTile, felt, sureFelt)
	rs := append(append([]reading(nil), reads[:3]...), one, one, one)
	got, _ := dropTable(img, all, rs)
	if len(got) != 5 || got[3] != weakTile || got[4] != sureFelt {
		t.Errorf("green felt: kept %+v, want all but the weak box of felt", got)
	}

	dark, darkBoxes, darkReads := blackTiles(gocv.NewScalar(25, 25, 25, 0), color.RGBA{R: 28, G: 28, B: 30}, color.RGBA{R: 230, G: 230, B: 230}, one)
	defer dark.Close()
	if got, _ := dropTable(dark, darkBoxes, darkReads); len(got) != 4 {
		t.Errorf("black tiles on black felt: %d of 4 kept", len(got))
	}

	few := []box{boxes[0], boxes[1], felt}
	if got, _ := dropTable(img, few, []reading{one, one, one}); len(got) != 3 {
		t.Errorf("two sure tiles: %d of 3 boxes kept, want nothing judged", len(got))
	}
}

// TestRowOfFelt: a row of weak boxes along the dark line at the felt's
// edge, read as backs, is left out although it outnumbers the tiles: the
// weak boxes do not make the felt a tile colour for each other.
func TestRowOfFelt(t *testing.T) {
	img, boxes, reads := blankScene(t, nil, nil, nil)
	defer img.Close()
	for i := range boxes {
		boxes[i].score = 0.7
	}
	gocv.Line(&img, image.Pt(0, 150), image.Pt(img.Cols(), 150), color.RGBA{R: 10, G: 40, B: 12}, 2)
	back := reading{labels: []string{"0z"}, probs: []float64{0.99}}
	for x := 0; x+20 <= img.Cols(); x += 14 {
		boxes = append(boxes, box{x0: float64(x), y0: 130, x1: float64(x + 20), y1: 160, score: 0.17})
		reads = append(reads, back)
	}
	if len(boxes) < 12 {
		t.Fatalf("only %d boxes: the felt's row must outnumber the tiles", len(boxes))
	}
	got, _ := dropTable(img, boxes, reads)
	if len(got) != 4 {
		t.Errorf("kept %d boxes, want the 4 tiles alone: %+v", len(got), got)
	}
}

// TestFeltBesideTheRow: in a dev photo the green felt beside a rack's last
// tile, at the photo's edge, is boxed weakly by the detector and read as
// the 1 of bamboo at 0.99; it is the felt's colour, so it is not reported.
func TestFeltBesideTheRow(t *testing.T) {
	for _, tl := range devPhotoTiles(t, "382127884_195240513589323_8614287019383247619_n_jpg.rf.54a16e75320e5ce56febcb2e2867e622") {
		if tl.Box[0] >= 600 {
			t.Errorf("felt at the photo's edge read as %s (%.2f) at %v", tl.Tile, tl.Confidence, tl.Box)
		}
	}
}

// blackTiles draws four black tiles of one pip each on felt, boxed (the
// last weakly, the others surely) and read as rd.
func blackTiles(felt gocv.Scalar, face, pip color.RGBA, rd reading) (gocv.Mat, []box, []reading) {
	img := gocv.NewMatWithSizeFromScalar(felt, 200, 300, gocv.MatTypeCV8UC3)
	var boxes []box
	var reads []reading
	for i := 0; i < 4; i++ {
		x := 10 + 60*i
		gocv.Rectangle(&img, image.Rect(x, 40, x+44, 100), face, -1)
		gocv.Circle(&img, image.Pt(x+22, 70), 8, pip, -1)
		boxes = append(boxes, box{x0: float64(x), y0: 40, x1: float64(x + 44), y1: 100, score: 0.7})
		reads = append(reads, rd)
	}
	boxes[3].score = 0.3
	return img, boxes, reads
}
