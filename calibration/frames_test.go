package calibration

import (
	"flag"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"mjscan/vision"
)

var update = flag.Bool("update", false, "regenerate the committed table frames in testdata/")

// The committed frames are made from the two committed photos (see
// testdata/ATTRIBUTION.md): a camera 1280×960 looks at a green
// table from behind East; South's hand (the row of hand-017.jpg:
// 234678s 777z 222z 44z) lies at the right edge, a block of other tiles
// (dev-sample.jpg) in East's place and one in the middle as discards.
const (
	frameW, frameH = 1280, 960
	emptyFrame     = "testdata/table-empty.jpg"
	handFrame      = "testdata/table-hand-south.jpg"
)

// tableQuad is where the felt lies in the frame: far left, far right,
// near right, near left.
var tableQuad = [4]Point{{330, 170}, {950, 170}, {1200, 900}, {80, 900}}

// handRow is the row of tiles in hand-017.jpg.
var handRow = image.Rect(0, 300, 640, 470)

func readPhoto(t *testing.T, name string) gocv.Mat {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := vision.DecodePhoto(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// handImage is South's hand as it should come out of SeatHand: the row
// of hand-017.jpg stretched to the hand band.
func handImage(t *testing.T) gocv.Mat {
	t.Helper()
	src := readPhoto(t, "hand-017.jpg")
	defer src.Close()
	row := src.Region(handRow)
	defer row.Close()
	out := gocv.NewMat()
	gocv.Resize(row, &out, image.Pt(HandBand.Dx(), HandBand.Dy()), 0, 0, gocv.InterpolationArea)
	return out
}

func paste(dst gocv.Mat, src gocv.Mat, at image.Rectangle) {
	r := dst.Region(at)
	defer r.Close()
	sized := gocv.NewMat()
	defer sized.Close()
	gocv.Resize(src, &sized, image.Pt(at.Dx(), at.Dy()), 0, 0, gocv.InterpolationArea)
	sized.CopyTo(&r)
}

var felt = color.RGBA{R: 45, G: 130, B: 50, A: 255}

// drawFrame renders a table (with or without tiles) as the camera sees it.
func drawFrame(t *testing.T, withTiles bool) []byte {
	square := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(felt.B), float64(felt.G), float64(felt.R), 0), Side, Side, gocv.MatTypeCV8UC3)
	defer square.Close()
	if withTiles {
		// South's hand, drawn as South sees it (at the bottom), then the
		// square turned a quarter counter-clockwise to put South on the
		// right.
		hand := handImage(t)
		defer hand.Close()
		paste(square, hand, HandBand)
		turned := gocv.NewMat()
		defer turned.Close()
		gocv.Rotate(square, &turned, gocv.Rotate90CounterClockwise)
		turned.CopyTo(&square)
		block := readPhoto(t, "dev-sample.jpg")
		defer block.Close()
		// East's place, short of the corner where South's row ends.
		east := HandBand
		east.Max.X -= HandBand.Dy()
		paste(square, block, east)
		paste(square, block, image.Rect(Side*38/100, Side*38/100, Side*62/100, Side*62/100)) // the discards
	}
	toFrame := perspective(squareCorners(), tableQuad)
	defer toFrame.Close()
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 62, 72, 0), frameH, frameW, gocv.MatTypeCV8UC3)
	defer frame.Close()
	warped := gocv.NewMat()
	defer warped.Close()
	gocv.WarpPerspective(square, &warped, toFrame, image.Pt(frameW, frameH))
	white := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), Side, Side, gocv.MatTypeCV8UC1)
	defer white.Close()
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.WarpPerspective(white, &mask, toFrame, image.Pt(frameW, frameH))
	warped.CopyToWithMask(&frame, mask)
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, frame, []int{gocv.IMWriteJpegQuality, 92})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...)
}

// frame reads a committed frame, regenerating it first with -update.
func frame(t *testing.T, name string) []byte {
	t.Helper()
	if *update {
		if err := os.WriteFile(name, drawFrame(t, name == handFrame), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (go test ./calibration -update makes the frames)", err)
	}
	return data
}
