package vision

import (
	"os"
	"testing"
)

// TestDevPhotos runs the shipped models on the labelled dev photos
// (testdata/photos/dev, copied from shared/data/photos/dev: real photos of
// tile sets in the training photos' scenes) and holds the targets
// (issue 17): tile F1 ≥ 0.985 and at least 80% of photos read exactly
// right. The shipped models read 0.989 and 81 of 100 (S11 classifier) since boxes are grown
// to their neighbours' size and the table's colour and the tiles' faces
// are told (sizes.go, table.go, faceless.go); before them 0.985 and 75.
func TestDevPhotos(t *testing.T) {
	dir := "../testdata/photos/dev"
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the dev photos are missing (%v): restore testdata/photos/dev from the repository", err)
	}
	s, err := EvaluateDir(recognizer(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	if f := s.F1(); f < 0.985 {
		t.Errorf("dev tile F1 %.4f, want ≥ 0.985", f)
	}
	if e := ratio(s.ImageExact, s.Images); e < 0.80 {
		t.Errorf("dev photos exactly right %.2f, want ≥ 0.80", e)
	}
	if t.Failed() {
		t.Log("\n" + s.String())
	}
}
