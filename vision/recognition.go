package vision

import "mjscan/scoring"

// Recognition is the CONTRACT recognition result (section 5), plus the
// grouping of the tiles into a hand request.
type Recognition struct {
	ID     string           `json:"id"`
	OK     bool             `json:"ok"`
	Width  int              `json:"width"`
	Height int              `json:"height"`
	Tiles  []TileSeen       `json:"tiles"`
	Hand   *scoring.Request `json:"hand,omitempty"` // the grouped hand, ready to score
	Groups []Group          `json:"groups,omitempty"`
	Error  *scoring.Error   `json:"error"`
}

// TileSeen is one tile found in the photo. Box is [x0, y0, x1, y1] in
// pixels of the image as shown to a person (after EXIF orientation).
//
// Tile is typed from the moment the classifier's labels are loaded; in
// JSON it is the CONTRACT code ("5p"), as every tile string.
type TileSeen struct {
	Tile         scoring.Tile  `json:"tile"`
	Box          [4]int        `json:"box"`
	Confidence   float64       `json:"confidence"`
	Rotated      bool          `json:"rotated"`
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// sure is how surely the classifier, or a taught set's head, read the
	// tile before the part reader weighed the reading (readParts); 0 where
	// the tile was not read by readTiles.
	sure float64
}

// sureness is how surely a tile was read before the part reader weighed
// it: the choices between two readings of a photo (readLight,
// recognizeMat, withMissed) are made on it, as they were tuned before the
// part reader, so that the reader changes only which king or queen a tile
// is reported as.
func (t TileSeen) sureness() float64 {
	if t.sure > 0 {
		return t.sure
	}
	return t.Confidence
}

// Alternative is another reading of a tile and its confidence.
type Alternative struct {
	Tile       scoring.Tile `json:"tile"`
	Confidence float64      `json:"confidence"`
}

// Group is a run of tiles the layout step put together: the concealed
// hand, a called meld, a concealed kong, dora indicators or flowers.
type Group struct {
	Kind  string `json:"kind"`  // "hand", "win", "meld", "ankan", "dora", "flowers", "loose"
	Tiles []int  `json:"tiles"` // indexes into Recognition.Tiles
	From  string `json:"from,omitempty"`
}
