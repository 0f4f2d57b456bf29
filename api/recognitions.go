package api

import (
	"bytes"
	"context"
	"encoding/base64"
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

// photoParts are the form fields that carry photos: the whole table in
// "photo", or the parts of a hand photographed one by one.
var photoParts = []string{"photo", "hand", "melds", "dora", "flowers"}

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

func isPhotoPart(name string) bool {
	for _, p := range photoParts {
		if p == name {
			return true
		}
	}
	return false
}

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
		case isPhotoPart(name):
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

// checkPhoto reads only the image header: the format must be JPEG or PNG
// and the pixel count under the cap, before anything is decoded. It
// returns the pixel count, what decoding the photo will cost.
func (s *Server) checkPhoto(photo []byte) (int64, error) {
	defer s.metrics.step("photo_header", time.Now())
	cfg, _, err := image.DecodeConfig(bytes.NewReader(photo))
	if err != nil {
		return 0, problem(http.StatusUnsupportedMediaType, codeNotAPhoto, "this file is not a photo the service can read: send a JPEG or PNG image")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, problem(http.StatusUnsupportedMediaType, codeNotAPhoto, "the image has no pixels")
	}
	if err := vision.CheckShape(cfg.Width, cfg.Height); err != nil {
		return 0, problem(http.StatusUnsupportedMediaType, codeNotAPhoto, err.Error())
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if mp := float64(px) / 1e6; mp > s.cfg.MaxMegapixels {
		return 0, problem(http.StatusRequestEntityTooLarge, codeTooLarge,
			fmt.Sprintf("the photo is %.0f megapixels; at most %g are accepted: send a smaller photo", mp, s.cfg.MaxMegapixels))
	}
	return px, nil
}

// photoPixels is the pixel count in an image's header, 0 when it has none
// (the decoder then refuses it before decoding anything).
func photoPixels(photo []byte) int64 {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(photo))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0
	}
	return int64(cfg.Width) * int64(cfg.Height)
}

func (s *Server) noRecognizer() *Problem {
	msg := "photo recognition is not available on this server; you can still enter the tiles by hand"
	if s.deps.RecognizerError != "" {
		msg += " (the recogniser did not load: " + s.deps.RecognizerError + ")"
	}
	return problem(http.StatusServiceUnavailable, codeNoRecognition, msg)
}

// recognizeAll reads every photo of an upload, in the order of
// photoParts, and names the part in any problem.
func (s *Server) recognizeAll(c echo.Context, u *upload) (map[string]*vision.Recognition, error) {
	out := map[string]*vision.Recognition{}
	for _, name := range photoParts {
		data, ok := u.photos[name]
		if !ok {
			continue
		}
		rec, err := s.recognize(c.Request().Context(), data)
		if err != nil {
			var p *Problem
			if name != "photo" && errors.As(err, &p) {
				p.Detail = fmt.Sprintf("the %s photo: %s", name, p.Detail)
			}
			return nil, err
		}
		rec.ID = u.fields["id"]
		out[name] = rec
	}
	return out, nil
}

