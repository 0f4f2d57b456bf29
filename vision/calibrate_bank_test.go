package vision

import (
	"bytes"
	"compress/gzip"
	"errors"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gocv.io/x/gocv"
)

// The egypt set (testdata/synth/README.md) is one the network never saw:
// a calibration photo of it and ten scenes.
const (
	egyptGrid   = "../testdata/synth/egypt-grid"
	egyptScenes = "../testdata/synth/egypt"
)

var (
	egyptOnce sync.Once
	egyptBank *Bank
	egyptErr  error
)

// egypt calibrates on the committed egypt grid once for the test binary.
func egypt(t testing.TB) *Bank {
	rec := recognizer(t)
	egyptOnce.Do(func() {
		data, err := os.ReadFile(egyptGrid + ".jpg")
		if err != nil {
			egyptErr = err
			return
		}
		egyptBank, egyptErr = Calibrate(rec, data)
	})
	if egyptErr != nil {
		t.Fatal(egyptErr)
	}
	return egyptBank
}

// TestCalibrateEgyptGrid: every tile of the grid lands in the bank under
// its own code, in grid order, cut from where the labels say it lies.
// The face-down tile at the end of row 6 is among them.
func TestCalibrateEgyptGrid(t *testing.T) {
	b := egypt(t)
	var want []string
	for _, row := range GridRows[:extraRow+1] { // no kings, no jokers
		want = append(want, row...)
	}
	// (The broad detector before B3 missed the back, which the grid allows.)
	if got := strings.Join(b.Codes(), " "); got != strings.Join(want, " ") {
		t.Fatalf("bank codes\n %s\nwant\n %s", got, strings.Join(want, " "))
	}
	labels, err := ReadLabels(egyptGrid + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	// Each template is cut from the tile the labels name: its centre lies
	// in that tile's labelled box (the labels' boxes hold the tile's side
	// too, the detector's mostly the face).
	for _, tm := range b.Templates {
		under := labelledAt(labels, float64(tm.Box[0]+tm.Box[2])/2, float64(tm.Box[1]+tm.Box[3])/2)
		if under != tm.Code {
			t.Errorf("template %s cut from %v, which the labels give to %q", tm.Code, tm.Box, under)
		}
		if len(tm.BGR) != b.Width*b.Height*3 {
			t.Errorf("template %s holds %d bytes", tm.Code, len(tm.BGR))
		}
		// A grid photo's tiles are large: its templates may overturn a
		// reading of their own suit (decide).
		if tm.Side < sharpTemplate || tm.Side > min(tm.Box[2]-tm.Box[0], tm.Box[3]-tm.Box[1])+1 {
			t.Errorf("template %s says it was cut from a tile %d px wide, its box is %v", tm.Code, tm.Side, tm.Box)
		}
	}
}

// TestCalibrateBadLayout: a grid with a tile missing says which row holds
// how many tiles and what it should hold; what is not a photo says so.
func TestCalibrateBadLayout(t *testing.T) {
	rec := recognizer(t)
	data, err := os.ReadFile(egyptGrid + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	labels, err := ReadLabels(egyptGrid + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	// Take 5p off the table: paint its box over with the table's colour.
	img, err := DecodePhoto(data)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	table := img.GetVecbAt(5, 5)
	for _, l := range labels {
		if l.Tile == "5p" {
			r := image.Rect(int(l.Box[0])-4, int(l.Box[1])-4, int(l.Box[2])+6, int(l.Box[3])+10)
			gocv.Rectangle(&img, r, color.RGBA{table[2], table[1], table[0], 0}, -1)
		}
	}
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, img)
	if err != nil {
		t.Fatal(err)
	}
	missing := append([]byte(nil), buf.GetBytes()...)
	buf.Close()
	_, err = Calibrate(rec, missing)
	if !errors.Is(err, ErrBadGrid) || !strings.Contains(err.Error(), "row 2 has 8 tiles, expected 9 (1p 2p 3p 4p 5p 6p 7p 8p 9p)") ||
		!strings.Contains(err.Error(), "lay the tiles out again") {
		t.Errorf("grid without 5p: %v", err)
	}
	// Read inverted, the bare patch where 5p lay is boxed and read as a
	// blank face, filling row 2 again: a blank face where the grid has a
	// face says a tile is missing there.
	m, f, err := decodeReduced(missing, reducedMinSide)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	inv := invertLightness(m)
	defer inv.Close()
	if _, err := calibrateView(rec, inv, f); !errors.Is(err, ErrBadGrid) || !strings.Contains(err.Error(), "row 2, tile 5 (where 5p goes) looks blank") {
		t.Errorf("grid without 5p, read inverted: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("GIF89a"), []byte("not a photo at all")} {
		if _, err := Calibrate(rec, bad); !errors.Is(err, ErrNotAPhoto) {
			t.Errorf("Calibrate(%q) = %v, want ErrNotAPhoto", bad, err)
		}
	}
	blank := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer blank.Close()
	png, err := gocv.IMEncode(gocv.PNGFileExt, blank)
	if err != nil {
		t.Fatal(err)
	}
	defer png.Close()
	if _, err := Calibrate(rec, png.GetBytes()); !errors.Is(err, ErrBadGrid) || !strings.Contains(err.Error(), "no tiles") {
		t.Errorf("blank photo: %v", err)
	}
}

// TestGridCodes: which row counts make a grid, and what is said of those
// that do not.
func TestGridCodes(t *testing.T) {
	for _, c := range []struct {
		counts []int
		want   string // last code of the grid, or a piece of the error
	}{
		{[]int{9, 9, 9, 7}, "7z"},
		{[]int{9, 9, 9, 7, 8}, "8f"},
		{[]int{9, 9, 9, 7, 8, 4}, "0z"},
		{[]int{9, 9, 9, 7, 8, 3}, "0s"},
		{[]int{9, 9, 9, 7, 4}, "0z"},
		{[]int{9, 9, 9, 7, 3}, "0s"},
		{[]int{9, 8, 9, 7}, "row 2 has 8 tiles, expected 9 (1p 2p 3p 4p 5p 6p 7p 8p 9p)"},
		{[]int{9, 9, 9, 6}, "row 4 has 6 tiles, expected 7 (1z 2z 3z 4z 5z 6z 7z)"},
		{[]int{9, 9, 9}, "only 3 rows"},
		{[]int{9, 9, 9, 7, 5}, "row 5 has 5 tiles, expected one of the optional rows left: 8 (1f 2f 3f 4f 5f 6f 7f 8f); 4 (0m 0p 0s 0z) or the three red fives without the back; 8 (1k"},
		{[]int{9, 9, 9, 7, 4, 4}, "row 6 has 4 tiles, expected one of the optional rows left: 8 (1k 2k 3k 4k 5k 6k 7k 8k); 9 (1j"},
		{[]int{9, 9, 9, 7, 8, 2}, "row 6 has 2 tiles, expected one of the optional rows left: 4 (0m 0p 0s 0z) or the three red fives without the back; 8 (1k"},
		{[]int{9, 9, 9, 7, 8, 4, 8}, "8k"},
		{[]int{9, 9, 9, 7, 8, 4, 8, 9}, "9j"},
		{[]int{9, 9, 9, 7, 8, 3, 8, 8}, "8j"},
		{[]int{9, 9, 9, 7, 8, 8, 8}, "8j"},
		{[]int{9, 9, 9, 7, 8, 9}, "9j"},
		{[]int{9, 9, 9, 7, 8, 1}, "9j"},
		{[]int{9, 9, 9, 7, 1}, "9j"},
		{[]int{9, 9, 9, 7, 4, 8}, "8k"},
		{[]int{9, 9, 9, 7, 8, 4, 8, 9, 1}, "row 9 is one row too many"},
		{[]int{9, 9, 9, 7, 8, 4, 8, 9, 7}, "row 9 is one row too many"},
		{[]int{9, 9, 9, 7, 8, 8, 8, 8}, "row 8 is one row too many"},
	} {
		rows := make([][]int, len(c.counts))
		for i, n := range c.counts {
			rows[i] = make([]int, n)
		}
		codes, err := gridCodes(rows)
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrBadGrid) {
				t.Errorf("%v: error %v does not wrap ErrBadGrid", c.counts, err)
			}
		} else {
			last := codes[len(codes)-1]
			got = last[len(last)-1]
		}
		if (err == nil && got != c.want) || (err != nil && !strings.Contains(got, c.want)) {
			t.Errorf("%v: got %q, want %q", c.counts, got, c.want)
		}
	}
}

// TestBankFile: a bank saved and loaded is the same bank; damaged or
// foreign files are refused with a reason.
func TestBankFile(t *testing.T) {
	b := egypt(t)
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := LoadBank(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Codes(), " ") != strings.Join(b.Codes(), " ") || !bytes.Equal(got.Templates[3].BGR, b.Templates[3].BGR) {
		t.Error("the loaded bank differs from the saved one")
	}
	path := t.TempDir() + "/bank.mjb"
	if err := b.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBankFile(path); err != nil {
		t.Fatal(err)
	}
	zipped := func(s string) []byte {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write([]byte(s))
		w.Close()
		return z.Bytes()
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("plain text"), "not gzip'd"},
		{zipped("{"), "damaged"},
		{zipped(`{"format":"something else","version":1,"width":24,"height":32}`), "not a template bank"},
		{zipped(`{"format":"mjscan-template-bank","version":9,"width":24,"height":32}`), "version 9"},
		{zipped(`{"format":"mjscan-template-bank","version":1,"width":2,"height":32}`), "2×32"},
		{zipped(`{"format":"mjscan-template-bank","version":1,"width":24,"height":32,"templates":[{"code":"1x","bgr":""}]}`), `"1x"`},
		{zipped(`{"format":"mjscan-template-bank","version":1,"width":24,"height":32,"templates":[{"code":"1m","bgr":"AAAA"}]}`), "holds 3 bytes"},
		{zipped(`{"format":"mjscan-template-bank","version":1,"width":24,"height":32,"templates":[]}`), "no template for 1m"},
	} {
		if _, err := LoadBank(bytes.NewReader(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadBank(%.40q) = %v, want an error saying %q", c.data, err, c.want)
		}
	}
}

// FuzzLoadBank: no bank file makes loading panic.
func FuzzLoadBank(f *testing.F) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write([]byte(`{"format":"mjscan-template-bank","version":1,"width":24,"height":32,"templates":[]}`))
	gz.Close()
	f.Add(buf.Bytes())
	buf.Reset()
	gz = gzip.NewWriter(&buf)
	gz.Write([]byte(`{"format":"mjscan-template-bank","version":5,"width":24,"height":32,"templates":[],` +
		`"outline":{"upright":[[-0.05,0,0.08,0.1],[0.01,0,0.07,0.09]],"lying":[[0,0.02,0.04,0.08]]}}`))
	gz.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("plain"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := LoadBank(bytes.NewReader(data))
		if err == nil && b.validate() != nil {
			t.Error("a loaded bank does not validate")
		}
	})
}

