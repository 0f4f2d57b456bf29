package vision

import (
	"fmt"
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// Overlay draws each recognised tile's box and code on the photo and
// returns it as PNG: green for confident reads, orange under 0.6, "*" after
// the code of a tile lying sideways. Boxes outside the photo are clipped.
func Overlay(photo []byte, r *Recognition) ([]byte, error) {
	img, err := DecodePhoto(photo)
	defer img.Close()
	if err != nil {
		return nil, err
	}
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	thick := max(1, img.Cols()/400)
	scale := max(0.4, float64(max(img.Cols(), img.Rows()))/1200)
	green := color.RGBA{0, 200, 0, 0} // gocv colours are BGR
	orange := color.RGBA{0, 140, 255, 0}
	for _, t := range r.Tiles {
		box := image.Rect(t.Box[0], t.Box[1], t.Box[2], t.Box[3]).Intersect(bounds)
		if box.Empty() {
			continue
		}
		c := green
		if t.Confidence < 0.6 {
			c = orange
		}
		gocv.Rectangle(&img, box, c, thick)
		label := t.Tile.String()
		if t.Rotated {
			label += "*"
		}
		gocv.PutText(&img, label, image.Pt(box.Min.X, max(10, box.Min.Y-3)), gocv.FontHersheySimplex, scale, c, thick)
	}
	buf, err := gocv.IMEncode(gocv.PNGFileExt, img)
	if err != nil {
		return nil, fmt.Errorf("overlay: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}
