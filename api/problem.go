package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
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
	codeNotAPhoto       = fault.CodeNotAPhoto
	codeTooLarge        = fault.CodeTooLarge
	codeBusy            = fault.CodeBusy
	codeTimeout         = fault.CodeTimeout
	codeNoRecognition   = fault.CodeNoRecognition
	codeNotFound        = fault.CodeNotFound
	codeMethod          = "method_not_allowed"
	codeUnsupportedType = fault.CodeUnsupportedType
	codeIdemConflict    = "idempotency_key_reused"
	codeIdemInFlight    = "idempotency_key_in_flight"
	codeInternal        = fault.CodeInternal
	codeRecognition     = fault.CodeRecognition
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
	codeTampered:               "The record cannot be trusted",
	codeRecordUnavailable:      "The referee record is unavailable",
	codeNoTileSets:             "Tile sets are not available",
	codeTileSetOutdated:        "The tile set must be taught again",
}

// statusTitles name what went wrong when the code alone does not: the
// general bad_request code also rides on 409 and 422 answers, and a 409 is
// not a request that could not be read.
var statusTitles = map[int]string{
	http.StatusConflict:            "Not possible in the current state",
	http.StatusUnprocessableEntity: "The request cannot be carried out",
}

// problem builds a Problem; its type is a URN naming the code, so clients
// can switch on it without parsing the message.
func problem(status int, code, detail string) *Problem {
	title := problemTitles[code]
	if code == scoring.CodeBadRequest && status != http.StatusBadRequest || title == "" {
		title = statusTitles[status]
	}
	if title == "" {
		title = http.StatusText(status)
	}
	return &Problem{Type: "urn:mjscan:problem:" + code, Title: title, Status: status, Detail: detail, Code: code}
}

// resultProblem is the answer for a hand that does not score: the CONTRACT
// error (a request that cannot be read is invalid, a hand that does not
// win unprocessable: app.FailureKind) whose members include the whole
// result, as /v1/scores answers it.
func resultProblem(out ScoreResponse) error {
	e := out.Error
	if e == nil {
		e = scoring.Errorf(scoring.CodeNotAWin, "the hand does not score")
		out.Error = e
	}
	return fault.New(app.FailureKind(e.Code), e.Code, e.Message).WithBody(out)
}

// scoringStatus is the HTTP status of a CONTRACT error code.
func scoringStatus(code string) int { return statusOf(app.FailureKind(code)) }

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
	var fe *fault.Error
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &p):
	case errors.As(err, &fe):
		p = s.faultProblem(c, fe)
	case errors.As(err, &mbe):
		p = echoProblem(c, echo.ErrStatusRequestEntityTooLarge, s.cfg.BodyLimit)
	case errors.As(err, &he):
		p = echoProblem(c, he, s.cfg.BodyLimit)
	default:
		var pe *rulebook.PanicError
		if errors.As(err, &pe) {
			s.log.Printf("panic: %s %s: %v\n%s", c.Request().Method, c.Request().URL.Path, pe.Value, pe.Stack)
		} else {
			s.log.Printf("error: %s %s: %v", c.Request().Method, c.Request().URL.Path, err)
		}
		p = problem(http.StatusInternalServerError, codeInternal, "the service failed while handling this request; please try again, and report it if it keeps happening")
	}
	if err := writeProblem(c, p); err != nil {
		s.log.Printf("error: writing problem: %v", err)
	}
}

// echoProblem words echo's own errors for a player; echo's message text is
// never shown.
func echoProblem(c echo.Context, he *echo.HTTPError, limit int64) *Problem {
	switch he.Code {
	case http.StatusNotFound:
		return problem(he.Code, codeNotFound, "there is nothing at this address; see /openapi.json for the API")
	case http.StatusMethodNotAllowed:
		return problem(he.Code, codeMethod, "this address does not answer that method; see /openapi.json for the API")
	case http.StatusRequestEntityTooLarge:
		if isUpload(c.Request()) {
			return problem(he.Code, codeTooLarge, fmt.Sprintf("the upload is larger than %s: send a smaller photo", sizeText(limit)))
		}
		return problem(he.Code, codeTooLarge, fmt.Sprintf("the request is larger than %s, the most the service reads: send less", sizeText(limit)))
	case http.StatusUnsupportedMediaType:
		return problem(he.Code, codeUnsupportedType, "send JSON (application/json) or, for photos, multipart/form-data")
	case http.StatusServiceUnavailable:
		return problem(he.Code, codeTimeout, "the service took too long; please try again")
	}
	if he.Code >= 500 {
		return problem(he.Code, codeInternal, "the service failed while handling this request; please try again")
	}
	return problem(he.Code, scoring.CodeBadRequest, "the service cannot take this request as it is: check it against the API (/openapi.json)")
}

// isUpload says whether a request carries a photo (a form or an image)
// rather than JSON, so that a problem can speak of the photo.
func isUpload(r *http.Request) bool {
	ct := strings.ToLower(r.Header.Get(echo.HeaderContentType))
	return strings.HasPrefix(ct, "multipart/") || strings.HasPrefix(ct, "image/")
}