// TestBankReadsAnUnseenSet is the feature's claim: the network alone
// misreads nearly every tile of the egypt set; with one calibration photo
// most of the tiles it finds are read right. The tiles the detector does
// not find stay unread, which bounds the F1. A bank outranks the network
// (its head reads every tile, teach.go), so it is for its own set's photos
// only (a recognition names its tile set): the egypt bank reads the
// committed photos of another set wrong (1 and 2 tiles right of 12 and 14).
func TestBankReadsAnUnseenSet(t *testing.T) {
	rec := recognizer(t)
	b := egypt(t)
	without, err := EvaluateDir(rec, egyptScenes)
	if err != nil {
		t.Fatal(err)
	}
	with, err := EvaluateDir(rec.WithBank(b), egyptScenes)
	if err != nil {
		t.Fatal(err)
	}
	acc := func(s *Score) float64 { return ratio(s.LocalisedRight, s.Localised) }
	t.Logf("egypt scenes: tile F1 %.3f without the bank, %.3f with it; class accuracy over found tiles %.3f, %.3f; localisation recall %.3f",
		without.F1(), with.F1(), acc(without), acc(with), ratio(with.Localised, with.Labels))
	// The level reached: 0.891 and 0.896 with the G2 classifier (G1's
	// 0.888 and 0.899, S11's 0.879 and 0.886, stage 9's 0.896 and 0.90;
	// models/README.md, "Stage G2").
	if with.F1() < 0.885 || with.F1() < without.F1()+0.3 || acc(with) < 0.885 {
		t.Errorf("egypt scenes: tile F1 %.3f with the bank (%.3f without), class accuracy %.3f; want F1 at least 0.885 and 0.3 above, accuracy at least 0.885 (the level reached, less a tile)",
			with.F1(), without.F1(), acc(with))
	}
}

