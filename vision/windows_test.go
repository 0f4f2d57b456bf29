package vision

import (
	"image"
	"math"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

func TestWindowStarts(t *testing.T) {
	for _, c := range []struct {
		n, side int
		want    []int
	}{
		{100, 200, []int{0}},
		{100, 100, []int{0}},
		{180, 100, []int{0, 80}},
		{500, 100, []int{0, 80, 160, 240, 320, 400}},
	} {
		got := windowStarts(c.n, c.side)
		if len(got) != len(c.want) {
			t.Errorf("windowStarts(%d, %d) = %v, want %v", c.n, c.side, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("windowStarts(%d, %d) = %v, want %v", c.n, c.side, got, c.want)
				break
			}
		}
	}
}

func TestTileCluster(t *testing.T) {
	row := func(n int, x, y, w, h, score float64) []box {
		var bs []box
		for i := 0; i < n; i++ {
			bs = append(bs, box{x0: x + float64(i)*w, y0: y, x1: x + float64(i+1)*w, y1: y + h, score: score})
		}
		return bs
	}
	// A 640 px photo read at 384 px: a hand of 14 tiles 12×16 px in its middle.
	hand := row(14, 200, 300, 12, 16, 0.8)
	r, ok := tileCluster(hand, 640, 640, 384)
	if want := image.Rect(184, 284, 384, 332); !ok || r != want {
		t.Errorf("small hand: %v %v, want %v true", r, ok, want)
	}
	// Weak boxes do not count: far-off felt does not widen the part.
	if r2, _ := tileCluster(append(hand, box{x0: 0, y0: 0, x1: 12, y1: 16, score: 0.2}), 640, 640, 384); r2 != r {
		t.Errorf("a weak box widened the part to %v", r2)
	}
	// Tiles across the whole photo, big tiles, or no sure tile: no second look.
	for name, bs := range map[string][]box{
		"whole width": row(40, 0, 300, 16, 20, 0.8),
		"a big tile":  row(1, 200, 200, 110, 150, 0.8),
		"weak only":   row(5, 200, 300, 12, 16, 0.2),
		"nothing":     nil,
	} {
		if r, ok := tileCluster(bs, 640, 640, 384); ok {
			t.Errorf("%s: read again at %v", name, r)
		}
	}
}

// TestSmallHandReadAgain: a held-out scene whose hand lies small in a
// corner of the photo: looking again at that corner alone finds more of
// its labelled tiles than the whole photo does.
func TestSmallHandReadAgain(t *testing.T) {
	const stem = "../testdata/synth/heldout/synth_2_00003"
	rec, w, img, found := labelledScene(t, stem)
	defer img.Close()
	once := detectSized(&w.det, &rec.det, img)
	if _, ok := tileCluster(once, img.Cols(), img.Rows(), float64(rec.det.Input.Width)); !ok {
		t.Fatalf("the hand of %s is not taken for a small group", stem)
	}
	twice := detectTiles(&w.det, &rec.det, img)
	t.Logf("%s: labelled tiles found in the whole photo %d, with the second look %d", stem, found(once), found(twice))
	if found(twice) <= found(once) {
		t.Errorf("the second look found %d labelled tiles, the whole photo %d", found(twice), found(once))
	}
}

// TestCloseUpReadShrunk: a close-up of a held-out design (fluffy-black,
// tiles about 80 px across in a 640 px scene), where the detector boxes
// big tiles' pips one by one: reading the photo again shrunk finds more
// of its labelled tiles whole.
func TestCloseUpReadShrunk(t *testing.T) {
	const stem = "../testdata/synth/fluffy-black/synth_4_00006"
	rec, w, img, found := labelledScene(t, stem)
	defer img.Close()
	once := detect(&w.det, &rec.det, img)
	both := detectSized(&w.det, &rec.det, img)
	t.Logf("%s: labelled tiles found in one look %d, with the shrunk look %d", stem, found(once), found(both))
	if found(both) < found(once)+3 {
		t.Errorf("the shrunk look found %d labelled tiles, one look %d: want 3 more at least", found(both), found(once))
	}
}

// TestZoomedOutReadsPaddedPhoto: the shrunk look reads exactly what
// detect reads of the photo padded out to k times its size (the copy it
// no longer makes), for shrink factors over the range it is used in.
func TestZoomedOutReadsPaddedPhoto(t *testing.T) {
	const stem = "../testdata/synth/fluffy-black/synth_4_00006"
	rec, w, img, _ := labelledScene(t, stem)
	defer img.Close()
	W, H := img.Cols(), img.Rows()
	for _, k := range []float64{1.43, 1.5, 1.9, 2, 2.5, 3} {
		padded := gocv.NewMat()
		gocv.CopyMakeBorder(img, &padded, 0, int(float64(H)*k)-H, 0, int(float64(W)*k)-W, gocv.BorderConstant, padColour(rec.det.Preprocess))
		var want []box
		for _, b := range detect(&w.det, &rec.det, padded) {
			if b.x1 <= float64(W)+2 && b.y1 <= float64(H)+2 {
				b.x1, b.y1 = math.Min(b.x1, float64(W)), math.Min(b.y1, float64(H))
				want = append(want, b)
			}
		}
		padded.Close()
		got := zoomedOut(&w.det, &rec.det, img, nil, k)
		if len(want) == 0 || !slices.Equal(got, nms(want, rec.det.Decode.NMSIoU)) {
			t.Errorf("k %.2f: shrunk look %v, the padded photo %v", k, got, want)
		}
	}
}

// labelledScene reads the scene stem (.jpg and its .txt labels) and
// lends a worker of the shared recognizer for the test; found counts the
// labelled tiles some of the boxes hold at IoU 0.5.
func labelledScene(t *testing.T, stem string) (rec *Recognizer, w *worker, img gocv.Mat, found func([]box) int) {
	t.Helper()
	rec = recognizer(t)
	labels, img := readScene(t, stem+".jpg")
	w = <-rec.pool
	t.Cleanup(func() { rec.pool <- w })
	return rec, w, img, func(bs []box) int { return labelsFound(labels, bs) }
}

// labelsFound counts the labelled tiles some box holds at IoU 0.5.
func labelsFound(labels []Labelled, bs []box) int {
	n := 0
	for _, l := range labels {
		for _, b := range bs {
			if boxIoU(l.Box, [4]float64{b.x0, b.y0, b.x1, b.y1}) >= 0.5 {
				n++
				break
			}
		}
	}
	return n
}
