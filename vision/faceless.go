package vision

import (
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// A box with no tile face: an empty slot of a dark rack beside a row, or
// felt, boxed weakly by the detector and read surely as the 1 or 9 of
// bamboo (dev: five photos with the S11 classifier, shipped since; one,
// IMG_20231224_160555 at 0.62, with the stage-9 classifier before it). The table rule (table.go) keeps them, as
// the rack's dark grey is also the ink of the other tiles' middles. What
// tells them is the face: a tile's brightest pixels are its face between
// the strokes, the colour of the photo's other faces, and a slot's are
// not. Measured on dev's weak boxes (centre score under 0.4; the colour
// of tileColour against the median of the sure tiles'): the 63 that are
// tiles lie from 21.7 darker to 16.4 lighter than the faces and at most
// 7.0 from their chroma; the rack slots and felt read as tiles lie 30 to
// 73 darker, or 28 to 51 from the faces' chroma.
const (
	// facelessDark: a weak box whose face is this much darker (L*) than
	// the photo's faces has none.
	facelessDark = 28.0
	// facelessChroma: nor has one this far from the faces' chroma (the
	// distance at which blanks takes a blank face for a back).
	facelessChroma = backChroma
)

// dropFaceless leaves out the weak boxes, but those read as backs (a
// set's backs are any colour), whose face is not the colour of the
// photo's sure tiles' faces (see above). A photo with fewer than minFaces
// sure tiles read as neither a back nor a blank dragon says nothing of
// its faces, and its boxes are kept.
func dropFaceless(img gocv.Mat, boxes []box, reads []reading) ([]box, []reading) {
	if img.Type() != gocv.MatTypeCV8UC3 || len(boxes) != len(reads) {
		return boxes, reads
	}
	if !slices.ContainsFunc(boxes, func(b box) bool { return b.score < tableWeak }) {
		return boxes, reads
	}
	var faces [][2]float64
	var lights []float64
	for i, rd := range reads {
		if boxes[i].score < tableSure || len(rd.labels) == 0 || blankFace(rd.labels[0]) {
			continue
		}
		if c, ok := tileColour(img, boxes[i]); ok {
			faces = append(faces, c.ab)
			lights = append(lights, c.l)
		}
	}
	if len(faces) < minFaces {
		return boxes, reads
	}
	face := medianChroma(faces)
	slices.Sort(lights)
	light := (lights[(len(lights)-1)/2] + lights[len(lights)/2]) / 2
	return keep(boxes, reads, func(b box, rd reading) bool {
		if b.score >= tableWeak || len(rd.labels) == 0 || rd.labels[0] == "0z" {
			return true
		}
		c, ok := tileColour(img, b)
		if !ok || math.IsNaN(c.l) {
			return true
		}
		return light-c.l < facelessDark && chromaDistance(c.ab, face) < facelessChroma
	})
}
