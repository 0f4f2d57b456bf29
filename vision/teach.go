package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gocv.io/x/gocv"

	"mjscan/models"
)

// A taught tile set: the tiles of a player's own set, cut from photos whose
// tiles are known (labelled photos, a confirmed hand, or a calibration
// grid), and a small classifier of the set's own (a Head) fitted on the
// network's features of those tiles. The network learned what tiles of
// other sets look like; its features still tell this set's 2 of circles
// from its 4 even when its own reading of them is wrong, and the head
// learns which is which from the player's tiles. With a head, a reading
// comes from the head, and the network's only where the set was not
// taught the tile.

// Examples are kept as cut with exampleMargin of the box on every side
// (room for the shifts and scalings the head learns from) at
// exampleWidth×exampleHeight, upright.
const (
	exampleWidth  = 60
	exampleHeight = 80
	exampleMargin = 0.25
	// maxPerCode and maxExamples bound what a bank keeps (a bank stays a
	// few MB): once a code holds maxPerCode examples, new ones replace the
	// oldest but the first.
	maxPerCode  = 12
	maxExamples = 1200
	// noTile is the head's own class for a patch where no tile is (felt,
	// wood, the gap between tiles), learned from the photos it was taught
	// from.
	noTile = "-"
)

// Example is one tile of the set as a photo showed it.
type Example struct {
	Code string `json:"code"`
	// BGR holds exampleWidth×exampleHeight×3 bytes, row by row.
	BGR []byte `json:"bgr"`
	// Photo names the photo it was cut from (a file name or a record id).
	Photo string `json:"photo,omitempty"`
	// Detected says it was cut from the detector's box of a labelled tile:
	// a second view of a tile the bank keeps already, not another tile.
	Detected bool `json:"detected,omitempty"`
}

// Tiles counts the taught tiles a bank keeps (its examples less the
// patches where no tile is and the second views of a tile).
func (b *Bank) Tiles() int {
	n := 0
	for _, e := range b.Examples {
		if e.Code != noTile && !e.Detected {
			n++
		}
	}
	return n
}

// Head is a per-set softmax classifier over the network's features.
type Head struct {
	Codes []string  `json:"codes"` // the classes, noTile among them
	Dim   int       `json:"dim"`   // feature size
	W     []float32 `json:"w"`     // len(Codes)×Dim, row by row
	B     []float32 `json:"b"`     // len(Codes)
	// Scale multiplies the unit-length features before W.
	Scale float32 `json:"scale"`
	// Prior is the power of the network's probability in a reading (the
	// share of the taught tiles the network reads right by itself).
	Prior float32 `json:"prior"`
	// Tiles is how many taught tiles Prior was measured on (Bank.Tiles:
	// each tile once, though Prior reads its second view too; 0 in banks
	// taught before it was kept).
	Tiles int `json:"tiles,omitempty"`
	// Features names the classifier whose features the head was fitted
	// on (Recognizer.features; empty before bank version 4).
	Features string `json:"features,omitempty"`
	// Trust is, code by code, how far the head's reading of that code is
	// believed (0 to 1, see exampleTrust); empty where every code is
	// trusted. A bank saved before it was kept is given it when loaded.
	Trust []float32 `json:"trust,omitempty"`
	// SmallW and SmallB are a second fit of W and B on the examples seen
	// as tiles under tinyTile px are (smallCut), which reads those tiles
	// beside the first (Head.read); empty in banks taught before it was
	// kept.
	SmallW []float32 `json:"small_w,omitempty"`
	SmallB []float32 `json:"small_b,omitempty"`
}

// LabelledPhoto is a photo whose tiles are known: what a player confirmed,
// or a label file of the shared/data/photos format.
type LabelledPhoto struct {
	Name   string
	Data   []byte
	Labels []Labelled
}

// ErrNothingToTeach says the photos given to Teach hold no tile it could cut.
var ErrNothingToTeach = errors.New("no tile to learn from")

