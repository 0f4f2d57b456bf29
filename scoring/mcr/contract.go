package mcr

import "mjscan/scoring"

// The CONTRACT tile codes, read into fixed arrays so that scoring a
// request allocates nothing until its result is built. Errors are worded
// by the shared parser (scoring.ParseTiles), which this one agrees with.

// scanCodes reads CONTRACT codes into dst; ok is false on any error,
// including more tiles than dst holds.
func scanCodes(s string, dst []scoring.Tile) (n int, ok bool) {
	if len(s) > 256 {
		return 0, false
	}
	pending := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if n == len(dst) {
				return n, false
			}
			dst[n] = scoring.Tile(c)
			n++
			pending++
		case c == ' ':
		case c == 'm' || c == 'p' || c == 's' || c == 'z' || c == 'f' || c == 'k' || c == 'j':
			if pending == 0 {
				return n, false
			}
			for j := n - pending; j < n; j++ {
				t, good := scoring.MakeTile(byte(dst[j]), c)
				if !good {
					return n, false
				}
				dst[j] = t
			}
			pending = 0
		default:
			return n, false
		}
	}
	return n, pending == 0
}

func tilesError(field, s string, limit int) *scoring.Error {
	if _, err := scoring.ParseTiles(s); err != nil {
		return scoring.Errorf(scoring.CodeBadRequest, "%s: %v", field, err)
	}
	return scoring.Errorf(scoring.CodeWrongTileCount, "%s: more than %d tiles", field, limit)
}

// parseContract reads a request in CONTRACT codes.
func parseContract(r *scoring.Request, hi *handInput) *scoring.Error {
	var concealed [maxConcealed]scoring.Tile
	n, ok := scanCodes(r.Hand, concealed[:])
	if !ok {
		return tilesError("hand", r.Hand, maxConcealed)
	}
	if n == 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "the hand is empty: give the concealed tiles in \"hand\"")
	}
	win := concealed[n-1]
	if r.WinTile != "" {
		var w [1]scoring.Tile
		if k, ok := scanCodes(r.WinTile, w[:]); !ok || k != 1 {
			if _, err := scoring.ParseTiles(r.WinTile); err != nil {
				return scoring.Errorf(scoring.CodeBadRequest, "win_tile: %v", err)
			}
			return scoring.Errorf(scoring.CodeBadRequest, "win_tile: want one tile, got %q", r.WinTile)
		}
		win = w[0]
	}
	if len(r.Melds) > 4 {
		return scoring.Errorf(scoring.CodeBadRequest, "%d melds: a hand has at most four sets", len(r.Melds))
	}
	var meldTiles [4][4]scoring.Tile
	var melds [4]scoring.Meld
	for i := range r.Melds {
		ms := &r.Melds[i]
		m := &melds[i]
		var err error
		if m.Type, err = scoring.ParseMeldType(ms.Type); err != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %v", i, err)
		}
		k, ok := scanCodes(ms.Tiles, meldTiles[i][:])
		if !ok {
			if _, err := scoring.ParseTiles(ms.Tiles); err != nil {
				return scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %v", i, err)
			}
			return scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a meld holds 3 or 4 tiles, got %q", i, ms.Tiles)
		}
		m.Tiles = meldTiles[i][:k]
		if m.From, err = scoring.ParseFrom(ms.From); err != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %v", i, err)
		}
		if m.Type == scoring.Ankan {
			m.From = scoring.FromNone
		}
		m.Called = scoring.NoTile
	}
	var flowers [8]scoring.Tile
	f, ok := scanCodes(r.Flowers, flowers[:])
	if !ok {
		if _, err := scoring.ParseTiles(r.Flowers); err != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "flowers: %v", err)
		}
		return scoring.Errorf(scoring.CodeBadRequest, "flowers: more than the eight flowers and seasons")
	}
	return buildInput(hi, concealed[:n], win, melds[:len(r.Melds)], flowers[:f], r)
}
