package models

import (
	"fmt"
	"strings"
	"testing"
)

// TestShippedModelsLoad: every shipped model matches its manifest's
// checksum, names its input and output, and carries the photos' attribution.
func TestShippedModelsLoad(t *testing.T) {
	for _, name := range []string{"tile_detector", "tile_classifier"} {
		m, data, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 || m.Input.Name == "" || m.Output.Name == "" {
			t.Errorf("%s: empty model or unnamed input/output", name)
		}
		if !strings.Contains(m.Attribution, "CC BY 4.0") {
			t.Errorf("%s: manifest lacks the CC BY 4.0 attribution of its training photos", name)
		}
	}
	m, _, _ := Load("tile_classifier")
	if got, want := strings.Join(m.Labels, " "), strings.Join(everyCode(), " "); got != want || m.Temperature <= 0 {
		t.Errorf("classifier labels %q temperature %v: want every CONTRACT code (%s) and a fitted temperature", got, m.Temperature, want)
	}
	if m, _, _ := Load("tile_detector"); m.Output.Stride != 4 || m.Decode.Threshold <= 0 {
		t.Errorf("detector stride %d threshold %v", m.Output.Stride, m.Decode.Threshold)
	}
}

// TestTotalSize keeps the shipped models within the 20 MB budget.
func TestTotalSize(t *testing.T) {
	total := 0
	for _, name := range []string{"tile_detector", "tile_classifier"} {
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
