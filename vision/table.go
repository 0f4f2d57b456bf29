package vision

import (
	"math"

	"gocv.io/x/gocv"
)

// The table itself: a patch of felt beside a row's last tile, or of a
// textured mat, is sometimes boxed weakly by the detector and read surely
// by the classifier (dev: green felt at the photo's edge read as the 1 of
// bamboo at 0.97-0.99). Such a patch is the colour of the table around
// the tiles, and a tile is the colour of the photo's other tiles. So each
// photo's colours are learned from the photo itself (the table's from the
// pixels outside every box, the tiles' from the middles of the boxes the
// detector is not unsure of), and a weak box whose pixels are nearly all
// far likelier the table's than the tiles' is left out. A set whose faces
// are the table's colour (black tiles on black felt) has those colours
// among its tiles too, so their weak boxes are kept. The weak boxes
// themselves do not count among the tiles: forty of them along the dark
// line at a green felt's edge, read as green backs, made green a tile's
// colour for each other and all stood (a held-out scene of "fluffy",
// taught). The price is a row of weak backs the table's colour with no
// sure back beside it (egypt's green backs, read without a bank: two of
// its 203 tiles); counting the weak boxes that touch a sure one won those
// back and lost more of the taught designs (models/README.md, "Blurred
// examples and rows of felt").
const (
	// tableWeak: only boxes the detector is less sure of than this are
	// judged.
	tableWeak = 0.4
	// tableSure and minSure: a photo with fewer than minSure boxes the
	// detector is this sure of has too few tiles to learn from.
	tableSure = 0.5
	// tableOdds: a pixel is the table's where the table's colour is this
	// many times likelier than the tiles'.
	tableOdds = 4.0
	// tableShare: a box with at least this share of the table's pixels is
	// table.
	tableShare = 0.8
	// tableMargin: the share of a box's size by which it is grown to tell
	// the table (a tile's body and shadow lie just outside its box), and
	// shrunk to take its middle.
	tableMargin = 0.15
	// tableBins: levels of each of blue, green and red.
	tableBins = 8
	// tableSamples bounds the pixels read to learn the colours.
	tableSamples = 50000
	minSure      = 3
)

// dropTable leaves out the weak boxes whose pixels are the table's colour
// (see above).
func dropTable(img gocv.Mat, boxes []box, reads []reading) ([]box, []reading) {
	if img.Type() != gocv.MatTypeCV8UC3 || len(boxes) != len(reads) || !img.IsContinuous() {
		return boxes, reads
	}
	weak := false
	sure := 0
	for _, b := range boxes {
		if b.score < tableWeak {
			weak = true
		}
		if b.score >= tableSure {
			sure++
		}
	}
	if !weak || sure < minSure {
		return boxes, reads
	}
	px, err := img.DataPtrUint8()
	W, H := img.Cols(), img.Rows()
	if err != nil || len(px) < 3*W*H {
		return boxes, reads
	}
	// The photo's pixels, one in step each way: outside every box (grown
	// by tableMargin) they are the table's; in the middle of a box they
	// are that box's.
	step := max(1, int(math.Sqrt(float64(W*H)/tableSamples)))
	bin := func(x, y int) int {
		i := 3 * (y*W + x)
		return (int(px[i])*tableBins/256*tableBins+int(px[i+1])*tableBins/256)*tableBins + int(px[i+2])*tableBins/256
	}
	const k = tableBins * tableBins * tableBins
	var table, tiles [k]float64
	var nTable, nTiles float64
	gw, gh := (W+step-1)/step, (H+step-1)/step
	near := make([]bool, gw*gh)
	in := make([]bool, gw*gh) // in the middle of a box that is not judged
	paint := func(x0, y0, x1, y1 float64, f func(c int)) {
		for gy := max(0, int(math.Ceil(y0/float64(step)))); gy < gh && float64(gy*step) <= y1; gy++ {
			for gx := max(0, int(math.Ceil(x0/float64(step)))); gx < gw && float64(gx*step) <= x1; gx++ {
				f(gy*gw + gx)
			}
		}
	}
	for _, b := range boxes {
		mx, my := tableMargin*b.w(), tableMargin*b.h()
		paint(b.x0-mx, b.y0-my, b.x1+mx, b.y1+my, func(c int) { near[c] = true })
		if b.score >= tableWeak { // the judged boxes are not among the tiles (see above)
			paint(b.x0+mx, b.y0+my, b.x1-mx, b.y1-my, func(c int) { in[c] = true })
		}
	}
	for gy := 0; gy < gh; gy++ {
		for gx := 0; gx < gw; gx++ {
			c, x, y := gy*gw+gx, gx*step, gy*step
			switch {
			case in[c]:
				tiles[bin(x, y)]++
				nTiles++
			case !near[c]:
				table[bin(x, y)]++
				nTable++
			}
		}
	}
	if nTable == 0 || nTiles == 0 {
		return boxes, reads
	}
	// isTable: the box's pixels against the table's colours and those of
	// the photo's tiles.
	isTable := func(b box) bool {
		gx, gy := tableMargin*b.w(), tableMargin*b.h()
		x0, x1 := max(0, int(b.x0+gx)), min(W, int(b.x1-gx))
		y0, y1 := max(0, int(b.y0+gy)), min(H, int(b.y1-gy))
		n, t := 0, 0
		for y := y0; y < y1; y += step {
			for x := x0; x < x1; x += step {
				c := bin(x, y)
				pt := (table[c] + 1) / (nTable + k)
				po := (tiles[c] + 1) / (nTiles + k)
				if pt > tableOdds*po {
					t++
				}
				n++
			}
		}
		return n > 0 && float64(t) >= tableShare*float64(n)
	}
	return keep(boxes, reads, func(b box, _ reading) bool {
		return b.score >= tableWeak || !isTable(b)
	})
}
