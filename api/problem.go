package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/scoring"
)

// Problem is an RFC 9457 problem detail. Detail is written for the player
// holding the phone, never internal error text. Ext adds members of its own
// (a failed score carries the whole CONTRACT result, so a client reading
// results still finds ok, error and the fans counted).
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail"`
	Instance string `json:"instance,omitempty"`
	// Code is the CONTRACT error code or one of the service's own.
	Code string `json:"code"`
	// Ext is marshalled first; the members above win on a clash.
	Ext any `json:"-"`
	// RetryAfter, when set, becomes the Retry-After header (seconds).
	RetryAfter int `json:"-"`
}

func (p *Problem) Error() string { return fmt.Sprintf("%d %s: %s", p.Status, p.Code, p.Detail) }

// Service problem codes beyond the CONTRACT's scoring codes.
const (
	codeNotAPhoto       = "not_a_photo"
	codeTooLarge        = "too_large"
	codeBusy            = "busy"
	codeTimeout         = "timeout"
	codeNoRecognition   = "recognition_unavailable"
	codeNotFound        = "not_found"
	codeMethod          = "method_not_allowed"
	codeUnsupportedType = "unsupported_media_type"
	codeIdemConflict    = "idempotency_key_reused"
	codeIdemInFlight    = "idempotency_key_in_flight"
	codeInternal        = "internal"
	codeRecognition     = "recognition_failed"
)

var problemTitles = map[string]string{
	scoring.CodeBadRequest:     "The request could not be read",
	scoring.CodeNotAWin:        "Not a winning hand",
	scoring.CodeNoYaku:         "No yaku",
	scoring.CodeBelowMinimum:   "Below the minimum",
	scoring.CodeTooManyCopies:  "Too many copies of a tile",
	scoring.CodeWrongTileCount: "Wrong number of tiles",
	codeNotAPhoto:              "Not a photo",
	codeTooLarge:               "Too large",
	codeBusy:                   "Busy",
	codeTimeout:                "Took too long",
	codeNoRecognition:          "Photo recognition is not available",
	codeNotFound:               "Not found",
	codeMethod:                 "Method not allowed",
	codeUnsupportedType:        "Unsupported content type",
	codeIdemConflict:           "Idempotency-Key reused",
	codeIdemInFlight:           "Idempotency-Key in use",
	codeInternal:               "Something went wrong on our side",
	codeRecognition:            "The photo could not be read",
}

// problem builds a Problem; its type is a URN naming the code, so clients
// can switch on it without parsing the message.
func problem(status int, code, detail string) *Problem {
	title := problemTitles[code]
	if title == "" {
		title = http.StatusText(status)
	}
	return &Problem{Type: "urn:mjscan:problem:" + code, Title: title, Status: status, Detail: detail, Code: code}
}

// scoringStatus maps a CONTRACT error code to the HTTP status: a request we
// cannot read is 400, a well-formed hand that does not score is 422.
func scoringStatus(code string) int {
	if code == scoring.CodeBadRequest {
		return http.StatusBadRequest
	}
	return http.StatusUnprocessableEntity
}

// MarshalJSON writes the problem members over the extension's members.
func (p *Problem) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	if p.Ext != nil {
		raw, err := json.Marshal(p.Ext)
		if err != nil {
			return nil, err
		}
		var ext map[string]json.RawMessage
		if err := json.Unmarshal(raw, &ext); err == nil {
			for k, v := range ext {
				m[k] = v
			}
		}
	}
	m["type"], m["title"], m["status"], m["detail"], m["code"] = p.Type, p.Title, p.Status, p.Detail, p.Code
	if p.Instance != "" {
		m["instance"] = p.Instance
	}
	return json.Marshal(m)
}

// writeProblem answers with application/problem+json.
func writeProblem(c echo.Context, p *Problem) error {
	if p.Instance == "" {
		p.Instance = c.Request().URL.Path
	}
	if p.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", fmt.Sprint(p.RetryAfter))
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return c.Blob(p.Status, "application/problem+json", b)
}

// errorHandler is the one place that decides what a client sees of an
// error: a Problem as it is, echo's own errors in player words, anything
// else as a 500 whose cause goes to the log only.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var p *Problem
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &p):
	case errors.As(err, &mbe):
		p = echoProblem(echo.ErrStatusRequestEntityTooLarge, s.cfg.BodyLimit)
	case errors.As(err, &he):
		p = echoProblem(he, s.cfg.BodyLimit)
	default:
		s.log.Printf("error: %s %s: %v", c.Request().Method, c.Request().URL.Path, err)
		p = problem(http.StatusInternalServerError, codeInternal, "the service failed while handling this request; please try again, and report it if it keeps happening")
	}
	if err := writeProblem(c, p); err != nil {
		s.log.Printf("error: writing problem: %v", err)
	}
}

func echoProblem(he *echo.HTTPError, limit int64) *Problem {
	switch he.Code {
	case http.StatusNotFound:
		return problem(he.Code, codeNotFound, "there is nothing at this address; see /openapi.json for the API")
	case http.StatusMethodNotAllowed:
		return problem(he.Code, codeMethod, "this address does not answer that method; see /openapi.json for the API")
	case http.StatusRequestEntityTooLarge:
		return problem(he.Code, codeTooLarge, fmt.Sprintf("the upload is larger than %s: send a smaller photo", sizeText(limit)))
	case http.StatusUnsupportedMediaType:
		return problem(he.Code, codeUnsupportedType, "send JSON (application/json) or, for photos, multipart/form-data")
	case http.StatusServiceUnavailable:
		return problem(he.Code, codeTimeout, "the service took too long; please try again")
	}
	if he.Code >= 500 {
		return problem(he.Code, codeInternal, "the service failed while handling this request; please try again")
	}
	msg := http.StatusText(he.Code)
	if s, ok := he.Message.(string); ok && s != "" {
		msg = s
	}
	return problem(he.Code, scoring.CodeBadRequest, msg)
}

// sizeText writes a byte count the way people say it.
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%g MB", float64(n*10>>20)/10)
	}
	return fmt.Sprintf("%d KB", n>>10)
}
