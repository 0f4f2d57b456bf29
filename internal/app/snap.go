package app

import (
	"context"

	"mjscan/scoring"
	"mjscan/vision"
)

// DefaultRules is the rule set of a snap-and-score whose situation names
// none.
const DefaultRules = "riichi"

// Snap is a photo read and scored in one go.
type Snap struct {
	// Recognition is the whole-table photo's, when one was sent.
	Recognition *vision.Recognition
	// Parts holds every photo's recognition when they were sent apart.
	Parts map[string]*vision.Recognition
	// Request is the hand scored: the photos' tiles merged with the
	// situation (Merge).
	Request *scoring.Request
	Result  scoring.Result
}

// SnapAndScore reads the photos and scores the hand they show under the
// situation the player sent (a hand request, usually without tiles: rules,
// winds, self-draw, riichi, dora…). A photo that was read answers a Snap
// even when its hand does not score: the result says why, so the player
// can fix the tiles.
func (a *App) SnapAndScore(ctx context.Context, photos Photos, id string, sit scoring.Request) (*Snap, error) {
	if err := a.CanRecognize(); err != nil {
		return nil, err
	}
	if sit.Rules == "" {
		sit.Rules = DefaultRules
	}
	if err := CheckRules(&sit); err != nil {
		return nil, err
	}
	read, err := a.Recognize(ctx, photos, id)
	if err != nil {
		return nil, err
	}
	req := Merge(&sit, read.Seen, id)
	out := &Snap{Recognition: read.Parts["photo"], Request: req}
	if len(read.Parts) > 1 || read.Parts["photo"] == nil {
		out.Parts = read.Parts
	}
	if req.Hand == "" {
		out.Result = scoring.Fail(req, scoring.Errorf(scoring.CodeWrongTileCount, "no hand was found in the photo: take it again with the tiles face up, or enter them by hand"))
		return out, nil
	}
	if out.Result, err = a.Score(ctx, req); err != nil {
		return nil, err
	}
	return out, nil
}
