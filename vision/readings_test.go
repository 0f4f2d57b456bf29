package vision

import "testing"

// sideBySide lays n boxes of w×h side by side.
func sideBySide(n int, w, h float64) []box {
	out := make([]box, n)
	for i := range out {
		x := float64(i) * (w + 2)
		out[i] = box{x0: x, y0: 0, x1: x + w, y1: h}
	}
	return out
}

func read(code string, lying float64) reading {
	return reading{labels: []string{code}, probs: []float64{0.99}, lying: lying}
}

func TestLyingAcrossFromTheClassifier(t *testing.T) {
	// Five standing tiles and one in a near-square box that the classifier
	// sees lying across its crop: a called tile the box shape cannot tell.
	boxes := sideBySide(6, 30, 40)
	boxes[3] = box{x0: 96, y0: 4, x1: 132, y1: 40}
	reads := []reading{read("1m", 0.02), read("2m", 0.05), read("3m", 0.01), read("4m", 0.97), read("5m", 0.03), read("6m", 0.02)}
	if got := acrossByShape(boxes)[3]; got {
		t.Fatalf("the box shape alone already flags the square box: the case is not the one meant")
	}
	want := []bool{false, false, false, true, false, false}
	if got := lyingAcross(boxes, reads); !equalBools(got, want) {
		t.Errorf("lyingAcross = %v, want %v", got, want)
	}
}

func TestLyingAcrossTurnedPhoto(t *testing.T) {
	// A photo turned a quarter: every box is wide, every crop is turned
	// upright, and the one tile that lies across the others stands in a tall box.
	boxes := sideBySide(5, 40, 30)
	boxes[2] = box{x0: 84, y0: -5, x1: 114, y1: 35}
	reads := []reading{read("1p", 0.03), read("2p", 0.02), read("3p", 0.04), read("4p", 0.01), read("5p", 0.05)}
	for i := range reads {
		reads[i].turned = i != 2 // the wide boxes' crops were turned upright
	}
	want := []bool{false, false, true, false, false}
	if got := lyingAcross(boxes, reads); !equalBools(got, want) {
		t.Errorf("lyingAcross = %v, want %v", got, want)
	}
}

func TestLyingAcrossSqueezed(t *testing.T) {
	// A tile lying sideways in a box a little wider than tall (under the
	// turn aspect, so its crop is not turned) is squeezed into a portrait
	// crop, where the classifier says surely that it stands: its box's
	// shape decides. A near-square box is still the classifier's to judge.
	boxes := sideBySide(8, 30, 40)
	boxes[2] = box{x0: 64, y0: 0, x1: 110, y1: 40}  // 1.15 wide for its height
	boxes[4] = box{x0: 160, y0: 4, x1: 196, y1: 40} // square
	boxes[5] = box{x0: 200, y0: 0, x1: 241, y1: 40} // 1.03: too little for the shape
	reads := []reading{read("1m", 0.02), read("2m", 0.01), read("6p", 0.01), read("4m", 0.03), read("5m", 0.97), read("7m", 0.96), read("8m", 0.02), read("9m", 0.01)}
	if !squeezed(boxes[2], reads[2]) || squeezed(boxes[4], reads[4]) {
		t.Fatal("the test's boxes are not the ones meant")
	}
	want := []bool{false, false, true, false, true, false, false, false}
	if got := lyingAcross(boxes, reads); !equalBools(got, want) {
		t.Errorf("lyingAcross = %v, want %v", got, want)
	}
	// Its crop turned upright, and the tile lying across it: the
	// classifier's to judge again, and it stands in the photo.
	reads[2].turned, reads[2].lying = true, 0.98
	if got := lyingAcross(boxes, reads); got[2] {
		t.Error("a turned crop the classifier reads lying across it (a standing tile) was flagged by its box's shape")
	}
}

func TestLyingAcrossUnsureFallsBackOnShape(t *testing.T) {
	// Backs and unsure readings are judged by their boxes: a flat box among
	// standing ones lies across; a classifier without the output (-1) too.
	boxes := sideBySide(5, 30, 40)
	boxes[4] = box{x0: 128, y0: 10, x1: 184, y1: 40}
	for _, lying := range []float64{-1, 0.5} {
		reads := []reading{read("1s", lying), read("2s", lying), read("0z", 0.99), read("3s", lying), read("4s", lying)}
		want := []bool{false, false, false, false, true}
		if got := lyingAcross(boxes, reads); !equalBools(got, want) {
			t.Errorf("lying %v: lyingAcross = %v, want %v", lying, got, want)
		}
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDropLeavesOutWhatNoCodeFits(t *testing.T) {
	boxes := []box{{score: 0.9}, {score: 0.9}, {score: 0.2}, {score: 0.2}}
	reads := []reading{
		{labels: []string{"1m"}, probs: []float64{0.95}},
		{labels: []string{"5s"}, probs: []float64{0.2}},                         // felt beside a row's last tile
		{labels: []string{"5z"}, probs: []float64{0.95}},                        // a sure read of a weak box
		{labels: []string{"2p"}, probs: []float64{0.6}},                         // an unsure read of a weak box
		{labels: []string{"2j", "3j", "6s"}, probs: []float64{0.25, 0.2, 0.1}},  // a joker, but which?
		{labels: []string{"0p", "5p", "3p"}, probs: []float64{0.3, 0.15, 0.05}}, // a five of circles, red or not
	}
	boxes = append(boxes, box{score: 0.9}, box{score: 0.9})
	b, r := dropUnread(dropWeak(boxes, reads))
	if len(b) != 4 || len(r) != 4 || r[0].labels[0] != "1m" || r[1].labels[0] != "5z" || r[2].labels[0] != "2j" || r[3].labels[0] != "0p" {
		t.Errorf("kept %v, want 1m, 5z, 2j and 0p", r)
	}
}