// TestBankReadsKingsAndJokers: a calibration photo with the two optional
// rows of kings/queens and jokers (testdata/synth/traditional-grid.jpg: the
// held-out "traditional" set, its rare tiles in the held-out drawing style)
// gives a bank with all 17 of them, and that bank lifts the reading of the
// held-out scenes, the jokers among them. Kings and queens stay as the
// network reads them: the bank does not overturn the network within a
// kind (decide), as its colour match is swayed by ink and frame more than
// by the one small glyph that tells a king from its kin; the scenes draw
// each code in four inks and weights, the grid in one.
func TestBankReadsKingsAndJokers(t *testing.T) {
	rec := recognizer(t)
	data, err := os.ReadFile("../testdata/synth/traditional-grid.jpg")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Calibrate(rec, data)
	if err != nil {
		t.Fatal(err)
	}
	codes := " " + strings.Join(b.Codes(), " ") + " "
	for _, row := range GridRows[extraRow+1:] {
		for _, c := range row {
			if !strings.Contains(codes, " "+c+" ") {
				t.Errorf("the bank has no template for %s (it has%s)", c, codes)
			}
		}
	}
	without, err := EvaluateDir(rec, "../testdata/synth/heldout")
	if err != nil {
		t.Fatal(err)
	}
	with, err := EvaluateDir(rec.WithBank(b), "../testdata/synth/heldout")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		get       func(*Score) float64
		gain, min float64 // gain over reading without the bank (at least); the level reached
	}{
		{"tile F1", (*Score).F1, 0.05, 0.89}, // 0.891 with the G2 classifier (G1 0.860, S11 0.834)
		// With the grid's head as well as its templates the jokers read a
		// little worse (0.85 -> 0.82) while the whole set reads the same
		// and the egypt scenes 0.80 -> 0.87 (TestBankReadsAnUnseenSet).
		// G2: 0.903.
		{GroupJokers + " F1", func(s *Score) float64 { return s.GroupF1(GroupJokers) }, 0, 0.90},
		// Found by the broad detector (as every bank reads) the set's tiles
		// read better (0.826 -> 0.834 with the grid cut from its boxes too)
		// and the egypt scenes 0.87 -> 0.90, but the grid's head reads the
		// kings and queens, drawn in one ink there and four in the scenes,
		// below the network's reading of them (0.59 -> 0.525; G2: 0.751
		// -> 0.742; with the B3 broad detector 0.723, while the whole set
		// reads 0.891 -> 0.899 and the jokers 0.903 -> 0.912).
		{GroupKings + " F1", func(s *Score) float64 { return s.GroupF1(GroupKings) }, -0.08, 0.715},
	} {
		w, wo := c.get(with), c.get(without)
		t.Logf("held-out %s: %.3f with the bank, %.3f without", c.name, w, wo)
		if w < wo+c.gain || w < c.min {
			t.Errorf("held-out %s: %.3f with the bank, %.3f without; want %.2f more and at least %.2f", c.name, w, wo, c.gain, c.min)
		}
	}
}

