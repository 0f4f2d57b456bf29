package vision

import (
	"context"
	"slices"
	"testing"

	"mjscan/scoring"
)

// TestSecondLookBroadDetector: a scene of a held-out design (fluffy) that
// the shipped detector finds only part of reads unsurely, so it is read
// again with the broad detector (secondDetector), whose surer reading
// stands and finds every tile; a dev photo the shipped models read surely
// is read once, with the shipped detector.
func TestSecondLookBroadDetector(t *testing.T) {
	const stem = "../testdata/synth/fluffy/synth_4_00006"
	rec := recognizer(t)
	data, labels, img := sceneBytes(t, stem)
	defer img.Close()
	shipped, err := rec.readLight(newSteps(context.Background()), img)
	if err != nil {
		t.Fatal(err)
	}
	if c := meanConfidence(shipped); c >= secondDetector {
		t.Fatalf("%s reads with mean confidence %.3f with the shipped detector; the test wants an unsure one", stem, c)
	}
	detects := 0
	ctx := detectorRuns(&detects)
	r, err := rec.RecognizeContext(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	matched := func(tiles []TileSeen) int {
		s := Score{Mode: CodeMode{StrictRedFives: true, CountBacks: true}}
		s.Add(labels, tiles, false)
		return s.Matched
	}
	t.Logf("%s: %d of %d labelled tiles read right with the shipped detector (mean confidence %.3f), %d as recognised (%.3f, %d detector runs)",
		stem, matched(shipped), len(labels), meanConfidence(shipped), matched(r.Tiles), meanConfidence(r.Tiles), detects)
	if detects < 2 || meanConfidence(r.Tiles) <= meanConfidence(shipped) {
		t.Errorf("read %d times at mean confidence %.3f: want a second, surer reading", detects, meanConfidence(r.Tiles))
	}
	if matched(r.Tiles) != len(labels) || matched(shipped) > len(labels)-4 {
		t.Errorf("%d of %d tiles right, %d with the shipped detector: want all, and the shipped detector 4 short", matched(r.Tiles), len(labels), matched(shipped))
	}
	sampleReadOnce(t, rec)
}

// TestWithMissed: of the reading not chosen, only a tile with art on it,
// read surely enough, where the chosen reading has none, is added, in
// reading order.
func TestWithMissed(t *testing.T) {
	seen := func(code string, x0, y0 int, confidence float64) TileSeen {
		tile, err := scoring.ParseTile(code)
		if err != nil {
			t.Fatal(err)
		}
		return TileSeen{Tile: tile, Box: [4]int{x0, y0, x0 + 30, y0 + 40}, Confidence: confidence}
	}
	chosen := []TileSeen{seen("1m", 100, 100, 0.99), seen("2m", 130, 100, 0.95)}
	other := []TileSeen{
		seen("1m", 104, 102, 0.99), // on a chosen tile
		seen("3m", 160, 100, 0.7),  // missed by the chosen reading: added
		seen("0z", 200, 100, 0.99), // a bare face: no art to tell a tile
		seen("5z", 240, 100, 0.99),
		seen("4m", 280, 100, 0.5), // read too unsurely
		seen("9p", 10, 10, 0.9),   // missed, in the row above: added first
	}
	got := withMissed(chosen, other)
	var codes []string
	for _, g := range got {
		codes = append(codes, g.Tile.String())
	}
	if want := []string{"9p", "1m", "2m", "3m"}; !slices.Equal(codes, want) {
		t.Errorf("withMissed gave %v, want %v", codes, want)
	}
	if len(withMissed(chosen, nil)) != 2 {
		t.Errorf("with nothing else read, the chosen reading changed")
	}
}
