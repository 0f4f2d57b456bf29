package vision

import (
	"image"
	"image/color"
	"testing"

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
