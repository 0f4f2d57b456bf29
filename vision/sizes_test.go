package vision

import (
	"math"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestGrownToNeighbours: a box a third narrower than the tiles standing
// beside it is grown about its centre to their size (within the photo); a
// box of their size, one with too few neighbours, and a tile lying across
// a row of standing ones are left alone.
func TestGrownToNeighbours(t *testing.T) {
	row := func(widths ...float64) []box {
		var bs []box
		x := 10.0
		for _, w := range widths {
			bs = append(bs, box{x0: x, y0: 100, x1: x + w, y1: 160, score: 0.6})
			x += 46
		}
		return bs
	}
	boxes := row(44, 44, 30, 44, 44)
	g, ok := grownToNeighbours(boxes, 2, 640, 640)
	if !ok || g.w() != 44 || g.h() != 60 || (g.x0+g.x1)/2 != (boxes[2].x0+boxes[2].x1)/2 || g.score != 0.6 {
		t.Errorf("a narrow box among 44-px tiles grew to %+v (%v), want 44 x 60 about its centre", g, ok)
	}
	if _, ok := grownToNeighbours(boxes, 1, 640, 640); ok {
		t.Error("a box of its neighbours' size was grown")
	}
	if _, ok := grownToNeighbours(row(44, 30), 1, 640, 640); ok {
		t.Error("a box with one neighbour was grown")
	}
	lying := row(44, 44, 44, 44)
	lying = append(lying, box{x0: 200, y0: 115, x1: 250, y1: 155})
	if _, ok := grownToNeighbours(lying, 4, 640, 640); ok {
		t.Error("a tile lying across standing ones was grown to their size")
	}
	edge := row(44, 44, 44, 44, 30)
	if g, ok := grownToNeighbours(edge, 4, edge[4].x1+2, 640); !ok || g.x1 > edge[4].x1+2 {
		t.Errorf("a box at the photo's edge grew to %+v (%v), want it kept within the photo", g, ok)
	}
}

// TestEvenSizesReadsAgain: the grown box stands only where it is read more
// surely than the box as found, and a sure box is not read again. The
// photo is green felt with ivory tiles whose faces hold two dark strokes;
// the third tile's box holds its middle only.
func TestEvenSizesReadsAgain(t *testing.T) {
	img, boxes, _ := blankScene(t, nil, nil, nil)
	defer img.Close()
	rec := recognizer(t)
	w := <-rec.pool
	defer func() { rec.pool <- w }()
	narrow := boxes[2]
	boxes[2].x0, boxes[2].x1 = narrow.x0+14, narrow.x1-14
	reads := classify(&w.cls, &rec.cls, img, boxes)
	again := classify(&w.cls, &rec.cls, img, []box{narrow})
	for i := range reads {
		if i != 2 {
			reads[i].probs[0] = 0.99 // sure: left alone
		}
	}
	gotB, gotR := evenSizes(&w.cls, &rec.cls, img, boxes, reads)
	grew := gotB[2].w() > boxes[2].w()
	if want := again[0].probs[0] > reads[2].probs[0]; grew != want {
		t.Errorf("the narrow box grew %v, want %v (read %v %.3f as found, %v %.3f grown)", grew, want,
			reads[2].labels[0], reads[2].probs[0], again[0].labels[0], again[0].probs[0])
	}
	if grew && (gotR[2].labels[0] != again[0].labels[0] || gotR[2].probs[0] != again[0].probs[0]) {
		t.Errorf("the grown box keeps the old reading %v %.3f", gotR[2].labels[0], gotR[2].probs[0])
	}
	for i := range boxes {
		if i != 2 && gotB[i] != boxes[i] {
			t.Errorf("the sure box %d moved: %+v -> %+v", i, boxes[i], gotB[i])
		}
	}
}

// TestNarrowTwoOfBamboo: in a dev photo (a tray of 36 tiles of one set)
// the detector boxes a 2 of bamboo by its two sticks, a third narrower
// than the tile; grown to its neighbours' size it is found and read 2s.
// Before evenSizes the photo reported no tile there.
func TestNarrowTwoOfBamboo(t *testing.T) {
	tiles := devPhotoTiles(t, "IMG_20231222_185155_jpg.rf.a6d73f1505331f0d126951abe0a6297e")
	want := box{x0: 241, y0: 178, x1: 285, y1: 244}
	for _, tl := range tiles {
		if iou(seenBox(tl), want) >= 0.5 {
			if tl.Tile.String() != "2s" {
				t.Errorf("the 2 of bamboo read %s", tl.Tile)
			}
			return
		}
	}
	t.Errorf("the 2 of bamboo at %+v was not found", want)
}

// devPhotoTiles reads one photo of testdata/photos/dev with the shipped
// models.
func devPhotoTiles(t *testing.T, stem string) []TileSeen {
	t.Helper()
	data, err := os.ReadFile("../testdata/photos/dev/" + stem + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	r := recognizer(t).Recognize(stem, data)
	if !r.OK {
		t.Fatalf("%s: %v", stem, r.Error)
	}
	return r.Tiles
}

// FuzzBoxRules: any boxes, of any size or place (off the photo, inside
// out, NaN), through evenSizes, dropTable and dropFaceless on a small
// photo: no crash, every grown box lies within the photo, and dropTable
// and dropFaceless only leave boxes out.
func FuzzBoxRules(f *testing.F) {
	f.Add([]byte{10, 20, 40, 80, 200, 60, 20, 90, 80, 200, 110, 20, 125, 80, 90, 160, 20, 200, 80, 200}, uint8(3))
	f.Add([]byte{255, 255, 0, 0, 1, 0, 0, 255, 255, 0}, uint8(0))
	rec := recognizer(f)
	f.Fuzz(func(t *testing.T, data []byte, colour uint8) {
		img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(colour), 120, float64(255-colour), 0), 60, 200, gocv.MatTypeCV8UC3)
		defer img.Close()
		var boxes []box
		var reads []reading
		for i := 0; i+5 <= len(data) && len(boxes) < 12; i += 5 {
			v := func(k int) float64 { return float64(int(data[i+k])-20) * 1.2 }
			b := box{x0: v(0), y0: v(1) / 4, x1: v(2), y1: v(3) / 4, score: float64(data[i+4]) / 255}
			if data[i+4] == 7 {
				b.x1 = math.NaN()
			}
			boxes = append(boxes, b)
			reads = append(reads, reading{labels: []string{"1s", "2s"}, probs: []float64{float64(data[i+4]) / 300, 0.1}})
		}
		for i := range boxes {
			if g, ok := grownToNeighbours(boxes, i, 200, 60); ok && (g.x0 < 0 || g.y0 < 0 || g.x1 > 200 || g.y1 > 60 || g.w() < 2 || g.h() < 2) {
				t.Fatalf("box %+v grew to %+v, outside the 200x60 photo", boxes[i], g)
			}
		}
		w := <-rec.pool
		gotB, gotR := evenSizes(&w.cls, &rec.cls, img, boxes, reads)
		rec.pool <- w
		if len(gotB) != len(boxes) || len(gotR) != len(reads) {
			t.Fatalf("evenSizes gave %d boxes and %d readings for %d", len(gotB), len(gotR), len(boxes))
		}
		kept, keptR := dropTable(img, gotB, gotR)
		if len(kept) > len(gotB) || len(kept) != len(keptR) {
			t.Fatalf("dropTable gave %d boxes and %d readings of %d", len(kept), len(keptR), len(gotB))
		}
		faced, facedR := dropFaceless(img, kept, keptR)
		if len(faced) > len(kept) || len(faced) != len(facedR) {
			t.Fatalf("dropFaceless gave %d boxes and %d readings of %d", len(faced), len(facedR), len(kept))
		}
	})
}

