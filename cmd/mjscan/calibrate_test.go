package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/vision"
)

// TestCalibrateThenRecognize: calibrate on the egypt grid, then read an
// egypt scene with the bank, as text, as JSON lines, and as an evaluation.
func TestCalibrateThenRecognize(t *testing.T) {
	dir := t.TempDir()
	bank := filepath.Join(dir, "egypt.mjb")
	overlay := filepath.Join(dir, "grid.png")
	var out, errOut bytes.Buffer
	if code := cmdCalibrate([]string{"../../testdata/synth/egypt-grid.jpg", "--out", bank, "--overlay", overlay}, &out, &errOut); code != 0 {
		t.Fatalf("calibrate: exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"row 1: 1m 2m 3m 4m 5m 6m 7m 8m 9m", "row 6: 0m 0p 0s 0z", "46 templates written to " + bank, "the network alone reads"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("calibrate output lacks %q:\n%s", want, out.String())
		}
	}
	for _, f := range []string{bank, overlay} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}

	scene := "../../testdata/synth/egypt/synth_3_00001.jpg"
	out.Reset()
	if code := cmdRecognize([]string{"--bank", bank, "--json", scene}, nil, &out, &errOut); code != 0 {
		t.Fatalf("recognize --bank: exit %d: %s", code, errOut.String())
	}
	plain := bytes.Buffer{}
	if code := cmdRecognize([]string{"--json", scene}, nil, &plain, &errOut); code != 0 {
		t.Fatalf("recognize: exit %d: %s", code, errOut.String())
	}
	if out.String() == plain.String() {
		t.Error("the bank changed nothing in an egypt scene")
	}

	out.Reset()
	in := `{"id":"a","path":"` + scene + `"}`
	if code := cmdRecognize([]string{"--bank", bank, "--jsonl"}, strings.NewReader(in), &out, &errOut); code != 0 {
		t.Fatalf("recognize --bank --jsonl: exit %d: %s", code, errOut.String())
	}
	var r struct {
		ID    string            `json:"id"`
		OK    bool              `json:"ok"`
		Tiles []json.RawMessage `json:"tiles"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.ID != "a" || !r.OK || len(r.Tiles) == 0 {
		t.Errorf("recognize --bank --jsonl: %v %s", err, out.String())
	}

	out.Reset()
	if code := cmdRecognize([]string{"--bank", bank, "--eval", "../../testdata/synth/egypt", "--mistakes"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "tile F1") {
		t.Errorf("recognize --bank --eval: exit %d: %s%s", code, out.String(), errOut.String())
	}
	// --mistakes names each photo read with a mistake before the metrics.
	if first, _, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(first, "photos with a mistake: ") {
		t.Errorf("recognize --eval --mistakes: first line %q", first)
	}

	// The service reads with the bank named in MJSCAN_BANK.
	apiURL, _ := startServe(t, map[string]string{"MJSCAN_BANK": bank})
	ct, body := photoForm(t)
	resp, err := http.Post(apiURL+"/v1/recognitions", ct, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("recognition with MJSCAN_BANK: status %d", resp.StatusCode)
	}
}

// TestCalibrateErrors: a photo that is not the grid, and a bank file that
// is not a bank, fail with a reason and a non-zero exit.
func TestCalibrateErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	if code := cmdCalibrate([]string{"../../testdata/photos/hand-017.jpg", "--out", filepath.Join(dir, "b.mjb")}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "not laid out in the calibration grid") || !strings.Contains(errOut.String(), "row 1:") {
		t.Errorf("calibrate on a hand photo: exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "b.mjb")); err == nil {
		t.Error("a bank was written for a bad grid")
	}
	errOut.Reset()
	if code := cmdCalibrate(nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "row 4: 1z 2z 3z 4z 5z 6z 7z") {
		t.Errorf("calibrate without a photo: exit %d, usage:\n%s", code, errOut.String())
	}
	errOut.Reset()
	if code := cmdRecognize([]string{"--bank", "../../go.mod", "../../testdata/photos/hand-017.jpg"}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not a template bank") {
		t.Errorf("recognize with a bad bank: exit %d: %s", code, errOut.String())
	}
	errOut.Reset()
	env := map[string]string{"MJSCAN_BANK": "../../go.mod", "MJSCAN_ADDR": "127.0.0.1:0", "MJSCAN_METRICS_ADDR": "off"}
	if code := serve(context.Background(), nil, func(k string) string { return env[k] }, &errOut, nil); code != 2 || !strings.Contains(errOut.String(), "MJSCAN_BANK") {
		t.Errorf("serve with a bad bank: exit %d: %s", code, errOut.String())
	}
}

// TestRenderTaughtNamesBlurred: the report of a taught set names the codes
// taught only from blurred tiles, and says how to teach them better; a
// set with none says nothing of it.
func TestRenderTaughtNamesBlurred(t *testing.T) {
	b := &vision.Bank{
		Examples: []vision.Example{{Code: "4j"}, {Code: "6j"}},
		Head:     &vision.Head{Codes: []string{"4j", "6j"}, Trust: []float32{1, 0.3}},
	}
	photos := []vision.LabelledPhoto{{Name: "a"}}
	if got := renderTaught(b, photos, "set.mjb"); !strings.Contains(got, "taught only from blurred tiles, so read mostly as the shipped models read them: 6j (teach a sharper photo of them with --grow)") {
		t.Errorf("the report does not name 6j as blurred:\n%s", got)
	}
	b.Head.Trust = nil
	if got := renderTaught(b, photos, "set.mjb"); strings.Contains(got, "blurred") {
		t.Errorf("a set trusted in every code is reported blurred:\n%s", got)
	}
}

// TestRenderTaughtNamesKnownSet: a set the network already reads (its
// head's prior at or above the known-set share) is reported as read as
// the shipped models read it; one it reads badly is not.
func TestRenderTaughtNamesKnownSet(t *testing.T) {
	b := &vision.Bank{
		Examples: []vision.Example{{Code: "1m"}, {Code: "2m"}},
		Head:     &vision.Head{Codes: []string{"1m", "2m"}, Prior: 1, Tiles: 87},
	}
	photos := []vision.LabelledPhoto{{Name: "a"}}
	if got := renderTaught(b, photos, "set.mjb"); !strings.Contains(got, "the shipped models already read this set (87 of its 87 taught tiles right), so photos are read with it as they read them") {
		t.Errorf("the report does not say the set is known:\n%s", got)
	}
	b.Head.Prior = 0.8
	if got := renderTaught(b, photos, "set.mjb"); strings.Contains(got, "already read") {
		t.Errorf("a set the network reads 80%% of is reported known:\n%s", got)
	}
}