// jsonProblem turns an error from decoding a JSON body into v (a pointer)
// into a 400 a player can act on: which field holds the wrong kind of value
// and what it should hold, where the JSON breaks, or which field is not
// known. what names the body ("the hand request").
func jsonProblem(err error, v any, what string) error {
	return fault.New(fault.Invalid, scoring.CodeBadRequest, jsonDetail(err, v, what))
}

func jsonDetail(err error, v any, what string) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var tse *scoring.SyntaxError
	switch {
	case errors.As(err, &te):
		return typeDetail(te, reflect.TypeOf(v), what)
	case errors.As(err, &tse):
		return fmt.Sprintf("%s holds a tile that is not a tile code: %v", what, tse)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.As(err, &se) && se.Error() == "unexpected end of JSON input":
		return what + " is not valid JSON: it ends too early, before a closing quote, bracket or brace"
	case errors.As(err, &se) && strings.HasSuffix(se.Error(), "after top-level value"):
		return fmt.Sprintf("%s is not valid JSON: something follows it at character %d; send one JSON object only", what, se.Offset)
	case errors.As(err, &se):
		return fmt.Sprintf("%s is not valid JSON: it breaks at character %d; look there for a missing quote, comma or brace", what, se.Offset)
	}
	// Decoder.DisallowUnknownFields reports an unknown field in text only.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Sprintf("%s has no field %s: check its spelling against the API (/openapi.json)", what, name)
	}
	return what + " is not valid JSON"
}

// typeDetail says which field has the wrong kind of value. Go names the
// field by its JSON path ("request.hand"); a list's items share the list's
// name, so the target type tells the list from its items.
func typeDetail(te *json.UnmarshalTypeError, root reflect.Type, what string) string {
	want, got := kindText(te.Type), valueText(te.Value)
	if te.Field == "" {
		return fmt.Sprintf("%s must be %s, not %s", what, want, got)
	}
	if n, isNum := strings.CutPrefix(te.Value, "number "); isNum {
		if d := numberDetail(te.Type, n); d != "" {
			return fmt.Sprintf("the field %q %s", te.Field, d)
		}
	}
	if ft := fieldType(root, te.Field); ft != nil && ft != te.Type {
		switch ft.Kind() {
		case reflect.Slice, reflect.Array:
			return fmt.Sprintf("the field %q is a list whose every item must be %s, not %s", te.Field, want, got)
		case reflect.Map:
			return fmt.Sprintf("the field %q is an object whose every value must be %s, not %s", te.Field, want, got)
		}
	}
	return fmt.Sprintf("the field %q has the wrong type: it must be %s, not %s", te.Field, want, got)
}

// numberDetail explains a number Go could not store: not whole, or out of
// the range the field holds. It is "" when the type is not numeric.
func numberDetail(t reflect.Type, n string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var lo, hi string
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		lo, hi = strconv.FormatInt(-1<<(t.Bits()-1), 10), strconv.FormatInt(1<<(t.Bits()-1)-1, 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		lo, hi = "0", strconv.FormatUint(math.MaxUint64>>(64-t.Bits()), 10)
	case reflect.Float32, reflect.Float64:
		return "must be a number of a sensible size, not " + n
	default:
		return ""
	}
	outside := fmt.Sprintf("must be a whole number from %s to %s, not %s", lo, hi, n)
	if strings.Trim(strings.TrimPrefix(n, "-"), "0123456789") == "" {
		return outside // digits only: Go refused it for its size
	}
	f, err := strconv.ParseFloat(n, 64)
	flo, _ := strconv.ParseFloat(lo, 64)
	fhi, _ := strconv.ParseFloat(hi, 64)
	switch {
	case err == nil && f != math.Trunc(f):
		return "must be a whole number, not " + n
	case err == nil && f >= flo && f < fhi:
		return "must be written as a whole number in digits, not " + n
	}
	return outside
}

// fieldType follows a JSON path such as "request.melds.tiles" through the
// type decoded into; nil when it cannot.
func fieldType(t reflect.Type, path string) reflect.Type {
	for _, name := range strings.Split(path, ".") {
		t = elemType(t)
		if t == nil || t.Kind() != reflect.Struct {
			return nil
		}
		var found reflect.Type
		for i := 0; i < t.NumField() && found == nil; i++ {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "" {
				tag = f.Name
			}
			if strings.EqualFold(tag, name) {
				found = f.Type
			}
		}
		if t = found; t == nil {
			return nil
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// elemType looks through pointers, lists and maps to what a path's next
// name is a field of.
func elemType(t reflect.Type) reflect.Type {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return t
		}
	}
	return nil
}

// kindText says in words what a Go type takes in JSON.
func kindText(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "text in quotes"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list ([…])"
	case reflect.Map, reflect.Struct:
		return "an object ({…})"
	}
	return "another kind of value"
}

// valueText names the kind of JSON value Go found ("number", "string",
// "number 1.5", …).
func valueText(v string) string {
	switch v {
	case "string":
		return "text"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return n
	}
	return v
}

// sizeText writes a byte count the way people say it.
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%g MB", float64(n*10>>20)/10)
	}
	return fmt.Sprintf("%d KB", n>>10)
}
