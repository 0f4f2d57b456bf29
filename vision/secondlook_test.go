package vision

import (
	"context"
	"testing"
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

	detects = 0
	if _, err := rec.RecognizeContext(ctx, samplePhoto(t)); err != nil || detects != 1 {
		t.Errorf("the sample photo: %d detector runs (%v), want 1", detects, err)
	}
}
