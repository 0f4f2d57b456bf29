package app

import (
	"mjscan/scoring"
	"mjscan/vision"
)

// combineParts puts one hand request together from the photos: the whole
// table's grouping first, then each separate part in its own role (the
// hand photo's complete hand, or every tile it shows in reading order; the
// melds photo's melds; every tile of the dora and flowers photos).
func combineParts(recs map[string]*vision.Recognition) *scoring.Request {
	req := &scoring.Request{}
	if rec, ok := recs["photo"]; ok && rec.Hand != nil {
		*req = *rec.Hand
	}
	if rec, ok := recs["hand"]; ok {
		if rec.Hand != nil && rec.Hand.Hand != "" {
			req.Hand, req.WinTile = rec.Hand.Hand, rec.Hand.WinTile
		} else {
			req.Hand, req.WinTile = tilesOf(rec), ""
		}
	}
	if rec, ok := recs["melds"]; ok && rec.Hand != nil && len(rec.Hand.Melds) > 0 {
		req.Melds = rec.Hand.Melds
	}
	if rec, ok := recs["dora"]; ok {
		req.DoraIndicators = tilesOf(rec)
	}
	if rec, ok := recs["flowers"]; ok {
		req.Flowers = tilesOf(rec)
	}
	return req
}

// tilesOf writes every tile seen, in reading order, as one tile string.
func tilesOf(rec *vision.Recognition) string {
	ts := make([]scoring.Tile, len(rec.Tiles))
	for i, t := range rec.Tiles {
		ts[i] = t.Tile
	}
	return scoring.FormatTiles(ts)
}

// mergeSituation fills the tiles of the situation from the photos' hand
// where the situation leaves them empty.
func mergeSituation(sit *scoring.Request, id string, g *scoring.Request) *scoring.Request {
	req := *sit
	if req.ID == "" {
		req.ID = id
	}
	if req.Hand == "" {
		req.Hand = g.Hand
		if req.WinTile == "" {
			req.WinTile = g.WinTile
		}
		if len(req.Melds) == 0 {
			req.Melds = g.Melds
		}
	}
	if req.Flowers == "" {
		req.Flowers = g.Flowers
	}
	if req.DoraIndicators == "" {
		req.DoraIndicators = g.DoraIndicators
	}
	return &req
}
