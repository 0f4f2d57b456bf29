//go:build !matprofile

package vision

import (
	"path/filepath"
	"strconv"
	"testing"
)

// The held-out designs: whole tile sets no training ever saw
// (testdata/synth/README.md), the honest predictor of how a player's own
// set reads. For each, the shipped models alone, and taught from the
// fewest of its photos that show every tile once, then read on the rest
// (what `mjscan calibrate --labelled DIR --fewest` does). The issue's
// targets: 0.90 alone, 0.99 taught; floors are the levels reached
// (models/README.md), raised as models gain.
// (Skipped under -tags matprofile: the same code paths run in
// TestTeachFromLabelledPhotos there, and these take minutes.)
var designs = []struct {
	dir                string
	alone, taught      float64 // floors
	aloneRun, teachRun bool
	inverted           bool // the set is taught to be read with its lightness inverted
}{
	// taught 0.956 (0.9563) since felt and glare read as backs are left
	// out (felt.go, dropFelt; 0.9537 before); 0.957 (0.9573) since glare
	// read as any tile is left out
	{dir: "fluffy", alone: 0.90, taught: 0.957, aloneRun: true, teachRun: true},
	// alone 0.88 (0.8884) since backs the broad detector finds in a row
	// join the reading chosen (rowOfBacks; 0.8817 before)
	// taught 0.947 (0.9474) since dropFelt (0.9463 before)
	{dir: "fluffy-black", alone: 0.88, taught: 0.947, aloneRun: true, teachRun: true, inverted: true}, // dark faces
	// 0.91 until the part reader weighed kings and queens (parts.go): 0.922;
	// 0.925 with the second reader; 0.927 with the index reader (index.go),
	// 0.928 with its second drawing (0.9285), 0.931 with the head's second
	// fit for tiny tiles (0.9314; teach_fit.go, Head.read), 0.933 since
	// felt and glare read as backs are left out (0.9336; dropFelt), 0.934
	// since glare read as any tile is (0.9347)
	{dir: "heldout", taught: 0.934, teachRun: true}, // alone: TestHeldOutSynthetic
	// 0.20 (0.208) until the table rule stopped counting weak boxes among
	// the tiles (table.go): two of its green backs on green felt, boxed
	// weakly with no sure back beside them, now count as felt (0.196);
	// 0.230 since a photo read unsurely is read again with the broad
	// detector (secondDetector), which lifted every floor here
	{dir: "egypt", alone: 0.225, taught: 0.77, aloneRun: true},
	// procedurally drawn faces in the one font family training never saw
	// (AR PL UKai); each scene is a drawn style of its own, so teaching from
	// a few of them says nothing: alone only (0.8734; 0.8724 before
	// rowOfBacks)
	{dir: "proc-heldout", alone: 0.87, aloneRun: true},
	// one drawn set (the same style in every scene) in that font: the
	// drawn design a set can be taught from; alone 0.88 (0.8842) with
	// rowOfBacks (0.8776 before)
	// taught 0.923 (0.9231) since dropFelt (0.9217 before)
	{dir: "proc-set", alone: 0.88, taught: 0.923, aloneRun: true, teachRun: true},
	// one physical set of a tile art (synth.py --one-style): one body and
	// back colour, one tint, one drawing of each rare code, as a player's
	// own tiles; the designs above change those from scene to scene
	{dir: "fluffy-set", taught: 0.96, teachRun: true},
	// 0.913 until a template from a small tile stopped overturning a
	// reading of its own suit (decide): it told 6s from 8p by colour here
	// while misreading 8f as 5f and 3m as 2m in the other designs; 0.921
	// since the part reader weighs kings and queens (parts.go), 0.926 with
	// the second reader (alone 0.857 -> 0.865), 0.930 with the index
	// reader (index.go; alone 0.866), 0.937 with its second drawing and
	// indexLift (0.9380; alone 0.868), 0.94 with the head's second fit
	// for tiny tiles (0.9401); alone 0.87 (0.8708) since felt read as a
	// back is left out (dropFelt; 0.8679 before); 0.941 (0.9417) since
	// glare read as any tile is
	{dir: "traditional-set", alone: 0.87, taught: 0.941, aloneRun: true, teachRun: true},
	// egypt taught: TestTeachFromLabelledPhotos
}

func TestHeldOutDesigns(t *testing.T) {
	rec := recognizer(t)
	for _, d := range designs {
		dir := filepath.Join("../testdata/synth", d.dir)
		if d.aloneRun {
			s, err := EvaluateDir(rec, dir)
			if err != nil {
				t.Fatal(err)
			}
			checkHeldOut(t, heldOut{d.dir + " alone: tile F1", 0.90, d.alone}, s.F1())
		}
		if !d.teachRun {
			continue
		}
		photos, err := ReadLabelledDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var picked []LabelledPhoto
		for _, i := range FewestCovering(photos) {
			picked = append(picked, photos[i])
		}
		bank, err := Teach(rec, nil, picked)
		if err != nil {
			t.Fatal(err)
		}
		s, err := EvaluateDir(rec.WithBank(bank), dir)
		if err != nil {
			t.Fatal(err)
		}
		if bank.Inverted != d.inverted {
			t.Errorf("%s: taught to be read with its lightness inverted %v, want %v", d.dir, bank.Inverted, d.inverted)
		}
		if s.Taught != len(picked) {
			t.Errorf("%s: %d photos left out, taught from %d", d.dir, s.Taught, len(picked))
		}
		checkHeldOut(t, heldOut{d.dir + " taught from " + strconv.Itoa(len(picked)) + " photos: tile F1", 0.99, d.taught}, s.F1())
	}
}
