package api

import (
	"context"
	"encoding/base64"
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/vision"
)

// RecognitionResponse is the CONTRACT recognition (section 5) with the
// grouped hand, plus the versions that produced it.
type RecognitionResponse struct {
	*vision.Recognition
	// Overlay is the photo with boxes and codes drawn, as a PNG data URL,
	// when the request asks for it with ?overlay=png.
	Overlay  string   `json:"overlay,omitempty"`
	Versions Versions `json:"versions"`
}

// PartsResponse answers an upload of separate photos (hand, melds, dora,
// flowers): each part's recognition and the hand request put together
// from all of them.
type PartsResponse struct {
	ID       string                         `json:"id"`
	OK       bool                           `json:"ok"`
	Parts    map[string]*vision.Recognition `json:"parts"`
	Hand     *scoring.Request               `json:"hand"`
	Error    *scoring.Error                 `json:"error"`
	Versions Versions                       `json:"versions"`
}

func (s *Server) postRecognition(c echo.Context) error {
	if err := s.app.CanRecognize(); err != nil {
		return err
	}
	u, err := s.readUpload(c)
	if err != nil {
		return err
	}
	if err := s.useTileSet(c, u); err != nil {
		return err
	}
	ctx := app.WithRecognizer(c.Request().Context(), s.recognizer(c))
	read, err := s.app.Recognize(ctx, u.photos, u.fields["id"])
	if err != nil {
		return err
	}
	var out any
	if rec, ok := read.Parts["photo"]; ok && len(read.Parts) == 1 {
		// The CONTRACT shape: one photo, one recognition.
		resp := RecognitionResponse{Recognition: rec, Versions: withTileSet(c, s.versions())}
		if c.QueryParam("overlay") == "png" && rec.OK {
			if resp.Overlay, err = s.overlay(ctx, u.photos["photo"], rec); err != nil {
				return err
			}
		}
		out = resp
	} else {
		out = PartsResponse{ID: u.fields["id"], OK: read.Failure == nil, Parts: read.Parts, Hand: read.Seen, Error: read.Failure, Versions: withTileSet(c, s.versions())}
	}
	if f := read.Failure; f != nil {
		return fault.New(fault.Unprocessable, f.Code, f.Message).WithBody(out)
	}
	return c.JSON(http.StatusOK, out)
}

// overlay draws the recognition on the photo as a PNG data URL.
func (s *Server) overlay(ctx context.Context, photo []byte, rec *vision.Recognition) (string, error) {
	png, err := s.app.Overlay(ctx, photo, rec)
	if err != nil {
		return "", err
	}
	// The PNG, its base64 text and the JSON answer around it live until the
	// answer is written: about four times the PNG, held in flight.
	if err := s.holdBytes(ctx, 4*int64(len(png))); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
