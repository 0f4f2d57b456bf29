package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// TestCropFollowsManifest: a tile is cut as the classifier manifest's
// preprocess block says (margin, turn aspect, resize), not by constants of
// vision's own.
func TestCropFollowsManifest(t *testing.T) {
	m, _, err := models.Load("tile_classifier")
	if err != nil {
		t.Fatal(err)
	}
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 200, 200, gocv.MatTypeCV8UC3)
	defer img.Close()
	// A black frame round a 60×50 box: with a margin the cut takes in white.
	gocv.Rectangle(&img, image.Rect(70, 75, 130, 125), color.RGBA{}, -1)
	b := box{x0: 70, y0: 75, x1: 130, y1: 125}
	cut := func(p models.Preprocess) (float64, bool) {
		c := m
		c.Preprocess = p
		out, turned := cropTile(img, b, &c)
		defer out.Close()
		if out.Cols() != m.Input.Width || out.Rows() != m.Input.Height {
			t.Fatalf("crop %dx%d, want the input size %dx%d", out.Cols(), out.Rows(), m.Input.Width, m.Input.Height)
		}
		return out.Mean().Val1, turned
	}
	shipped := m.Preprocess
	// 60/50 = 1.2: above the shipped turn aspect (1.15), so turned upright.
	if _, turned := cut(shipped); !turned {
		t.Errorf("a 60x50 box with turn_aspect %v was not turned", shipped.TurnAspect)
	}
	wide := shipped
	wide.TurnAspect = 1.3
	if _, turned := cut(wide); turned {
		t.Error("a 60x50 box with turn_aspect 1.3 was turned")
	}
	none := shipped
	none.Margin = 0
	black, _ := cut(none)
	grown, _ := cut(shipped)
	if black != 0 || grown <= 0 {
		t.Errorf("mean of the cut: %v with no margin (want 0: the box alone), %v with margin %v (want some white)", black, grown, shipped.Margin)
	}
}

// TestPadColourIsBGR: the detector's letterbox colour is given blue, green,
// red, as OpenCV keeps pixels.
func TestPadColourIsBGR(t *testing.T) {
	if got := padColour(models.Preprocess{Pad: []float64{1, 2, 3}}); got != (color.RGBA{R: 3, G: 2, B: 1}) {
		t.Errorf("pad [1 2 3] gave %+v, want blue 1, green 2, red 3", got)
	}
	m, _, err := models.Load("tile_detector")
	if err != nil {
		t.Fatal(err)
	}
	if got := padColour(m.Preprocess); got != (color.RGBA{114, 114, 114, 0}) {
		t.Errorf("the shipped detector pads with %+v, want the grey (114) it was trained with", got)
	}
	if interpolation(m.Preprocess) != gocv.InterpolationArea {
		t.Errorf("the shipped detector resizes with %v, want INTER_AREA", interpolation(m.Preprocess))
	}
}