// TestDropSpecks: a box under half the side of the photo's median box is
// left out (a glint read as a back); one of 0.6 (a far tile) stays, and a
// photo of fewer than minSpeckBoxes boxes keeps all of them.
func TestDropSpecks(t *testing.T) {
	sq := func(x, side float64) box { return box{x0: x, y0: 100, x1: x + side, y1: 100 + side*1.3} }
	boxes := []box{sq(0, 40), sq(50, 40), sq(100, 40), sq(150, 40), sq(200, 24), sq(300, 19)}
	reads := make([]reading, len(boxes))
	for i := range reads {
		reads[i] = reading{labels: []string{"0z"}, probs: []float64{0.99}}
	}
	kept, _ := dropSpecks(boxes, reads)
	if len(kept) != 5 || kept[4] != boxes[4] {
		t.Errorf("kept %v, want all but the 19-px box among 40-px tiles", kept)
	}
	few := []box{sq(0, 40), sq(50, 40), sq(300, 10)}
	if kept, _ := dropSpecks(few, reads[:3]); len(kept) != 3 {
		t.Errorf("three boxes: kept %d, want all", len(kept))
	}
}

// TestReadOnce: of two boxes on one tile (its face, and its face with the
// body beside it; or the tile's two halves) only the surer reading is
// reported, while touching tiles of a row, whose boxes overlap a little,
// are all kept.
func TestReadOnce(t *testing.T) {
	rd := func(p float64) reading { return reading{labels: []string{"5p"}, probs: []float64{p}} }
	boxes := []box{
		{x0: 10, y0: 100, x1: 56, y1: 160, score: 0.9},  // 0: a tile
		{x0: 54, y0: 100, x1: 100, y1: 160, score: 0.9}, // 1: its neighbour, touching
		{x0: 98, y0: 102, x1: 144, y1: 160, score: 0.8}, // 2: the next, face only
		{x0: 120, y0: 98, x1: 170, y1: 162, score: 0.7}, // 3: the same tile with its body: IoU 0.33
		{x0: 200, y0: 100, x1: 246, y1: 160, score: 0.5},
		{x0: 205, y0: 110, x1: 230, y1: 150, score: 0.9}, // 5: inside 4
	}
	reads := []reading{rd(0.99), rd(0.98), rd(0.90), rd(1.0), rd(0.7), rd(0.6)}
	got := readOnce(boxes, reads)
	want := []bool{true, true, false, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("box %d kept %v, want %v (all: %v)", i, got[i], want[i], got)
		}
	}
	if iou(boxes[2], boxes[3]) < doubleIoU || iou(boxes[0], boxes[1]) >= doubleIoU {
		t.Fatalf("the test's boxes overlap %.2f and %.2f: fix them", iou(boxes[2], boxes[3]), iou(boxes[0], boxes[1]))
	}
	reads[2], reads[3] = rd(1.0), rd(1.0) // read alike: the detector's surer box stands
	if got := readOnce(boxes, reads); !got[2] || got[3] {
		t.Errorf("two boxes read alike kept %v, want the detector's surer one (2)", got[2:4])
	}
	back := reading{labels: []string{"0z"}, probs: []float64{1}}
	reads[2], reads[3] = back, back // touching backs boxed off their tiles: both stand
	if got := readOnce(boxes, reads); !got[2] || !got[3] {
		t.Errorf("two backs overlapping %.2f kept %v, want both", iou(boxes[2], boxes[3]), got[2:4])
	}
	reads[4], reads[5] = back, back // one inside the other is one back
	if got := readOnce(boxes, reads); got[4] == got[5] {
		t.Errorf("a back's box inside another back's: kept %v, want one of the two", got[4:6])
	}
}
