package vision

import (
	"bytes"
	"image/png"
	"os"
	"testing"
)

func TestOverlayDrawsOnThePhoto(t *testing.T) {
	data, err := os.ReadFile("../testdata/photos/dev-sample.jpg")
	if err != nil {
		t.Fatal(err)
	}
	r := &Recognition{Tiles: []TileSeen{
		{Tile: mustTile("3s"), Box: [4]int{108, 320, 222, 435}, Confidence: 0.9},
		{Tile: mustTile("8f"), Box: [4]int{347, 433, 466, 553}, Confidence: 0.4, Rotated: true},
		{Tile: mustTile("1s"), Box: [4]int{-50, -50, 9000, 9000}, Confidence: 0.9}, // clipped, not a crash
	}}
	out, err := Overlay(data, r)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("overlay is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 640 {
		t.Fatalf("overlay is %v, want the photo's 640x640", b)
	}
	// The box edge of the first tile is drawn green.
	r0, g0, b0, _ := img.At(108, 380).RGBA()
	if g0>>8 < 150 || r0>>8 > 80 || b0>>8 > 80 {
		t.Errorf("pixel on the first box is (%d,%d,%d), want green", r0>>8, g0>>8, b0>>8)
	}
	if _, err := Overlay([]byte("not a photo"), r); err == nil {
		t.Error("an overlay of garbage must fail")
	}
}
