package api

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/scoring"
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
		return nil, fault.New(fault.Unsupported, codeUnsupportedType, `send the photo as multipart/form-data in the field "photo"`)
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
			return nil, fault.New(fault.Invalid, scoring.CodeBadRequest, "the upload is not a well-formed multipart form; send the photo in the field \"photo\"")
		}
		name := part.FormName()
		var data []byte
		data, slab, err = readPart(part, slab)
		if err != nil {
			return nil, fault.New(fault.Invalid, scoring.CodeBadRequest, "the upload was cut off; please send it again")
		}
		switch {
		case app.IsPhotoPart(name):
			if _, dup := u.photos[name]; dup {
				return nil, fault.Newf(fault.Invalid, scoring.CodeBadRequest, "two photos in the field %q: send one photo per field", name)
			}
			u.photos[name] = data
		case len(u.fields) >= maxFields || len(data) > maxFieldSize:
			return nil, fault.New(fault.Invalid, scoring.CodeBadRequest, "the form has too many or too large fields")
		default:
			u.fields[name] = string(data)
		}
	}
	if len(u.photos) == 0 {
		return nil, fault.New(fault.Invalid, scoring.CodeBadRequest, "no photo: send it in the multipart field \"photo\" (or the hand, melds, dora and flowers apart, in fields of those names)")
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
