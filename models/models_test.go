package models

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// shipped names every model the binary embeds: the detector and the
// classifier every photo is read with, the detector a taught set's tiles
// are found with, the part reader that reads half a tile's characters,
// and the index reader that reads the index printed on a suit tile.
var shipped = []string{"tile_detector", "tile_classifier", "broad_detector", "part_reader", "index_reader"}

// drawnOnly are the shipped models that learned from drawn tiles alone, no
// photo: their manifests owe the photos no attribution.
var drawnOnly = map[string]bool{"part_reader": true, "index_reader": true}

// TestShippedModelsLoad: every shipped model matches its manifest's
// checksum, names its input and output, and carries the attribution of
// what it learned from: the photos' (CC BY 4.0), or the drawn tiles' art.
func TestShippedModelsLoad(t *testing.T) {
	for _, name := range shipped {
		m, data, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 || m.Input.Name == "" || m.Output.Name == "" {
			t.Errorf("%s: empty model or unnamed input/output", name)
		}
		if !drawnOnly[name] && !strings.Contains(m.Attribution, "CC BY 4.0") {
			t.Errorf("%s: manifest lacks the CC BY 4.0 attribution of its training photos", name)
		}
		if drawnOnly[name] && !strings.Contains(m.Attribution, "KMahjongg") {
			t.Errorf("%s: manifest lacks the attribution of the tile art it learned from", name)
		}
	}
	m, _, _ := Load("tile_classifier")
	if got, want := strings.Join(m.Labels, " "), strings.Join(everyCode(), " "); got != want || m.Temperature <= 0 || m.Features == nil {
		t.Errorf("classifier labels %q temperature %v: want every CONTRACT code (%s), a fitted temperature and features", got, m.Temperature, want)
	}
	for _, name := range []string{"tile_detector", "broad_detector"} {
		if m, _, _ := Load(name); m.Output.Stride != 4 || m.Decode.Threshold <= 0 {
			t.Errorf("%s stride %d threshold %v", name, m.Output.Stride, m.Decode.Threshold)
		}
	}
}

// TestTotalSize keeps the shipped models within the 20 MB budget.
func TestTotalSize(t *testing.T) {
	total := 0
	for _, name := range shipped {
		_, data, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		total += len(data)
	}
	if total > 20<<20 {
		t.Fatalf("models total %d bytes, over 20 MB", total)
	}
}

func TestLoadUnknownModel(t *testing.T) {
	if _, _, err := Load("no_such_model"); err == nil {
		t.Fatal("loading a model that is not shipped succeeded")
	}
}

// everyCode lists the CONTRACT tile codes a photo can show, in the
// classifier's order: the 34 tiles, flowers and seasons, red fives,
// Vietnamese kings and queens, jokers (1j–8j, the American 9j) and the back.
func everyCode() []string {
	var out []string
	add := func(from, to int, suit string) {
		for n := from; n <= to; n++ {
			out = append(out, fmt.Sprintf("%d%s", n, suit))
		}
	}
	add(1, 9, "m")
	add(1, 9, "p")
	add(1, 9, "s")
	add(1, 7, "z")
	add(1, 8, "f")
	out = append(out, "0m", "0p", "0s")
	add(1, 8, "k")
	add(1, 9, "j")
	return append(out, "0z")
}

// TestShippedClassifierLies: the shipped classifier has the lying-across
// output the recogniser's rotated flag reads (vision/recognizer.go).
func TestShippedClassifierLies(t *testing.T) {
	m, _, err := Load("tile_classifier")
	if err != nil {
		t.Fatal(err)
	}
	if m.Lying == nil || m.Lying.Index != len(m.Labels) || len(m.Output.Shape) != 2 || m.Output.Shape[1] != len(m.Labels)+1 {
		t.Errorf("lying output %+v, output shape %v: want one more logit after the %d labels'", m.Lying, m.Output.Shape, len(m.Labels))
	}
}

