package vision

import (
	"context"
	"image"
	"image/color"
	"os"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// TestInvertLightness: a dark face comes out light and a light one dark,
// a red stays red, and what is not a BGR image comes back as it was.
func TestInvertLightness(t *testing.T) {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(20, 20, 20, 0), 8, 8, gocv.MatTypeCV8UC3)
	defer img.Close()
	gocv.Rectangle(&img, image.Rect(0, 0, 4, 8), color.RGBA{R: 200, G: 30, B: 30}, -1) // red, left half
	inv := invertLightness(img)
	defer inv.Close()
	if inv.Rows() != 8 || inv.Cols() != 8 || inv.Type() != gocv.MatTypeCV8UC3 {
		t.Fatalf("inverted image %dx%d type %v", inv.Cols(), inv.Rows(), inv.Type())
	}
	if v := inv.GetVecbAt(4, 6); v[0] < 220 || v[1] < 220 || v[2] < 220 {
		t.Errorf("a dark grey came out %v, want near white", v)
	}
	red := inv.GetVecbAt(4, 1)
	if !(red[2] > red[1]+40 && red[2] > red[0]+40) {
		t.Errorf("a red came out %v (BGR), want red still", red)
	}
	if int(red[0])+int(red[1])+int(red[2]) <= 200+30+30 {
		t.Errorf("a dark red came out %v, want lighter", red)
	}
	grey := gocv.NewMatWithSize(4, 4, gocv.MatTypeCV8UC1)
	defer grey.Close()
	same := invertLightness(grey)
	defer same.Close()
	if same.Type() != gocv.MatTypeCV8UC1 || same.Rows() != 4 {
		t.Errorf("a one-channel image came back as %v %dx%d", same.Type(), same.Cols(), same.Rows())
	}
}

// TestDarkFacesReadInverted: a scene of the dark-faced held-out design
// (fluffy-black) reads unsure as photographed, so it is read again with
// its lightness inverted, and that reading finds far more of its labelled
// tiles; the confident sample photo is read once.
func TestDarkFacesReadInverted(t *testing.T) {
	const stem = "../testdata/synth/fluffy-black/synth_4_00053"
	rec := recognizer(t)
	data, labels, img := sceneBytes(t, stem)
	defer img.Close()
	plain, err := rec.readTiles(newSteps(context.Background()), img)
	if err != nil {
		t.Fatal(err)
	}
	if c := meanConfidence(plain); c >= unsureReading {
		t.Fatalf("%s reads with mean confidence %.2f as photographed; the test wants an unsure one", stem, c)
	}
	detects := 0
	ctx := detectorRuns(&detects)
	r, err := rec.RecognizeContext(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	matched := func(tiles []TileSeen) int {
		var s Score
		s.Add(labels, tiles, false)
		return s.Matched
	}
	t.Logf("%s: %d of %d labelled tiles read right as photographed, %d as recognised (%d detector runs)", stem, matched(plain), len(labels), matched(r.Tiles), detects)
	// Read as photographed and inverted, and, as unsure still of some
	// of its tiles, with the broad detector both ways (secondDetector).
	if detects < 2 || matched(r.Tiles) < matched(plain)+10 {
		t.Errorf("read %d times; %d labelled tiles right, %d as photographed: want it read again and 10 more right", detects, matched(r.Tiles), matched(plain))
	}
	sampleReadOnce(t, rec)
}

// sceneBytes reads a labelled photo (stem.jpg and stem.txt): its bytes,
// its labels, and the image as the recogniser decodes it.
func sceneBytes(t *testing.T, stem string) ([]byte, []Labelled, gocv.Mat) {
	t.Helper()
	data, err := os.ReadFile(stem + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	labels, err := ReadLabels(stem + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := decodeReduced(data, reducedMinSide)
	if err != nil {
		t.Fatal(err)
	}
	return data, labels, img
}

// detectorRuns is a context under which every run of the detector counts
// one in n.
func detectorRuns(n *int) context.Context {
	return WithTrace(context.Background(), func(step string, _ time.Duration) {
		if step == "detect" {
			*n++
		}
	})
}

// sampleReadOnce checks that the sample photo, which the shipped models
// read surely, is read with one run of the detector.
func sampleReadOnce(t *testing.T, rec *Recognizer) {
	t.Helper()
	detects := 0
	if _, err := rec.RecognizeContext(detectorRuns(&detects), samplePhoto(t)); err != nil || detects != 1 {
		t.Errorf("the sample photo: %d detector runs (%v), want 1", detects, err)
	}
}
