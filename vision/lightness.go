package vision

import (
	"gocv.io/x/gocv"
)

// Sets with dark faces (black or deep green tiles with light art) read
// badly: the networks learned tiles with light faces and dark art. Seen
// with its lightness turned over, such a set is a light-faced one with its
// colours kept (a red five stays red), and the networks read it about as
// well as any: the held-out dark-fronted design (fluffy-black) alone, tile
// F1 0.357 as photographed, 0.842 with every photo's lightness inverted
// (localised 0.50 -> 0.84). A taught set whose tiles the network reads
// better that way is read that way (Bank.Inverted, chosen by Teach);
// without a bank, a photo read unsure is read that way too, and the
// surer reading stands (unsureReading, recognizeMat).

// invertLightness gives img (BGR) with its lightness turned over (the Y of
// YCrCb, 255 - Y) and its colour as it was. The caller closes the result;
// an image that is not 8-bit BGR comes back as a plain copy.
func invertLightness(img gocv.Mat) gocv.Mat {
	out := gocv.NewMat()
	if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
		img.CopyTo(&out)
		return out
	}
	ycc := gocv.NewMat()
	defer ycc.Close()
	gocv.CvtColor(img, &ycc, gocv.ColorBGRToYCrCb)
	planes := gocv.Split(ycc)
	defer closeAll(planes)
	gocv.BitwiseNot(planes[0], &planes[0])
	gocv.Merge(planes, &ycc)
	gocv.CvtColor(ycc, &out, gocv.ColorYCrCbToBGR)
	return out
}
