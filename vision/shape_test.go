package vision

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

// shapePhoto encodes a plain w×h image (a felt colour with one light
// stripe) as PNG or JPEG: every decoder path sees real pixel data.
func shapePhoto(t testing.TB, w, h int, asPNG bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{30, 110, 60, 255}
			if (x+y)%97 < 9 {
				c = color.RGBA{230, 230, 220, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	var err error
	if asPNG {
		err = png.Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// photoShapes are the sides that once aborted the process (a reduced
// decode whose short side rounds to 0: 2000×1, 1×2000, 3×4000, 1×49000)
// and their neighbours: thin, tiny, long and ordinary.
var photoShapes = [][2]int{
	{2000, 1}, {1, 2000}, {3, 4000}, {4000, 3}, {1, 49000}, {49000, 1},
	{1, 1}, {2, 2}, {7, 7}, {15, 15}, {16, 16}, {16, 320}, {320, 16},
	{3999, 7}, {8000, 16}, {16, 8000}, {2000, 2}, {2001, 3}, {4001, 5},
	{50000, 20}, {20, 50000}, {640, 480}, {2000, 1500},
}

// TestPhotoShapesNeverAbort: a photo of any shape is read or refused with
// ErrNotAPhoto; none reaches OpenCV with a size it aborts on.
func TestPhotoShapesNeverAbort(t *testing.T) {
	rec, err := New(Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	for _, s := range photoShapes {
		for _, asPNG := range []bool{true, false} {
			w, h := s[0], s[1]
			if !asPNG && (w > 65535 || h > 65535) {
				continue
			}
			name := fmt.Sprintf("%dx%d-png=%v", w, h, asPNG)
			data := shapePhoto(t, w, h, asPNG)
			m, err := DecodePhoto(data)
			m.Close()
			checkShapeErr(t, name+" decode", w, h, err)
			r := rec.Recognize("shape", data)
			if r.Error != nil {
				if thin(w, h) && r.OK {
					t.Errorf("%s: recognised a photo too thin to hold a tile", name)
				}
			} else if thin(w, h) {
				t.Errorf("%s: a photo too thin to hold a tile was read", name)
			}
			_, err = Calibrate(rec, data)
			if err != nil && !errors.Is(err, ErrNotAPhoto) && !errors.Is(err, ErrBadGrid) && !errors.Is(err, ErrTooLarge) {
				t.Errorf("%s calibrate: undocumented error %v", name, err)
			}
		}
	}
}

func thin(w, h int) bool {
	return min(w, h) < MinPhotoSide || max(w, h) > MaxAspect*min(w, h)
}

func checkShapeErr(t *testing.T, name string, w, h int, err error) {
	t.Helper()
	switch {
	case thin(w, h) && !errors.Is(err, ErrNotAPhoto):
		t.Errorf("%s: error %v, want ErrNotAPhoto for a photo too thin to hold a tile", name, err)
	case !thin(w, h) && err != nil:
		t.Errorf("%s: %v", name, err)
	}
}

// FuzzPhotoShape: any width and height, PNG or JPEG, from decode to
// recognition to calibration, is read or refused, never a crash.
func FuzzPhotoShape(f *testing.F) {
	for _, s := range photoShapes {
		if s[0]*s[1] <= 4_000_000 {
			f.Add(uint16(s[0]), uint16(s[1]), true)
		}
	}
	rec, err := New(Config{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(rec.Close)
	f.Fuzz(func(t *testing.T, w, h uint16, asPNG bool) {
		W, H := int(w)%50000+1, int(h)%50000+1
		if W*H > 4_000_000 { // keep each case quick; the header check refuses larger ones alike
			return
		}
		data := shapePhoto(t, W, H, asPNG)
		m, err := DecodePhoto(data)
		m.Close()
		checkShapeErr(t, fmt.Sprintf("%dx%d", W, H), W, H, err)
		rec.Recognize("f", data)
		if _, err := Calibrate(rec, data); err != nil && !errors.Is(err, ErrNotAPhoto) && !errors.Is(err, ErrBadGrid) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%dx%d calibrate: undocumented error %v", W, H, err)
		}
	})
}
