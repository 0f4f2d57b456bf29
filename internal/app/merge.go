package app

import (
	"mjscan/internal/fault"
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

// Merge is the one rule that puts the hand to score together from what a
// player sent (sit) and what the photos show (seen), for snap-and-score
// and score-now alike:
//
//   - Every situation field is the player's: rules, preset, options, the
//     winds, self-draw, riichi and the other flags, honba, riichi sticks,
//     ura dora. A photo does not show them.
//   - The tiles are the photo's, unless the player sent them, which is how
//     a player corrects a misread photo. A hand sent is sent whole: its
//     win_tile and melds come with it and none of the photo's are mixed
//     in. A win_tile or melds sent without a hand correct the photo's hand
//     (a win tile the recogniser cannot tell). Flowers and dora indicators
//     sent are the player's; those not sent are the photo's.
//
// id names the request when the player gave it no id. Neither argument
// is changed.
func Merge(sit *scoring.Request, seen *scoring.Request, id string) *scoring.Request {
	req := *sit
	if req.ID == "" {
		req.ID = id
	}
	if seen == nil {
		return &req
	}
	if req.Hand == "" {
		req.Hand = seen.Hand
		if req.WinTile == "" {
			req.WinTile = seen.WinTile
		}
		if len(req.Melds) == 0 {
			req.Melds = seen.Melds
		}
	}
	if req.Flowers == "" {
		req.Flowers = seen.Flowers
	}
	if req.DoraIndicators == "" {
		req.DoraIndicators = seen.DoraIndicators
	}
	return &req
}

// maxHandTiles bounds the tiles of a hand built from groups: a whole table
// of the largest set (American, 152 tiles) fits.
const maxHandTiles = 256

// HandFromGroups builds the hand that a recognition's groups make of its
// tiles, as the player corrected them (vision.HandFromGroups: the one
// place groups become a hand). complete says whether it is a whole hand
// ready to score. A recognition without groups is all hand.
func HandFromGroups(tiles []vision.TileSeen, groups []vision.Group) (*scoring.Request, bool, error) {
	if len(tiles) > maxHandTiles {
		return nil, false, fault.Newf(fault.Invalid, scoring.CodeBadRequest, "%d tiles: a table holds at most %d", len(tiles), maxHandTiles)
	}
	if len(groups) == 0 && len(tiles) > 0 {
		// No grouping: every tile is the hand, in reading order.
		g := vision.Group{Kind: "hand"}
		for i := range tiles {
			g.Tiles = append(g.Tiles, i)
		}
		groups = []vision.Group{g}
	}
	if err := vision.CheckGroups(tiles, groups); err != nil {
		return nil, false, fault.New(fault.Invalid, scoring.CodeBadRequest, err.Error())
	}
	req, complete := vision.HandFromGroups(tiles, groups)
	return req, complete, nil
}