// TestBankDecide: the rule on made-up verdicts.
func TestBankDecide(t *testing.T) {
	net := func(l string, p float64) reading {
		return reading{labels: []string{l, "2m", "3m"}, probs: []float64{p, (1 - p) / 2, (1 - p) / 2}}
	}
	for _, c := range []struct {
		rd      reading
		bv      bankVerdict
		want    string
		alt     string // the first alternative
		atLeast float64
	}{
		// Agreement confirms, and never lowers the confidence.
		{net("1m", 0.4), bankVerdict{code: "1m", score: 0.95, margin: 0.1}, "1m", "2m", 0.95},
		{net("1m", 0.99), bankVerdict{code: "1m", score: 0.5, margin: 0.0}, "1m", "2m", 0.99},
		// A strong match wins over a confident network.
		{net("7z", 0.98), bankVerdict{code: "4m", score: 0.93, margin: 0.08}, "4m", "7z", 0.9},
		// A clear match wins over an unsure network only.
		{net("7z", 0.5), bankVerdict{code: "4m", score: 0.84, margin: 0.03}, "4m", "7z", 0.5},
		{net("7z", 0.9), bankVerdict{code: "4m", score: 0.84, margin: 0.03}, "7z", "4m", 0.9},
		// A weak match leaves the network, and joins the alternatives.
		{net("7z", 0.5), bankVerdict{code: "4m", score: 0.6, margin: 0.01}, "7z", "2m", 0.5},
		// Within the kings/queens, or the jokers, the network's choice
		// stands however strong the match (the match joins the alternatives);
		// across kinds the match wins.
		{net("4k", 0.5), bankVerdict{code: "1k", score: 0.95, margin: 0.08}, "4k", "1k", 0.5},
		{net("8j", 0.6), bankVerdict{code: "3j", score: 0.95, margin: 0.08}, "8j", "3j", 0.6},
		{net("7f", 0.9), bankVerdict{code: "1k", score: 0.95, margin: 0.08}, "1k", "7f", 0.9},
		// A template cut from a small tile does not overturn a reading of
		// its own suit (its match joins the alternatives); one from a tile
		// as wide as the classifier's input does. Across suits, and
		// between a five and its red five, the small one still wins.
		{net("8f", 0.55), bankVerdict{code: "5f", score: 0.95, margin: 0.08}, "8f", "5f", 0.55},
		{net("3m", 0.5), bankVerdict{code: "2m", score: 0.84, margin: 0.03}, "3m", "2m", 0.5},
		{net("8f", 0.55), bankVerdict{code: "5f", score: 0.95, margin: 0.08, sharp: true}, "5f", "8f", 0.9},
		{net("6s", 0.6), bankVerdict{code: "8p", score: 0.95, margin: 0.08}, "8p", "6s", 0.9},
		{net("5m", 0.6), bankVerdict{code: "0m", score: 0.95, margin: 0.08}, "0m", "5m", 0.9},
		// Nor does a template of a large tile overturn a reading of its
		// own suit as sure as sureWithinSuit; across suits it still does.
		{net("1m", 0.95), bankVerdict{code: "8m", score: 0.95, margin: 0.08, sharp: true}, "1m", "8m", 0.95},
		{net("6s", 0.95), bankVerdict{code: "8p", score: 0.95, margin: 0.08, sharp: true}, "8p", "6s", 0.9},
	} {
		got := decide(c.rd, c.bv)
		if got.labels[0] != c.want || got.labels[1] != c.alt || got.probs[0] < c.atLeast || len(got.labels) != len(got.probs) || len(got.labels) > 3 {
			t.Errorf("decide(%v %.2f, bank %+v) = %v %v; want %s first, %s next, confidence at least %.2f",
				c.rd.labels[0], c.rd.probs[0], c.bv, got.labels, got.probs, c.want, c.alt, c.atLeast)
		}
		for j := 1; j < len(got.probs); j++ {
			if got.probs[j] > got.probs[j-1] || got.probs[0]+got.probs[j] > 1.0001 {
				t.Errorf("decide(%v, %+v): confidences %v out of order or above 1", c.rd.labels, c.bv, got.probs)
			}
		}
	}
	weak := decide(net("7z", 0.5), bankVerdict{code: "4m", score: 0.6, margin: 0.01})
	if !strings.Contains(strings.Join(weak.labels, " "), "4m") {
		t.Errorf("a weak bank match is not among the alternatives: %v", weak.labels)
	}
}

