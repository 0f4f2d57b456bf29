package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/scoring"
	"mjscan/vision"
)

// SnapResponse is a photo read and scored in one go: what was seen, the
// hand request built from it and the situation, and its score.
type SnapResponse struct {
	Recognition *vision.Recognition `json:"recognition"`
	// Parts holds every photo's recognition when they were sent apart.
	Parts    map[string]*vision.Recognition `json:"parts,omitempty"`
	Request  *scoring.Request               `json:"request"`
	Result   scoring.Result                 `json:"result"`
	Versions Versions                       `json:"versions"`
}

// postSnapAndScore reads a photo and scores the hand it shows under the
// situation in the form field "situation" (a hand request without tiles:
// rules, winds, self-draw, riichi, dora…), put together by the one merge
// rule (internal/app). It answers 200 whenever the photo was read, even
// when the hand does not score: the result says why, and the page lets the
// player fix the tiles.
func (s *Server) postSnapAndScore(c echo.Context) error {
	if err := s.app.CanRecognize(); err != nil {
		return err
	}
	u, err := s.readUpload(c)
	if err != nil {
		return err
	}
	var sit scoring.Request
	if raw := strings.TrimSpace(u.fields["situation"]); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sit); err != nil {
			return jsonProblem(err, &sit, `the field "situation"`)
		}
	}
	if err := s.useTileSet(c, u); err != nil {
		return err
	}
	ctx := app.WithRecognizer(c.Request().Context(), s.recognizer(c))
	snap, err := s.app.SnapAndScore(ctx, u.photos, u.fields["id"], sit)
	if err != nil {
		return err
	}
	out := SnapResponse{Recognition: snap.Recognition, Parts: snap.Parts, Request: snap.Request, Result: snap.Result,
		Versions: withTileSet(c, s.scoreVersions(snap.Request, &snap.Result))}
	return c.JSON(http.StatusOK, out)
}
