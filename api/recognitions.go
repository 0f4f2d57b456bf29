package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the photo formats whose headers are checked here
	_ "image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"mjscan/scoring"
	"mjscan/vision"
)

// upload is a multipart upload read whole: the photo and the text fields.
type upload struct {
	photo  []byte
	fields map[string]string
}

// maxFields bounds the form's text parts: the page sends a handful.
const (
	maxFields    = 16
	maxFieldSize = 64 << 10
)

// readUpload reads a multipart/form-data body with exactly one photo in
// the field "photo". The body limit already bounds the total.
func readUpload(c echo.Context) (*upload, error) {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, problem(http.StatusUnsupportedMediaType, codeUnsupportedType, `send the photo as multipart/form-data in the field "photo"`)
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, err
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	u := &upload{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the upload is not a well-formed multipart form; send the photo in the field \"photo\"")
		}
		name := part.FormName()
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the upload was cut off; please send it again")
		}
		switch {
		case name == "photo":
			if u.photo != nil {
				return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "send one photo per request in the field \"photo\"")
			}
			u.photo = data
		case len(u.fields) >= maxFields || len(data) > maxFieldSize:
			return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the form has too many or too large fields")
		default:
			u.fields[name] = string(data)
		}
	}
	if u.photo == nil {
		return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "no photo: send it in the multipart field \"photo\"")
	}
	return u, nil
}

// checkPhoto reads only the image header: the format must be JPEG or PNG
// and the pixel count under the cap, before anything is decoded.
func (s *Server) checkPhoto(photo []byte) error {
	defer s.metrics.step("photo_header", time.Now())
	cfg, _, err := image.DecodeConfig(bytes.NewReader(photo))
	if err != nil {
		return problem(http.StatusUnsupportedMediaType, codeNotAPhoto, "this file is not a photo the service can read: send a JPEG or PNG image")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return problem(http.StatusUnsupportedMediaType, codeNotAPhoto, "the image has no pixels")
	}
	if mp := float64(cfg.Width) * float64(cfg.Height) / 1e6; mp > s.cfg.MaxMegapixels {
		return problem(http.StatusRequestEntityTooLarge, codeTooLarge,
			fmt.Sprintf("the photo is %.0f megapixels; at most %g are accepted: send a smaller photo", mp, s.cfg.MaxMegapixels))
	}
	return nil
}

func (s *Server) noRecognizer() *Problem {
	msg := "photo recognition is not available on this server; you can still enter the tiles by hand"
	if s.deps.RecognizerError != "" {
		msg += " (the recogniser did not load: " + s.deps.RecognizerError + ")"
	}
	return problem(http.StatusServiceUnavailable, codeNoRecognition, msg)
}

// recognize checks and reads one photo on the worker pool.
func (s *Server) recognize(c echo.Context, u *upload) (*vision.Recognition, error) {
	if err := s.checkPhoto(u.photo); err != nil {
		return nil, err
	}
	var rec *vision.Recognition
	var recErr error
	err := s.work(c.Request().Context(), func() error {
		defer s.metrics.step("recognize", time.Now())
		rec, recErr = s.deps.Recognizer.Recognize(c.Request().Context(), u.photo)
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case errors.Is(recErr, vision.ErrNotAPhoto):
		return nil, problem(http.StatusUnsupportedMediaType, codeNotAPhoto, "this file is not a photo the service can read: send a JPEG or PNG image")
	case recErr != nil:
		s.log.Printf("error: recognition: %v", recErr)
		return nil, problem(http.StatusInternalServerError, codeRecognition, "the service could not read this photo; try again with the tiles in good light, face up and filling the frame")
	case rec == nil:
		return nil, problem(http.StatusInternalServerError, codeRecognition, "the recogniser returned nothing for this photo")
	}
	rec.ID = u.fields["id"]
	return rec, nil
}

// RecognitionResponse is the CONTRACT recognition (section 5) with the
// grouped hand, plus the versions that produced it.
type RecognitionResponse struct {
	*vision.Recognition
	Versions Versions `json:"versions"`
}

func (s *Server) postRecognition(c echo.Context) error {
	if s.deps.Recognizer == nil {
		return s.noRecognizer()
	}
	u, err := readUpload(c)
	if err != nil {
		return err
	}
	rec, err := s.recognize(c, u)
	if err != nil {
		return err
	}
	out := RecognitionResponse{Recognition: rec, Versions: s.versions()}
	if !rec.OK {
		code, msg := codeRecognition, "the tiles in this photo could not be read"
		if rec.Error != nil {
			code, msg = rec.Error.Code, rec.Error.Message
		}
		p := problem(http.StatusUnprocessableEntity, code, msg)
		p.Ext = out
		return p
	}
	return c.JSON(http.StatusOK, out)
}

// SnapResponse is a photo read and scored in one go: what was seen, the
// hand request built from it and the situation, and its score.
type SnapResponse struct {
	Recognition *vision.Recognition `json:"recognition"`
	Request     *scoring.Request    `json:"request"`
	Result      scoring.Result      `json:"result"`
	Versions    Versions            `json:"versions"`
}

// postSnapAndScore reads a photo and scores the hand it shows under the
// situation in the form field "situation" (a hand request without tiles:
// rules, winds, self-draw, riichi, dora…). Tiles given in the situation win
// over the photo's, so a player can correct what was misread. It answers
// 200 whenever the photo was read, even when the hand does not score: the
// result says why, and the page lets the player fix the tiles.
func (s *Server) postSnapAndScore(c echo.Context) error {
	if s.deps.Recognizer == nil {
		return s.noRecognizer()
	}
	u, err := readUpload(c)
	if err != nil {
		return err
	}
	var sit scoring.Request
	if raw := strings.TrimSpace(u.fields["situation"]); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sit); err != nil {
			return problem(http.StatusBadRequest, scoring.CodeBadRequest, "the field \"situation\" is not valid JSON for a hand request: "+jsonMessage(err.Error()))
		}
	}
	if sit.Rules == "" {
		sit.Rules = "riichi"
	}
	if p := checkRules(&sit); p != nil {
		return p
	}
	rec, err := s.recognize(c, u)
	if err != nil {
		return err
	}
	req := mergeSituation(&sit, rec)
	out := SnapResponse{Recognition: rec, Request: req}
	if req.Hand == "" {
		out.Result = scoring.Fail(req, scoring.Errorf(scoring.CodeWrongTileCount, "no hand was found in the photo: take it again with the tiles face up, or enter them by hand"))
	} else {
		if out.Result, err = s.score(c, req); err != nil {
			return err
		}
	}
	out.Versions = s.scoreVersions(req, &out.Result)
	return c.JSON(http.StatusOK, out)
}

// mergeSituation fills the tiles of the situation from the photo's grouped
// hand where the situation leaves them empty.
func mergeSituation(sit *scoring.Request, rec *vision.Recognition) *scoring.Request {
	req := *sit
	if rec.ID != "" && req.ID == "" {
		req.ID = rec.ID
	}
	g := rec.Hand
	if g == nil {
		return &req
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
