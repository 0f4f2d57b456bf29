package scoring

import "fmt"

// MarshalText writes the CONTRACT code ("5p", "0m", "7z"), so a Tile in
// JSON is the same string the tile strings use.
func (t Tile) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("tile %d has no code", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads exactly one CONTRACT tile code; a bad one is a
// *SyntaxError saying what was expected.
func (t *Tile) UnmarshalText(b []byte) error {
	v, err := ParseTile(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