// BenchmarkRecognizeWithBank reads a 640-pixel photo of the egypt set
// with and without the bank (one worker).
func BenchmarkRecognizeWithBank(b *testing.B) {
	data, err := os.ReadFile(egyptScenes + "/synth_3_00000.jpg")
	if err != nil {
		b.Fatal(err)
	}
	rec := recognizer(b)
	bank := egypt(b)
	b.Run("network", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			rec.Recognize("bench", data)
		}
	})
	b.Run("bank", func(b *testing.B) {
		r := rec.WithBank(bank)
		for i := 0; i < b.N; i++ {
			r.Recognize("bench", data)
		}
	})
}

// FuzzCalibrate: from raw bytes to a bank, nothing crashes; what is not a
// calibration photo is refused with one of the documented errors, and a
// bank that comes out passes its own checks.
//
// The grid's head is not fitted here: its fit is Go arithmetic on cuts
// already checked, which the fuzzer's coverage counters slow past its
// 10 s limit for one input (the egypt grid takes 3 s with the fit, over 10
// under -fuzz); TestCalibrateEgyptGrid and the taught tests fit it.
func FuzzCalibrate(f *testing.F) {
	rec := fuzzSetup(f, egyptGrid+".jpg")
	gridHead = false
	f.Cleanup(func() { gridHead = true })
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Calibrate(rec, data)
		switch {
		case err == nil:
			if verr := b.validate(); verr != nil {
				t.Fatalf("a bank that fails its own checks: %v", verr)
			}
		case !errors.Is(err, ErrNotAPhoto) && !errors.Is(err, ErrBadGrid) && !errors.Is(err, ErrTooLarge):
			t.Fatalf("undocumented error: %v", err)
		}
	})
}

