package models

import (
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
	if len(m.Labels) != 42 || m.Labels[0] != "1m" || m.Labels[41] != "8f" || m.Temperature <= 0 {
		t.Errorf("classifier labels %v temperature %v: want the 42 codes 1m…8f and a fitted temperature", m.Labels, m.Temperature)
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
