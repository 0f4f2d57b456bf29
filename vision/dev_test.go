package vision

import (
	"os"
	"testing"
)

// TestDevPhotos runs the shipped models on the labelled dev photos
// (testdata/photos/dev, copied from shared/data/photos/dev: real photos of
// tile sets in the training photos' scenes) and holds the targets: tile F1 ≥ 0.97 and at least 70% of
// photos read exactly right.
func TestDevPhotos(t *testing.T) {
	dir := "../testdata/photos/dev"
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the dev photos are missing (%v): restore testdata/photos/dev from the repository", err)
	}
	s, err := EvaluateDir(recognizer(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	if f := s.F1(); f < 0.97 {
		t.Errorf("dev tile F1 %.4f, want ≥ 0.97", f)
	}
	if e := ratio(s.ImageExact, s.Images); e < 0.70 {
		t.Errorf("dev photos exactly right %.2f, want ≥ 0.70", e)
	}
	if t.Failed() {
		t.Log("\n" + s.String())
	}
}