// TestCalibrateDarkFacedGrid: the egypt grid with its lightness inverted
// is the grid of a set with dark faces and light art; its bank is made
// from the photo inverted back and says so, and reads the egypt scenes,
// inverted likewise, as well as the egypt bank reads them as they are.
// The egypt grid itself is read as it is.
func TestCalibrateDarkFacedGrid(t *testing.T) {
	rec := recognizer(t)
	if egypt(t).Inverted {
		t.Fatal("the egypt grid (light faces) was calibrated inverted")
	}
	dark := func(data []byte) []byte {
		img, err := DecodePhoto(data)
		if err != nil {
			t.Fatal(err)
		}
		defer img.Close()
		inv := invertLightness(img)
		defer inv.Close()
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, inv, []int{gocv.IMWriteJpegQuality, 95})
		if err != nil {
			t.Fatal(err)
		}
		defer buf.Close()
		return append([]byte(nil), buf.GetBytes()...)
	}
	data, err := os.ReadFile(egyptGrid + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Calibrate(rec, dark(data))
	if err != nil {
		t.Fatal(err)
	}
	if !b.Inverted || strings.Join(b.Codes(), " ") != strings.Join(egypt(t).Codes(), " ") {
		t.Fatalf("dark egypt grid: inverted %v, codes %v", b.Inverted, b.Codes())
	}
	dir := t.TempDir()
	names, _ := filepath.Glob(filepath.Join(egyptScenes, "*.jpg"))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		stem := strings.TrimSuffix(n, ".jpg")
		labels, err := os.ReadFile(stem + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), dark(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(stem)+".txt"), labels, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	light, err := EvaluateDir(rec.WithBank(egypt(t)), egyptScenes)
	if err != nil {
		t.Fatal(err)
	}
	s, err := EvaluateDir(rec.WithBank(b), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("egypt scenes with the grid's bank: tile F1 %.3f; inverted, with the inverted grid's bank: %.3f", light.F1(), s.F1())
	if s.F1() < light.F1()-0.03 {
		t.Errorf("the dark-faced egypt scenes read at tile F1 %.3f with their bank, the light ones at %.3f", s.F1(), light.F1())
	}
}

// TestCalibrateSlantedGrid: the egypt grid photographed 15 degrees askew
// (which failed before levelled: "row 1 has 4 tiles, expected 9") gives
// the grid's codes in order, each template cut from the tile the labels
// give that code (its centre turned back into the straight photo).
func TestCalibrateSlantedGrid(t *testing.T) {
	rec := recognizer(t)
	img := gocv.IMRead(egyptGrid+".jpg", gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("%s.jpg does not decode", egyptGrid)
	}
	defer img.Close()
	labels, err := ReadLabels(egyptGrid + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	w, h := float64(img.Cols()), float64(img.Rows())
	m := gocv.GetRotationMatrix2D(image.Pt(img.Cols()/2, img.Rows()/2), 15, 1)
	defer m.Close()
	a, b := m.GetDoubleAt(0, 0), m.GetDoubleAt(0, 1)
	nw, nh := w*a+h*b, w*b+h*a // the bounds of the turned photo
	m.SetDoubleAt(0, 2, m.GetDoubleAt(0, 2)+(nw-w)/2)
	m.SetDoubleAt(1, 2, m.GetDoubleAt(1, 2)+(nh-h)/2)
	table := img.GetVecbAt(5, 5)
	turned := gocv.NewMat()
	defer turned.Close()
	gocv.WarpAffineWithParams(img, &turned, m, image.Pt(int(nw), int(nh)), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{table[2], table[1], table[0], 0})
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, turned)
	if err != nil {
		t.Fatal(err)
	}
	data := append([]byte(nil), buf.GetBytes()...)
	buf.Close()
	bank, err := Calibrate(rec, data)
	if err != nil {
		t.Fatalf("the grid 15 degrees askew: %v", err)
	}
	// (the back at the end of row 6 is optional, and askew it is missed)
	got, want := strings.Join(bank.Codes(), " "), strings.Join(egypt(t).Codes(), " ")
	if got != want && got+" 0z" != want {
		t.Fatalf("bank codes\n %s\nwant, as from the straight grid,\n %s", got, want)
	}
	// back into the straight photo: [x y] = A⁻¹ ([x' y'] - t)
	tx, ty := m.GetDoubleAt(0, 2), m.GetDoubleAt(1, 2)
	for _, tm := range bank.Templates {
		cx, cy := float64(tm.Box[0]+tm.Box[2])/2-tx, float64(tm.Box[1]+tm.Box[3])/2-ty
		if under := labelledAt(labels, a*cx-b*cy, b*cx+a*cy); under != tm.Code {
			t.Errorf("template %s cut from %v, which lies on the labels' %q", tm.Code, tm.Box, under)
		}
	}
}

// labelledAt is the code of the last labelled box holding the point x, y,
// or "".
func labelledAt(labels []Labelled, x, y float64) string {
	under := ""
	for _, l := range labels {
		if x >= l.Box[0] && x <= l.Box[2] && y >= l.Box[1] && y <= l.Box[3] {
			under = l.Tile
		}
	}
	return under
}
