package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/vision"
)

// upload is a multipart upload read whole: the photos and the text fields.
type upload struct {
	photos map[string][]byte
	fields map[string]string
}

// maxFields bounds the form's text parts: the page sends a handful.
const (
	maxFields    = 16
	maxFieldSize = 64 << 10
)

// readUpload reads a multipart/form-data body: one photo in the field
// "photo" (the whole table), and/or one in each of "hand", "melds", "dora"
// and "flowers". The body limit already bounds the total. The parts are
// copied into one slab the size of the body (their data can only be
// shorter), held in flight like the body itself.
func (s *Server) readUpload(c echo.Context) (*upload, error) {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, problem(http.StatusUnsupportedMediaType, codeUnsupportedType, `send the photo as multipart/form-data in the field "photo"`)
	}
	body, err := requestBody(c)
	if err != nil {
		return nil, err
	}
	if err := s.holdBytes(c.Request().Context(), int64(len(body))); err != nil {
		return nil, err
	}
	slab := make([]byte, 0, len(body))
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	u := &upload{photos: map[string][]byte{}, fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the upload is not a well-formed multipart form; send the photo in the field \"photo\"")
		}
		name := part.FormName()
		var data []byte
		data, slab, err = readPart(part, slab)
		if err != nil {
			return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the upload was cut off; please send it again")
		}
		switch {
		case app.IsPhotoPart(name):
			if _, dup := u.photos[name]; dup {
				return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, fmt.Sprintf("two photos in the field %q: send one photo per field", name))
			}
			u.photos[name] = data
		case len(u.fields) >= maxFields || len(data) > maxFieldSize:
			return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the form has too many or too large fields")
		default:
			u.fields[name] = string(data)
		}
	}
	if len(u.photos) == 0 {
		return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "no photo: send it in the multipart field \"photo\" (or the hand, melds, dora and flowers apart, in fields of those names)")
	}
	return u, nil
}

// readPart appends a part's data to slab and returns it (capped, so that
// nothing appended later can reach it) and the grown slab. The slab never
// grows: a part longer than what is left of it is refused.
func readPart(part io.Reader, slab []byte) (data, rest []byte, err error) {
	start := len(slab)
	for {
		if len(slab) == cap(slab) {
			var b [1]byte
			if n, _ := part.Read(b[:]); n > 0 {
				return nil, slab, errors.New("a part is longer than the body")
			}
			break
		}
		n, err := part.Read(slab[len(slab):cap(slab)])
		slab = slab[:len(slab)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, slab, err
		}
	}
	return slab[start:len(slab):len(slab)], slab, nil
}

// photoPixels is the pixel count in an image's header, 0 when it has none.
func photoPixels(photo []byte) int64 { return app.PhotoPixels(photo) }

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
	ctx := c.Request().Context()
	read, err := s.app.Recognize(ctx, u.photos, u.fields["id"])
	if err != nil {
		return err
	}
	var out any
	if rec, ok := read.Parts["photo"]; ok && len(read.Parts) == 1 {
		// The CONTRACT shape: one photo, one recognition.
		resp := RecognitionResponse{Recognition: rec, Versions: s.versions()}
		if c.QueryParam("overlay") == "png" && rec.OK {
			if resp.Overlay, err = s.overlay(ctx, u.photos["photo"], rec); err != nil {
				return err
			}
		}
		out = resp
	} else {
		out = PartsResponse{ID: u.fields["id"], OK: read.Failure == nil, Parts: read.Parts, Hand: read.Seen, Error: read.Failure, Versions: s.versions()}
	}
	if f := read.Failure; f != nil {
		return fault.New(fault.Unprocessable, f.Code, f.Message).WithBody(out)
	}
	return c.JSON(http.StatusOK, out)
}

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
	snap, err := s.app.SnapAndScore(c.Request().Context(), u.photos, u.fields["id"], sit)
	if err != nil {
		return err
	}
	out := SnapResponse{Recognition: snap.Recognition, Parts: snap.Parts, Request: snap.Request, Result: snap.Result,
		Versions: s.scoreVersions(snap.Request, &snap.Result)}
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