// TestLoadRefusesBadPreprocess: a manifest whose preprocess block lacks a
// value its model needs, or holds one out of range, is refused at load
// with a message naming the field.
func TestLoadRefusesBadPreprocess(t *testing.T) {
	net := []byte("not a network, but its checksum matches")
	sum := sha256.Sum256(net)
	manifest := func(t *testing.T, name string, edit func(pre map[string]any, m map[string]any)) fstest.MapFS {
		raw, err := files.ReadFile(name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m["file"], m["sha256"] = "net.onnx", hex.EncodeToString(sum[:])
		edit(m["preprocess"].(map[string]any), m)
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return fstest.MapFS{name + ".json": {Data: out}, "net.onnx": {Data: net}}
	}
	for _, c := range []struct {
		model, why, field string
		edit              func(pre, m map[string]any)
	}{
		{"tile_classifier", "no block", "no preprocess block", func(pre, m map[string]any) { delete(m, "preprocess") }},
		{"tile_classifier", "no margin", "preprocess.margin is missing", func(pre, m map[string]any) { delete(pre, "margin") }},
		{"tile_classifier", "null margin", "preprocess.margin is missing", func(pre, m map[string]any) { pre["margin"] = nil }},
		{"tile_classifier", "no turn aspect", "preprocess.turn_aspect is missing", func(pre, m map[string]any) { delete(pre, "turn_aspect") }},
		{"tile_classifier", "margin too large", "preprocess.margin is 0.9", func(pre, m map[string]any) { pre["margin"] = 0.9 }},
		{"tile_classifier", "margin negative", "preprocess.margin is -0.1", func(pre, m map[string]any) { pre["margin"] = -0.1 }},
		{"tile_classifier", "turn aspect below 1", "preprocess.turn_aspect is 0.5", func(pre, m map[string]any) { pre["turn_aspect"] = 0.5 }},
		{"tile_classifier", "no scale", "preprocess.scale is missing", func(pre, m map[string]any) { delete(pre, "scale") }},
		{"tile_classifier", "zero scale", "preprocess.scale is 0", func(pre, m map[string]any) { pre["scale"] = 0 }},
		{"tile_classifier", "scale above 1", "preprocess.scale is 255", func(pre, m map[string]any) { pre["scale"] = 255 }},
		{"tile_classifier", "two means", "preprocess.mean has 2 values", func(pre, m map[string]any) { pre["mean"] = []float64{0, 0} }},
		{"tile_classifier", "mean out of range", "preprocess.mean is [0 300 0]", func(pre, m map[string]any) { pre["mean"] = []float64{0, 300, 0} }},
		{"tile_classifier", "unknown resize", `preprocess.resize is "bilinear"`, func(pre, m map[string]any) { pre["resize"] = "bilinear" }},
		{"tile_classifier", "no resize", "preprocess.resize is missing", func(pre, m map[string]any) { delete(pre, "resize") }},
		{"tile_detector", "no pad", "preprocess.pad is missing", func(pre, m map[string]any) { delete(pre, "pad") }},
		{"tile_detector", "pad of one channel", "preprocess.pad has 1 values", func(pre, m map[string]any) { pre["pad"] = []float64{114} }},
		{"tile_detector", "pad not whole", "preprocess.pad is [114 114.5 114]", func(pre, m map[string]any) { pre["pad"] = []float64{114, 114.5, 114} }},
		{"tile_detector", "pad out of range", "preprocess.pad is [114 114 256]", func(pre, m map[string]any) { pre["pad"] = []float64{114, 114, 256} }},
	} {
		t.Run(c.model+"/"+c.why, func(t *testing.T) {
			_, _, err := load(manifest(t, c.model, c.edit), c.model)
			if err == nil || !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), "model "+c.model) {
				t.Fatalf("got %v, want an error naming the model and %q", err, c.field)
			}
		})
	}
	// The same manifests, unedited, load: the checks above refuse only
	// what they name.
	for _, name := range shipped {
		if _, _, err := load(manifest(t, name, func(pre, m map[string]any) {}), name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestShippedPreprocess: the shipped manifests carry the preprocessing the
// models were trained with (models/train/common.py reads the same blocks).
func TestShippedPreprocess(t *testing.T) {
	cls, _, err := Load("tile_classifier")
	if err != nil {
		t.Fatal(err)
	}
	if p := cls.Preprocess; p.Margin != 0.06 || p.TurnAspect != 1.15 || p.Resize != "area" || p.Interpolation() != 3 || p.Scale != 1/255.0 || fmt.Sprint(p.Mean) != "[0 0 0]" {
		t.Errorf("classifier preprocess %+v", p)
	}
	for _, name := range []string{"part_reader", "index_reader"} {
		halves, _, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if p := halves.Preprocess; p.Margin != 0 || p.TurnAspect != cls.Preprocess.TurnAspect || p.Resize != "area" || p.Scale != 1/255.0 || fmt.Sprint(p.Mean) != "[0 0 0]" {
			t.Errorf("%s preprocess %+v: want no margin and the classifier's turn aspect (its halves are cut from the box as the classifier's crop is turned)", name, p)
		}
	}
	for _, name := range []string{"tile_detector", "broad_detector"} {
		det, _, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if p := det.Preprocess; fmt.Sprint(p.Pad) != "[114 114 114]" || p.Resize != "area" || p.Scale != 1/255.0 || fmt.Sprint(p.Mean) != "[0 0 0]" {
			t.Errorf("%s preprocess %+v", name, p)
		}
	}
}

// TestShippedListsEveryModel: shipped is every network the binary embeds,
// so the checks above (checksum, attribution, the 20 MB budget) miss none.
func TestShippedListsEveryModel(t *testing.T) {
	nets, err := fs.Glob(files, "*.onnx")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range nets {
		got = append(got, strings.TrimSuffix(n, ".onnx"))
	}
	want := append([]string(nil), shipped...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("the binary embeds %v, the tests check %v", got, want)
	}
}