// Teach learns a tile set from labelled photos: every labelled tile is cut
// out and kept, patches where no tile is are kept as the head's not-a-tile
// class, and the head is fitted. To grow a set, pass its bank as base
// (nil starts a new one).
func Teach(rec *Recognizer, base *Bank, photos []LabelledPhoto) (*Bank, error) {
	b := &Bank{Format: BankFormat, Version: BankVersion, Width: bankWidth, Height: bankHeight}
	if base != nil {
		c := *base
		c.Examples = append([]Example(nil), base.Examples...)
		c.Templates = append([]Template(nil), base.Templates...)
		c.Taught = append([]string(nil), base.Taught...)
		if base.Outline != nil {
			o := Outline{Upright: slices.Clone(base.Outline.Upright), Lying: slices.Clone(base.Outline.Lying)}
			c.Outline = &o
		}
		c.Version = BankVersion
		c.prep = nil // its templates will change
		b = &c
	} else {
		inv, err := readsInverted(rec, photos)
		if err != nil {
			return nil, err
		}
		b.Inverted = inv
	}
	added := 0
	for _, p := range photos {
		n, err := b.addPhoto(rec, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		added += n
	}
	if added == 0 {
		return nil, fmt.Errorf("%w: the photos' labels name no tile that could be cut out", ErrNothingToTeach)
	}
	if err := b.Fit(rec); err != nil {
		return nil, err
	}
	return b, b.validate()
}

// readsInverted says whether the network reads more of the photos'
// labelled tiles right with the photos' lightness inverted than as they
// are, by more than a tenth of them: a set with dark faces (see
// invertLightness). The teaching photos of fluffy-black: 35 of 83 right
// as they are, 65 inverted; of the light designs, inverted always reads
// fewer. (Photos of several sets at once, such as proc-heldout's, each
// scene drawn in a style of its own, can come out close: 54 and 57 of
// 104; they stay as they are.)
func readsInverted(rec *Recognizer, photos []LabelledPhoto) (bool, error) {
	w := <-rec.pool
	defer func() { rec.pool <- w }()
	right := func(img gocv.Mat, boxes []box, codes []string) int {
		n := 0
		for i, rd := range classify(&w.cls, &rec.cls, img, boxes) {
			if i < len(codes) && len(rd.labels) > 0 && rd.labels[0] == codes[i] {
				n++
			}
		}
		return n
	}
	asIs, inverted, tiles := 0, 0, 0
	for _, p := range photos {
		img, factor, err := decodeReduced(p.Data, reducedMinSide)
		if err != nil {
			img.Close()
			return false, fmt.Errorf("%s: %w", p.Name, err)
		}
		f := float64(factor)
		var boxes []box
		var codes []string
		for _, l := range p.Labels {
			bx := l.reduced(f)
			if bx.w() >= 4 && bx.h() >= 4 {
				boxes = append(boxes, bx)
				codes = append(codes, l.Tile)
			}
		}
		tiles += len(boxes)
		inv := invertLightness(img)
		asIs += right(img, boxes, codes)
		inverted += right(inv, boxes, codes)
		inv.Close()
		img.Close()
	}
	return inverted > asIs+tiles/10, nil
}

// addPhoto cuts the labelled tiles of one photo, and a few patches of it
// where no tile is, into the bank's examples.
func (b *Bank) addPhoto(rec *Recognizer, p LabelledPhoto) (int, error) {
	img, factor, err := decodeReduced(p.Data, reducedMinSide)
	defer img.Close()
	if err != nil {
		return 0, err
	}
	if b.Inverted {
		inv := invertLightness(img)
		img.Close()
		img = inv // closed by the deferred img.Close
	}
	f := float64(factor)
	var boxes []box
	added := 0
	for _, l := range p.Labels {
		if !labelCode(l.Tile) {
			return 0, fmt.Errorf("%q is not a tile code", l.Tile)
		}
		bx := l.reduced(f)
		boxes = append(boxes, bx)
		if b.addExample(img, bx, l.Tile, p.Name, rec.cls.Preprocess) {
			added++
		}
	}
	if added == 0 {
		return 0, nil
	}
	found, _, err := rec.forSet().findAndRead(context.Background(), img)
	if err != nil {
		return 0, err
	}
	// Each tile also as the detector boxes it: reading cuts tiles from the
	// detector's boxes, which hold more of the face and less of the side
	// than a label's. Taught tile F1 fluffy 0.904 -> 0.912, proc-set 0.777
	// -> 0.794, egypt 0.816 -> 0.822, traditional 0.807 -> 0.811,
	// fluffy-black 0.912 -> 0.906.
	for i, l := range p.Labels {
		bi, best := -1, 0.5
		for j, fb := range found {
			if v := iou(boxes[i], fb); v >= best {
				bi, best = j, v
			}
		}
		if bi >= 0 && best < 0.95 && b.addExample(img, found[bi], l.Tile, p.Name, rec.cls.Preprocess) {
			b.Examples[len(b.Examples)-1].Detected = true
		}
	}
	// How far the detector's boxes fall short of this set's tiles.
	if b.Outline == nil {
		b.Outline = &Outline{}
	}
	b.Outline.addPairs(boxes, found)
	// Where no tile is: the boxes the detector finds away from every
	// label, and patches of the photo's own tile size between them.
	b.addBackground(img, boxes, max(4, added/3), p.Name, rec.cls.Preprocess, found...)
	b.Taught = appendNew(b.Taught, p.Name)
	b.addTemplates(img, p.Labels, f, rec.cls.Preprocess)
	return added, nil
}

// addBackground keeps up to n patches of the photo where no tile is: the
// candidates first (boxes a detector found), then patches of the tiles'
// size between them, none overlapping a tile. pre is the classifier's
// preprocess block, which says how a tile is cut.
func (b *Bank) addBackground(img gocv.Mat, tiles []box, n int, photo string, pre models.Preprocess, candidates ...box) {
	neg := 0
	for _, c := range append(candidates, backgroundPatches(img, tiles, photo)...) {
		if neg >= n {
			break
		}
		if overlapsAny(c, tiles, 0.05) {
			continue
		}
		if b.addExample(img, c, noTile, photo, pre) {
			neg++
		}
	}
}

// addTemplates keeps, for the colour matching of Bank.view, the first
// labelled tile of each code not yet in the bank, cut as the classifier's
// preprocess block pre says.
func (b *Bank) addTemplates(img gocv.Mat, labels []Labelled, f float64, pre models.Preprocess) {
	for _, l := range labels {
		if _, ok := b.template(l.Tile); ok {
			continue
		}
		bx := l.reduced(f)
		if bx.w() > bx.h()*pre.TurnAspect {
			continue // a template stands upright
		}
		c := cutTurned(img, bx, 0, bankWidth, bankHeight, pre)
		if !c.Empty() && c.Type() == gocv.MatTypeCV8UC3 {
			b.Templates = append(b.Templates, Template{Code: l.Tile, Box: [4]int{int(l.Box[0]), int(l.Box[1]), int(l.Box[2]), int(l.Box[3])}, BGR: c.ToBytes(), Side: shortSide(bx)})
		}
		c.Close()
	}
}

func (b *Bank) template(code string) (Template, bool) {
	for _, t := range b.Templates {
		if t.Code == code {
			return t, true
		}
	}
	return Template{}, false
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// overlapsAny says whether c covers more than share of any of boxes, or
// any of them covers more than share of c.
func overlapsAny(c box, boxes []box, share float64) bool {
	for _, o := range boxes {
		if cover(c, o) > share || cover(o, c) > share {
			return true
		}
	}
	return false
}

// backgroundPatches are boxes of the labelled tiles' median size on a grid
// over the photo, in an order that spreads them (the caller keeps those
// away from every tile).
func backgroundPatches(img gocv.Mat, tiles []box, seed string) []box {
	if len(tiles) == 0 {
		return nil
	}
	ws, hs := make([]float64, len(tiles)), make([]float64, len(tiles))
	for i, t := range tiles {
		ws[i], hs[i] = t.w(), t.h()
	}
	sort.Float64s(ws)
	sort.Float64s(hs)
	w, h := ws[len(ws)/2], hs[len(hs)/2]
	if w < 4 || h < 4 {
		return nil
	}
	var out []box
	for y := 0.0; y+h <= float64(img.Rows()); y += h {
		for x := 0.0; x+w <= float64(img.Cols()); x += w {
			out = append(out, box{x0: x, y0: y, x1: x + w, y1: y + h})
		}
	}
	r := rand.New(rand.NewSource(int64(len(seed))*7919 + int64(len(out))))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// addExample cuts one tile (upright, with exampleMargin around its box)
// into the bank, keeping at most maxPerCode of a code; pre is the
// classifier's preprocess block.
func (b *Bank) addExample(img gocv.Mat, bx box, code, photo string, pre models.Preprocess) bool {
	c := cutExample(img, bx, pre.TurnAspect)
	defer c.Close()
	if c.Empty() || c.Type() != gocv.MatTypeCV8UC3 || c.Cols() != exampleWidth || c.Rows() != exampleHeight {
		return false
	}
	e := Example{Code: code, BGR: c.ToBytes(), Photo: photo}
	var same []int
	for i, x := range b.Examples {
		if x.Code == code {
			same = append(same, i)
		}
	}
	switch {
	case len(same) >= maxPerCode:
		// Keep the first; the rest roll over, so the set follows the
		// photos it is shown most recently.
		b.Examples = append(b.Examples[:same[1]], b.Examples[same[1]+1:]...)
	case len(b.Examples) >= maxExamples:
		return false
	}
	b.Examples = append(b.Examples, e)
	return true
}

// cutExample cuts a box with exampleMargin around it, turned upright
// (clockwise, as cropTile turns) when it lies across: wider than
// turnAspect times its height (the classifier's preprocess block).
func cutExample(img gocv.Mat, b box, turnAspect float64) gocv.Mat {
	out := gocv.NewMat()
	if b.w() < 4 || b.h() < 4 || img.Cols() < 8 || img.Rows() < 8 {
		return out
	}
	turn := b.w() > turnAspect*b.h()
	mx, my := b.w()*exampleMargin, b.h()*exampleMargin
	want := image.Rect(int(math.Round(b.x0-mx)), int(math.Round(b.y0-my)), int(math.Round(b.x1+mx)), int(math.Round(b.y1+my)))
	r := want.Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if r.Dx() < 4 || r.Dy() < 4 {
		return out
	}
	// Pad what the photo's edge cuts off with the edge's own pixels, so
	// the tile keeps its place in the cut.
	region := img.Region(r)
	defer region.Close()
	padded := gocv.NewMat()
	defer padded.Close()
	gocv.CopyMakeBorder(region, &padded, r.Min.Y-want.Min.Y, want.Max.Y-r.Max.Y, r.Min.X-want.Min.X, want.Max.X-r.Max.X, gocv.BorderReplicate, color.RGBA{})
	if padded.Empty() {
		return out
	}
	src := padded
	if turn {
		up := gocv.NewMat()
		defer up.Close()
		gocv.Rotate(padded, &up, gocv.Rotate90Clockwise)
		src = up
		gocv.Resize(src, &out, image.Pt(exampleWidth, exampleHeight), 0, 0, gocv.InterpolationArea)
		return out
	}
	gocv.Resize(src, &out, image.Pt(exampleWidth, exampleHeight), 0, 0, gocv.InterpolationArea)
	return out
}

// ReadLabelledDir reads every photo of a folder that has a label file
// beside it (<stem>.jpg or .png with <stem>.txt, the shared/data/photos
// format), in name order; each photo is named by its stem.
func ReadLabelledDir(dir string) ([]LabelledPhoto, error) {
	var names []string
	for _, ext := range []string{"*.jpg", "*.jpeg", "*.png"} {
		m, err := filepath.Glob(filepath.Join(dir, ext))
		if err != nil {
			return nil, err
		}
		names = append(names, m...)
	}
	sort.Strings(names)
	var out []LabelledPhoto
	for _, name := range names {
		stem := strings.TrimSuffix(name, filepath.Ext(name))
		labels, err := ReadLabels(stem + ".txt")
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, LabelledPhoto{Name: filepath.Base(stem), Data: data, Labels: labels})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no labelled photos in %s: want <name>.jpg beside <name>.txt with a `CODE x0 y0 x1 y1` line per tile", dir)
	}
	return out, nil
}

// FewestCovering picks, greedily, the fewest photos that between them
// show every code the photos show: the least a player must confirm to
// teach the whole set. It returns their indices in photos' order.
func FewestCovering(photos []LabelledPhoto) []int {
	want := map[string]bool{}
	for _, p := range photos {
		for _, l := range p.Labels {
			want[l.Tile] = true
		}
	}
	used := make([]bool, len(photos))
	var picked []int
	for len(want) > 0 {
		best, gain := -1, 0
		for i, p := range photos {
			if used[i] {
				continue
			}
			g := map[string]bool{}
			for _, l := range p.Labels {
				if want[l.Tile] {
					g[l.Tile] = true
				}
			}
			if len(g) > gain {
				best, gain = i, len(g)
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		picked = append(picked, best)
		for _, l := range photos[best].Labels {
			delete(want, l.Tile)
		}
	}
	sort.Ints(picked)
	return picked
}

// Knows says whether the bank was taught from the photo of that name.
func (b *Bank) Knows(photo string) bool { return slices.Contains(b.Taught, photo) }
