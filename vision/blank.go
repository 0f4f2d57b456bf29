package vision

import (
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// Blank faces: a face-down tile (0z) and the blank white dragon of a
// Japanese-style set (5z) both show a bare face, and the network's
// features, learned to read art in any colour, barely tell them apart.
// What does is what every such set is made for: a blank dragon is the
// colour of the other tiles' faces, and a back is not. Measured on the
// labelled folders (the colour of the middle of each tile, a* and b* of
// CIELAB, from its brightest pixels, against the median of the photo's
// other tiles): blank dragons lie 0.9–2.2 from the faces at the median and
// none further than 14 (the photos' own set, dev, included); backs lie
// 23–52 at the median, and 77–100% of them further than 14 (the rest
// have white or black bodies, which colour cannot tell from a face, or
// are in greyscale photos).
const (
	// backChroma: a tile read as a blank dragon whose colour lies this far
	// from the photo's faces is a back.
	backChroma = 14.0
	// faceChroma: a tile read as a back whose colour lies this near the
	// photo's faces, in a photo with backs of another colour, is a blank
	// dragon.
	faceChroma = 5.0
	// faceLightness: nor lies further than this from the faces' L* (a
	// black or white back has the chroma of a face, not its lightness).
	faceLightness = 15.0
	// sureBack: a back read at least this surely tells the colour of the
	// photo's backs.
	sureBack = 0.9
	// blankInset: the share of each side of a tile's box left out of its
	// colour (its edges and body).
	blankInset = 0.2
	// brightShare: a tile's colour is the mean of its brightest pixels, the
	// face between the art's strokes.
	brightShare = 0.3
	// colourSamples bounds the pixels read of one tile.
	colourSamples = 4096
	// minFaces: the photo's face colour needs this many tiles read as
	// something other than a blank face.
	minFaces = 3
	// greyTolerance: a photo (or a cut of one) whose channels nowhere
	// differ by more than this has no colour (a greyscale photo).
	greyTolerance = 6
)

// blankFace says whether a code is one of the two bare faces: a back or
// the blank white dragon.
func blankFace(code string) bool { return code == "0z" || code == "5z" }

// blanks reads again the tiles read as a back or a blank dragon by their
// colour against the photo's faces (see above): one read as a blank
// dragon but far from the faces' colour is a back; one read as a back
// but of the faces' colour, in a photo whose other backs are not, is a
// blank dragon (a photo's backs are all of one colour: a set's body).
func blanks(img gocv.Mat, boxes []box, reads []reading) []reading {
	if img.Type() != gocv.MatTypeCV8UC3 || len(boxes) != len(reads) {
		return reads
	}
	if !slices.ContainsFunc(reads, func(rd reading) bool {
		return len(rd.labels) > 0 && blankFace(rd.labels[0])
	}) {
		return reads // no blank face to read again
	}
	var faces [][2]float64
	var lights []float64
	colour := make([]*faceColour, len(reads)) // of the tiles read as blank faces
	for i, rd := range reads {
		if len(rd.labels) == 0 {
			continue
		}
		c, ok := tileColour(img, boxes[i])
		if !ok {
			continue
		}
		if blankFace(rd.labels[0]) {
			colour[i] = &c
		} else {
			faces = append(faces, c.ab)
			lights = append(lights, c.l)
		}
	}
	if len(faces) < minFaces {
		return reads
	}
	face := medianChroma(faces)
	slices.Sort(lights)
	light := lights[len(lights)/2]
	isFace := func(c faceColour) bool {
		return chromaDistance(c.ab, face) < faceChroma && math.Abs(c.l-light) < faceLightness
	}
	colouredBacks := false
	for i, c := range colour {
		if c != nil && reads[i].labels[0] == "0z" && reads[i].probs[0] >= sureBack && chromaDistance(c.ab, face) > backChroma {
			colouredBacks = true
		}
	}
	for i, c := range colour {
		if c == nil {
			continue
		}
		switch rd := reads[i]; {
		case rd.labels[0] == "5z" && chromaDistance(c.ab, face) > backChroma:
			reads[i].labels = putFirst(rd.labels, "0z")
		case rd.labels[0] == "0z" && colouredBacks && isFace(*c):
			reads[i].labels = putFirst(rd.labels, "5z")
		}
	}
	return reads
}

// putFirst gives labels with code first and the others after it in their
// order, as many as there were; the confidences stay where they are.
func putFirst(labels []string, code string) []string {
	out := []string{code}
	for _, l := range labels {
		if l != code && len(out) < len(labels) {
			out = append(out, l)
		}
	}
	return out
}

// faceColour is a tile's colour: a* and b* of CIELAB, and L*.
type faceColour struct {
	ab [2]float64
	l  float64
}

// tileColour is the colour of the middle of a tile's box: the mean of its
// brightest pixels. False when the box leaves too little of the photo or
// the cut has no colour.
func tileColour(img gocv.Mat, bx box) (faceColour, bool) {
	if img.Type() != gocv.MatTypeCV8UC3 {
		return faceColour{}, false
	}
	w, h := bx.w(), bx.h()
	r := image.Rect(int(bx.x0+blankInset*w), int(bx.y0+blankInset*h), int(bx.x1-blankInset*w), int(bx.y1-blankInset*h))
	r = r.Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if r.Dx() < 2 || r.Dy() < 2 {
		return faceColour{}, false
	}
	region := img.Region(r)
	cut := region.Clone()
	region.Close()
	defer cut.Close()
	px, err := cut.DataPtrUint8()
	if err != nil || len(px) < 3 {
		return faceColour{}, false
	}
	step := max(1, len(px)/3/colourSamples)
	// The brightest brightShare of the pixels: a histogram of their
	// luma finds where that share starts.
	var hist [256]int
	colour, n := false, 0
	for i := 0; i+2 < len(px); i += 3 * step {
		b, g, r := int(px[i]), int(px[i+1]), int(px[i+2])
		if max(b, g, r)-min(b, g, r) > greyTolerance {
			colour = true
		}
		hist[(29*b+150*g+77*r)>>8]++
		n++
	}
	if !colour {
		return faceColour{}, false
	}
	bar, above := 255, 0
	for ; bar > 0 && float64(above+hist[bar]) <= brightShare*float64(n); bar-- {
		above += hist[bar]
	}
	var sb, sg, sr float64
	n = 0
	for i := 0; i+2 < len(px); i += 3 * step {
		b, g, r := int(px[i]), int(px[i+1]), int(px[i+2])
		if (29*b+150*g+77*r)>>8 >= bar {
			sb, sg, sr = sb+float64(b), sg+float64(g), sr+float64(r)
			n++
		}
	}
	mb, mg, mr := sb/float64(n), sg/float64(n), sr/float64(n)
	l, ab := cielab(mb, mg, mr)
	return faceColour{ab: ab, l: l}, true
}

// medianChroma is the median of each of a* and b*.
func medianChroma(cs [][2]float64) [2]float64 {
	var m [2]float64
	v := make([]float64, len(cs))
	for k := range 2 {
		for i, c := range cs {
			v[i] = c[k]
		}
		slices.Sort(v)
		m[k] = (v[(len(v)-1)/2] + v[len(v)/2]) / 2
	}
	return m
}

// cielab is the L* and the a*, b* of CIELAB (D65) of one sRGB colour
// given as blue, green, red from 0 to 255.
func cielab(blue, green, red float64) (float64, [2]float64) {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	r, g, b := lin(red), lin(green), lin(blue)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return 116*f(y) - 16, [2]float64{500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

func chromaDistance(a, b [2]float64) float64 {
	return math.Hypot(a[0]-b[0], a[1]-b[1])
}
