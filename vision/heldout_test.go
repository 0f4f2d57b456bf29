package vision

import (
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// heldOut is one measure on the held-out synthetic scenes: what the vision
// issue asks (target) and the level the shipped models reach today (floor,
// rounded down). The tests below fail when a change loses ground; raise a
// floor when a model gains it. Every target is still far above its floor:
// the issue stays open until the floors reach the targets.
type heldOut struct {
	name          string
	target, floor float64
}

func checkHeldOut(t *testing.T, h heldOut, got float64) {
	t.Helper()
	t.Logf("%-22s %.4f  (issue target %.2f)", h.name, got, h.target)
	if got < h.floor {
		t.Errorf("%s: %.4f, below the level the shipped models reached (%.2f)", h.name, got, h.floor)
	}
}

// TestHeldOutSynthetic runs the shipped models end to end on the held-out
// synthetic scenes (testdata/synth/heldout: the KMahjongg "traditional" tile
// set, and rare tiles in inks and frames training never saw). The issue asks
// for tile F1 ≥ 0.97 over every tile and ≥ 0.98 on each rare class: red
// fives, backs, kings/queens, jokers and sideways tiles flagged rotated.
func TestHeldOutSynthetic(t *testing.T) {
	s, err := EvaluateDir(recognizer(t), "../testdata/synth/heldout")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Mode.StrictRedFives || !s.Mode.CountBacks {
		t.Fatalf("the held-out labels have red fives and backs, yet the mode is %v", s.Mode)
	}
	// 0.81 until secondDetector (0.825); 0.831 since the part reader
	// weighs kings and queens (parts.go); 0.836 with the second reader;
	// 0.8427 with the second index reader and its lift (index.go);
	// 0.8463 with backs in a row from the broad detector (rowOfBacks);
	// 0.8480 since felt and glare read as backs are left out (dropFelt);
	// 0.8484 since glare read as any tile is
	checkHeldOut(t, heldOut{"tile F1", 0.97, 0.848}, s.F1())
	for _, h := range []heldOut{
		// 0.92 until G1; G2 reads 0.906 (87 of 89 right, 16 of 103
		// missed), the design's tile F1 3 points better; 0.922 since a
		// photo read unsurely is read again with the broad detector
		// (secondDetector), which raised the floors below too.
		{GroupRedFives, 0.98, 0.92},
		// 0.78 (0.781) before blanks (blank.go): a small teal piece at
		// the edge of synth_2_00081, which the labels leave out, read as
		// the blank dragon before and as a back now (0.779); tile F1 is
		// the same. 0.76 since the S11 classifier (0.763; stage 9:
		// 0.77): it reads the white and light grey backs of these scenes
		// as the blank dragon more often (it learned blank and framed
		// white dragons from the drawn faces), while it reads the held-out
		// designs' other tiles better (models/README.md, "Boxes with no
		// tile face, and S11 again"). G2: 0.792; with secondDetector 0.844;
		// 0.880 since backs the broad detector finds in a row join the
		// reading chosen (rowOfBacks: a dead wall's backs the shipped
		// detector missed); 0.898 since felt and glare read as backs are
		// left out (dropFelt); 0.903 (0.9026) since glare beside a tile
		// is (its outline no longer counted as the glare's own).
		{GroupBacks, 0.98, 0.902},
		// 0.791 until the part reader weighed kings and queens: 0.835;
		// 0.872 with the second reader
		{GroupKings, 0.98, 0.87},
		{GroupJokers, 0.98, 0.875},
		// 0.54 (0.546) until a sideways tile seen squeezed into its
		// crop was judged by its box (squeezed): 0.574; 0.590 with
		// secondDetector and withMissed.
		{GroupSideways, 0.98, 0.585},
	} {
		if s.Group(h.name).Labels < 20 {
			t.Errorf("%s: only %d labels in the held-out set", h.name, s.Group(h.name).Labels)
		}
		checkHeldOut(t, heldOut{h.name + " F1", h.target, h.floor}, s.GroupF1(h.name))
	}
	if t.Failed() {
		t.Log("\n" + s.Report(true))
	}
}

// readScene reads a labelled scene: its labels in NAME.txt and NAME.jpg
// decoded (the caller closes it).
func readScene(t *testing.T, name string) ([]Labelled, gocv.Mat) {
	t.Helper()
	labels, err := ReadLabels(strings.TrimSuffix(name, ".jpg") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	img := gocv.IMRead(name, gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("%s does not decode", name)
	}
	return labels, img
}

// TestHeldOutRareTilesRead gives the shipped classifier the labelled boxes
// of the held-out synthetic scenes (the detector left out) and measures its
// reading of the ordinary tiles of a set it never saw and of the rare classes
// the photos have no labels for: red fives,
// backs, Vietnamese kings/queens and jokers, the American joker, drawn in a
// style training never saw, on a tile set training never saw; and the rule
// that flags a tile lying across the others (a called tile) on the same
// boxes (with the classifier's lying-across output, as recognition uses it).
func TestHeldOutRareTilesRead(t *testing.T) {
	rec := recognizer(t)
	dir := "../testdata/synth/heldout"
	names, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no held-out scenes in %s (%v)", dir, err)
	}
	right := map[string]int{}
	total := map[string]int{}
	confused := map[[2]string]int{}
	falseAcross := 0
	for _, name := range names {
		labels, img := readScene(t, name)
		boxes := make([]box, len(labels))
		for i, l := range labels {
			boxes[i] = box{x0: l.Box[0], y0: l.Box[1], x1: l.Box[2], y1: l.Box[3]}
		}
		w := <-rec.pool
		reads := classify(&w.cls, &rec.cls, img, boxes)
		rec.pool <- w
		img.Close()
		if len(reads) != len(labels) {
			t.Fatalf("%s: %d readings for %d boxes", name, len(reads), len(labels))
		}
		for i, across := range lyingAcross(boxes, reads) {
			if labels[i].Rotated {
				total[GroupSideways]++
			}
			if across && labels[i].Rotated {
				right[GroupSideways]++
			} else if across {
				falseAcross++
			}
		}
		for i, l := range labels {
			g := codeGroup(l.Tile)
			if g == "" {
				g = "ordinary"
			}
			total[g]++
			if reads[i].labels[0] == l.Tile {
				right[g]++
			} else {
				confused[[2]string{l.Tile, reads[i].labels[0]}]++
			}
		}
	}
	// The level reached: 7 upright tiles, 5% of the 138 lying across
	// (the narrow classifier of stage 8: 9).
	t.Logf("upright tiles flagged as lying across: %d", falseAcross)
	if n := ratio(falseAcross, total[GroupSideways]); n > 0.07 {
		t.Errorf("%d upright tiles flagged as lying across, %.3f of the %d that do", falseAcross, n, total[GroupSideways])
	}
	for _, h := range []heldOut{
		{"ordinary", 0.97, 0.77},
		// 0.92 with S11; the G1 classifier reads 0.903, G2 the same (and
		// the design end to end better: models/README.md, "Stage G1").
		{GroupRedFives, 0.98, 0.90},
		// 0.98 with the stage-9 classifier; S11 reads 0.94 and G1 0.95
		// (white backs as the blank dragon, see TestHeldOutSynthetic); G2
		// 0.991.
		{GroupBacks, 0.98, 0.98},
		{GroupKings, 0.98, 0.78},
		{GroupJokers, 0.98, 0.91},
		// 0.68 with S11, 0.674 with G1, 0.667 with G2: one lying tile of
		// 138 each time (G2 reads the design end to end better:
		// models/README.md, "Stage G2"). 0.746 since a tile seen squeezed
		// into its crop is judged by its box (squeezed; 7 upright tiles
		// flagged, as before).
		{GroupSideways, 0.98, 0.74},
	} {
		if total[h.name] < 20 {
			t.Errorf("%s: only %d labelled tiles", h.name, total[h.name])
		}
		checkHeldOut(t, heldOut{h.name + " read right", h.target, h.floor}, ratio(right[h.name], total[h.name]))
	}
	if t.Failed() {
		for k, n := range confused {
			if n >= 3 {
				t.Logf("  %s read as %s: %d", k[0], k[1], n)
			}
		}
	}
}
