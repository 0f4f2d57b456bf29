package scoring

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestTileJSONIsItsCode: a Tile travels in JSON as its CONTRACT code, and
// every code reads back to the same tile.
func TestTileJSONIsItsCode(t *testing.T) {
	for v := Tile(0); v < NumTiles; v++ {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		if want := `"` + v.String() + `"`; string(b) != want {
			t.Errorf("%v marshals to %s, want %s", v, b, want)
		}
		var back Tile
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("%s reads back as %v (%v)", b, back, err)
		}
	}
	var ts []Tile
	if err := json.Unmarshal([]byte(`["1m","0p","7z","9j"]`), &ts); err != nil || FormatTiles(ts) != "1m0p7z9j" {
		t.Errorf("a list of codes reads as %v (%v)", ts, err)
	}
	var bad Tile
	err := json.Unmarshal([]byte(`"8z"`), &bad)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("8z: %v, want a SyntaxError", err)
	}
	if _, err := json.Marshal(NoTile); err == nil {
		t.Error("NoTile marshalled")
	}
}
