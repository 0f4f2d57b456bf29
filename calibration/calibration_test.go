package calibration

import (
	"errors"
	"image"
	"image/color"
	"math"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"mjscan/vision"
)

func TestCalibrate(t *testing.T) {
	c, err := Calibrate(frame(t, emptyFrame), GreenFelt, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range c.Corners {
		if math.Hypot(p.X-tableQuad[i].X, p.Y-tableQuad[i].Y) > 8 {
			t.Errorf("corner %d at %v, the felt's is at %v", i, p, tableQuad[i])
		}
	}
	if c.Width != frameW || c.Height != frameH || c.Near != "E" {
		t.Errorf("calibration %+v", c)
	}
	// Tiles on the table do not move the corners.
	d, err := Calibrate(frame(t, handFrame), GreenFelt, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Corners {
		if math.Hypot(c.Corners[i].X-d.Corners[i].X, c.Corners[i].Y-d.Corners[i].Y) > 8 {
			t.Errorf("corner %d: %v empty, %v with tiles", i, c.Corners[i], d.Corners[i])
		}
	}
}

func TestCalibrateRefusesNoTable(t *testing.T) {
	blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 62, 72, 0), 480, 640, gocv.MatTypeCV8UC3)
	defer blank.Close()
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, blank)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	if _, err := Calibrate(buf.GetBytes(), GreenFelt, ""); !errors.Is(err, ErrNoTable) {
		t.Fatalf("a frame without a table: %v", err)
	}
	if _, err := Calibrate([]byte("not a jpeg"), GreenFelt, ""); !errors.Is(err, vision.ErrNotAPhoto) {
		t.Fatalf("garbage: %v", err)
	}
	if _, err := Calibrate(frame(t, emptyFrame), GreenFelt, "X"); err == nil {
		t.Fatal("near seat X accepted")
	}
}

// difference is the mean absolute difference of two JPEGs' pixels after
// sizing b like a (0 identical, 255 opposite).
func difference(t *testing.T, a []byte, b gocv.Mat) float64 {
	t.Helper()
	am, err := vision.DecodePhoto(a)
	if err != nil {
		t.Fatal(err)
	}
	defer am.Close()
	bm := gocv.NewMat()
	defer bm.Close()
	gocv.Resize(b, &bm, image.Pt(am.Cols(), am.Rows()), 0, 0, gocv.InterpolationArea)
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(am, bm, &diff)
	m := diff.Mean()
	return (m.Val1 + m.Val2 + m.Val3) / 3
}

// TestSeatHandAttribution: South's crop is South's hand; East's place and
// the discards in the middle are not.
func TestSeatHandAttribution(t *testing.T) {
	c, err := Calibrate(frame(t, emptyFrame), GreenFelt, "")
	if err != nil {
		t.Fatal(err)
	}
	hand := handImage(t)
	defer hand.Close()
	shot := frame(t, handFrame)
	diffs := map[string]float64{}
	for _, seat := range []string{"E", "S", "W", "N"} {
		crop, err := c.SeatHand(shot, seat)
		if err != nil {
			t.Fatal(err)
		}
		diffs[seat] = difference(t, crop, hand)
	}
	t.Logf("difference from South's hand, by seat: %v", diffs)
	if diffs["S"] > 25 {
		t.Errorf("South's crop differs from South's hand by %.1f", diffs["S"])
	}
	for _, other := range []string{"E", "W", "N"} {
		if diffs[other] < 2*diffs["S"] {
			t.Errorf("%s's crop (%.1f) looks as much like South's hand as South's (%.1f)", other, diffs[other], diffs["S"])
		}
	}
	small := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 480, 640, gocv.MatTypeCV8UC3)
	defer small.Close()
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, small)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	if _, err := c.SeatHand(buf.GetBytes(), "S"); err == nil {
		t.Error("a frame of another size was cut with this calibration")
	}
	if _, err := c.SeatHand(shot, "X"); err == nil {
		t.Error("seat X was cut")
	}
}

// FuzzCalibrate: any bytes from a camera are calibrated or refused with an
// error; OpenCV never sees what the header check did not pass.
func FuzzCalibrate(f *testing.F) {
	data, err := os.ReadFile(emptyFrame)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:2000])
	f.Add([]byte("\xff\xd8\xff\xe0\x00\x10JFIF"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := Calibrate(b, GreenFelt, ""); err == nil {
			if _, err := c.SeatHand(b, "S"); err != nil {
				t.Fatalf("calibrated on a frame it then cannot cut: %v", err)
			}
		}
	})
}

// TestCalibrateWithArmOverEdge: a player's arm across the near edge cuts a
// notch into the felt; the corners stay where they are.
func TestCalibrateWithArmOverEdge(t *testing.T) {
	img, err := vision.DecodePhoto(frame(t, emptyFrame))
	defer img.Close()
	if err != nil {
		t.Fatal(err)
	}
	gocv.Rectangle(&img, image.Rect(560, 780, 700, 960), color.RGBA{R: 200, G: 160, B: 140, A: 255}, -1)
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, img)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	c, err := Calibrate(buf.GetBytes(), GreenFelt, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range c.Corners {
		if math.Hypot(p.X-tableQuad[i].X, p.Y-tableQuad[i].Y) > 8 {
			t.Errorf("corner %d at %v, the felt's is at %v", i, p, tableQuad[i])
		}
	}
}

// TestFrameShapesNeverAbort: camera frames of any shape (the sides that
// once aborted the process among them) are calibrated or refused with
// ErrNotAPhoto or ErrNoTable, and cutting a seat never aborts either.
func TestFrameShapesNeverAbort(t *testing.T) {
	c, err := Calibrate(frame(t, emptyFrame), GreenFelt, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range [][2]int{{2000, 1}, {1, 2000}, {3, 4000}, {1, 49000}, {16, 16}, {16, 320}, {8000, 16}, {frameW, frameH}} {
		img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 120, 40, 0), s[1], s[0], gocv.MatTypeCV8UC3)
		for _, ext := range []gocv.FileExt{gocv.PNGFileExt, gocv.JPEGFileExt} {
			buf, err := gocv.IMEncode(ext, img)
			if err != nil {
				t.Fatal(err)
			}
			data := buf.GetBytes()
			if _, err := Calibrate(data, GreenFelt, ""); err != nil && !errors.Is(err, vision.ErrNotAPhoto) && !errors.Is(err, ErrNoTable) {
				t.Errorf("%v %s: calibrate: %v", s, ext, err)
			}
			if _, err := c.SeatHand(data, "S"); err == nil && (s[0] != frameW || s[1] != frameH) {
				t.Errorf("%v %s: cut a seat from a frame of another size", s, ext)
			}
			buf.Close()
		}
		img.Close()
	}
}
