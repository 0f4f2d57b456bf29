package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestRecognizeJSONL: the CONTRACT batch surface answers every line in
// order with its id, a bad line with an error line, and reads real photos.
func TestRecognizeJSONL(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"photo","path":"../../testdata/photos/hand-017.jpg"}`,
		`this is not json`,
		`{"id":"missing","path":"../../testdata/photos/no-such.jpg"}`,
		`{"id":"text","path":"../../go.mod"}`,
		`{"id":"again","path":"../../testdata/photos/dev-sample.jpg"}`,
	}, "\n")
	var out, errOut bytes.Buffer
	if code := cmdRecognize([]string{"--jsonl", "--workers", "2"}, strings.NewReader(in), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []struct {
		id string
		ok bool
	}{{"photo", true}, {"", false}, {"missing", false}, {"text", false}, {"again", true}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines out for %d in:\n%s", len(lines), len(want), out.String())
	}
	for i, line := range lines {
		var r struct {
			ID    string                 `json:"id"`
			OK    bool                   `json:"ok"`
			Tiles []json.RawMessage      `json:"tiles"`
			Error *struct{ Code string } `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		if r.ID != want[i].id || r.OK != want[i].ok || r.Tiles == nil {
			t.Errorf("line %d: id %q ok %v tiles %v, want id %q ok %v", i+1, r.ID, r.OK, r.Tiles, want[i].id, want[i].ok)
		}
		if !r.OK && (r.Error == nil || r.Error.Code != "bad_request") {
			t.Errorf("line %d: failed without a bad_request error: %s", i+1, line)
		}
		if r.OK && len(r.Tiles) < 10 {
			t.Errorf("line %d: only %d tiles read", i+1, len(r.Tiles))
		}
	}
}

// TestRecognizeHuman: the text output names the hand it found.
func TestRecognizeHuman(t *testing.T) {
	var out, errOut bytes.Buffer
	code := cmdRecognize([]string{"../../testdata/photos/hand-017.jpg"}, nil, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "hand: 234678s77722244z win 4z") {
		t.Fatalf("exit %d, output:\n%s%s", code, out.String(), errOut.String())
	}
}