// recognize checks and reads one photo on the worker pool, its pixels
// counted in the decode budget.
func (s *Server) recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	px, err := s.checkPhoto(photo)
	if err != nil {
		return nil, err
	}
	var rec *vision.Recognition
	var recErr error
	err = s.decodeWork(ctx, px, func() error {
		defer s.metrics.step("recognize", time.Now())
		rec, recErr = s.deps.Recognizer.Recognize(ctx, photo)
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case errors.Is(recErr, context.DeadlineExceeded):
		return nil, problem(http.StatusServiceUnavailable, codeTimeout, "reading this photo took longer than the service allows ("+s.cfg.RequestTimeout.String()+"); please try again")
	case errors.Is(recErr, context.Canceled):
		return nil, problem(499, codeTimeout, "the request was cancelled")
	case errors.Is(recErr, vision.ErrTooLarge):
		return nil, problem(http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("the photo is larger than the recogniser reads (%d megapixels): send a smaller photo", vision.MaxMegapixels))
	case errors.Is(recErr, vision.ErrNotAPhoto):
		return nil, problem(http.StatusUnsupportedMediaType, codeNotAPhoto, "this file is not a photo the service can read: send a JPEG or PNG image")
	case recErr != nil:
		s.log.Printf("error: recognition: %v", recErr)
		return nil, problem(http.StatusInternalServerError, codeRecognition, "the service could not read this photo; try again with the tiles in good light, face up and filling the frame")
	case rec == nil:
		return nil, problem(http.StatusInternalServerError, codeRecognition, "the recogniser returned nothing for this photo")
	}
	return rec, nil
}

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
	if s.deps.Recognizer == nil {
		return s.noRecognizer()
	}
	u, err := s.readUpload(c)
	if err != nil {
		return err
	}
	recs, err := s.recognizeAll(c, u)
	if err != nil {
		return err
	}
	var out any
	var failed *scoring.Error
	if rec, ok := recs["photo"]; ok && len(recs) == 1 {
		// The CONTRACT shape: one photo, one recognition.
		resp := RecognitionResponse{Recognition: rec, Versions: s.versions()}
		if c.QueryParam("overlay") == "png" && rec.OK {
			if resp.Overlay, err = s.overlay(c.Request().Context(), u.photos["photo"], rec); err != nil {
				return err
			}
		}
		out = resp
		failed = recFailure(rec)
	} else {
		pr := PartsResponse{ID: u.fields["id"], OK: true, Parts: recs, Hand: combineParts(recs), Versions: s.versions()}
		for _, name := range photoParts {
			if rec, ok := recs[name]; ok && failed == nil {
				if failed = recFailure(rec); failed != nil {
					failed = scoring.Errorf(failed.Code, "the %s photo: %s", name, failed.Message)
				}
			}
		}
		pr.OK, pr.Error = failed == nil, failed
		out = pr
	}
	if failed != nil {
		p := problem(http.StatusUnprocessableEntity, failed.Code, failed.Message)
		p.Ext = out
		return p
	}
	return c.JSON(http.StatusOK, out)
}

// recFailure is why a recognition failed, or nil.
func recFailure(rec *vision.Recognition) *scoring.Error {
	if rec.OK {
		return nil
	}
	if rec.Error != nil {
		return rec.Error
	}
	return scoring.Errorf(codeRecognition, "the tiles in this photo could not be read")
}

// combineParts puts one hand request together from the photos: the whole
// table's grouping first, then each separate part in its own role.
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
// rules, winds, self-draw, riichi, dora…). Tiles given in the situation win
// over the photo's, so a player can correct what was misread. It answers
// 200 whenever the photo was read, even when the hand does not score: the
// result says why, and the page lets the player fix the tiles.
func (s *Server) postSnapAndScore(c echo.Context) error {
	if s.deps.Recognizer == nil {
		return s.noRecognizer()
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
	if sit.Rules == "" {
		sit.Rules = "riichi"
	}
	if p := checkRules(&sit); p != nil {
		return p
	}
	recs, err := s.recognizeAll(c, u)
	if err != nil {
		return err
	}
	req := mergeSituation(&sit, u.fields["id"], combineParts(recs))
	out := SnapResponse{Recognition: recs["photo"], Request: req}
	if len(recs) > 1 || recs["photo"] == nil {
		out.Parts = recs
	}
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

// overlay draws the recognition on the photo, on the worker pool like any
// OpenCV work (the photo is decoded again, whole).
func (s *Server) overlay(ctx context.Context, photo []byte, rec *vision.Recognition) (string, error) {
	var png []byte
	var drawErr error
	err := s.decodeWork(ctx, photoPixels(photo), func() error {
		defer s.metrics.step("overlay", time.Now())
		png, drawErr = vision.Overlay(photo, rec)
		return nil
	})
	if err != nil {
		return "", err
	}
	if drawErr != nil {
		s.log.Printf("error: overlay: %v", drawErr)
		return "", problem(http.StatusInternalServerError, codeRecognition, "the service read the photo but could not draw the overlay; ask again without overlay")
	}
	// The PNG, its base64 text and the JSON answer around it live until the
	// answer is written: about four times the PNG, held in flight.
	if err := s.holdBytes(ctx, 4*int64(len(png))); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
