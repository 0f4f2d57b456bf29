package vision

import (
	"context"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// TestOutlineMovesShortBoxes: boxes that fall short of their labels by
// the same share on the right and bottom are moved onto them, upright and
// lying boxes each by their own samples; too few samples move nothing, a
// label far off a box is no sample, and a move stays within the photo.
func TestOutlineMovesShortBoxes(t *testing.T) {
	var o Outline
	r := rand.New(rand.NewSource(1))
	var found, labels []box
	for i := range 20 {
		x, y := float64(40*i), 100.0
		w, h := 30+4*r.Float64(), 40+4*r.Float64()
		// upright: 8% short at the right, 10% at the bottom
		found = append(found, box{x0: x, y0: y, x1: x + w, y1: y + h})
		labels = append(labels, box{x0: x, y0: y, x1: x + w*1.08, y1: y + h*1.10})
	}
	labels = append(labels, box{x0: 2000, y0: 2000, x1: 2030, y1: 2040}) // no box near it
	o.addPairs(labels, found)
	if len(o.Upright) != 20 || len(o.Lying) != 0 {
		t.Fatalf("%d upright and %d lying samples, want 20 and 0", len(o.Upright), len(o.Lying))
	}
	short := box{x0: 10, y0: 10, x1: 42, y1: 52}
	got := o.move().apply(short, 1000, 1000)
	want := box{x0: 10, y0: 10, x1: 42 + 0.08*32, y1: 52 + 0.10*42}
	if d := math.Max(math.Abs(got.x1-want.x1), math.Abs(got.y1-want.y1)); d > 0.2 || got.x0 != want.x0 || got.y0 != want.y0 {
		t.Fatalf("moved to %+v, want %+v", got, want)
	}
	if iou(got, want) < iou(short, want) {
		t.Fatal("the move took the box further from its tile")
	}
	lying := box{x0: 10, y0: 10, x1: 52, y1: 42}
	if got := o.move().apply(lying, 1000, 1000); got != lying {
		t.Fatalf("a lying box moved by the upright samples: %+v", got)
	}
	if got := o.move().apply(box{x0: 980, y0: 980, x1: 1000, y1: 999}, 1000, 1000); got.x1 > 1000 || got.y1 > 1000 {
		t.Fatalf("a move left the photo: %+v", got)
	}
	var few Outline
	few.addPairs(labels[:minOutlineSamples-1], found[:minOutlineSamples-1])
	if got := few.move().apply(short, 1000, 1000); got != short {
		t.Fatalf("%d samples moved a box", minOutlineSamples-1)
	}
	var none *Outline
	if got := none.move().apply(short, 1000, 1000); got != short {
		t.Fatal("a bank with no outline moved a box")
	}
	o.Upright[3][2] = float32(math.NaN())
	if err := o.validate(); err == nil {
		t.Fatal("a damaged outline was taken")
	}
}

// TestTaughtOutlineFitsTheLabels: the outline the egypt set is taught
// brings the detector's boxes of the photos it was not taught from closer
// to their labels (mean IoU of each label with its box), and is kept when
// the set grows (TestTeachFromLabelledPhotos saves and loads it).
func TestTaughtOutlineFitsTheLabels(t *testing.T) {
	b := egyptTaught(t)
	if b.Outline == nil || len(b.Outline.Upright) < minOutlineSamples {
		t.Fatalf("the taught egypt bank keeps no outline: %+v", b.Outline)
	}
	rec := recognizer(t).forSet()
	photos, err := ReadLabelledDir(egyptScenes)
	if err != nil {
		t.Fatal(err)
	}
	move := b.Outline.move()
	var before, after float64
	n := 0
	for _, p := range photos {
		if b.Knows(p.Name) {
			continue
		}
		img, factor, err := decodeReduced(p.Data, reducedMinSide)
		if err != nil {
			t.Fatal(err)
		}
		found, _, err := rec.findAndRead(context.Background(), img)
		cols, rows := img.Cols(), img.Rows()
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range p.Labels {
			lb := l.reduced(float64(factor))
			bi, best := -1, outlineMatch
			for j, fb := range found {
				if v := iou(lb, fb); v >= best {
					bi, best = j, v
				}
			}
			if bi < 0 {
				continue
			}
			before += best
			after += iou(lb, move.apply(found[bi], cols, rows))
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d labelled tiles found", n)
	}
	before, after = before/float64(n), after/float64(n)
	t.Logf("egypt, the photos not taught: mean IoU of %d labels with their boxes %.3f, moved by the outline %.3f", n, before, after)
	if after <= before+0.01 {
		t.Errorf("the outline moved the boxes from mean IoU %.3f to %.3f, want a gain of more than 0.01", before, after)
	}
	var more LabelledPhoto
	for _, p := range photos {
		if !b.Knows(p.Name) {
			more = p
			break
		}
	}
	grown, err := Teach(recognizer(t), b, []LabelledPhoto{more})
	if err != nil {
		t.Fatal(err)
	}
	if len(grown.Outline.Upright) <= len(b.Outline.Upright) || grown.Outline.Upright[0] != b.Outline.Upright[0] {
		t.Errorf("growing the set kept %d outline samples of %d", len(grown.Outline.Upright), len(b.Outline.Upright))
	}
	if &grown.Outline.Upright[0] == &b.Outline.Upright[0] {
		t.Error("the grown bank shares its outline with the one it grew from")
	}
}

// TestTurnHue: turning the hue keeps grey grey and a full turn changes
// nothing, while a third of a turn takes red to green; and the fives of
// the suits, told from their red fives by colour, are never turned.
func TestTurnHue(t *testing.T) {
	px := []byte{
		128, 128, 128, // grey
		0, 0, 200, // red (BGR)
		200, 30, 30, // blue
	}
	at := func(angle float64) []byte {
		m, err := gocv.NewMatFromBytes(1, 3, gocv.MatTypeCV8UC3, append([]byte(nil), px...))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		turnHue(m, angle)
		return m.ToBytes()
	}
	near := func(a, b []byte) bool {
		for i := range a {
			if d := int(a[i]) - int(b[i]); d < -1 || d > 1 {
				return false
			}
		}
		return true
	}
	if got := at(2 * math.Pi); !near(got, px) {
		t.Fatalf("a full turn: %v, want %v", got, px)
	}
	got := at(2 * math.Pi / 3)
	if !near(got[:3], px[:3]) {
		t.Fatalf("grey turned to %v", got[:3])
	}
	if b, g, r := got[3], got[4], got[5]; g < 100 || r > 40 || b > 40 {
		t.Fatalf("red turned a third to %v, want green", got[3:6])
	}
	for code, want := range map[string]bool{"5m": false, "0p": false, "5s": false, "4s": true, "5z": true, "5k": true, "9j": true} {
		if inkMayTurn(code) != want {
			t.Errorf("inkMayTurn(%s) = %v, want %v", code, !want, want)
		}
	}
}
