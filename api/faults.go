package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/scoring"
)

// statusOf is the one place where a domain error's kind becomes an HTTP
// status. The use cases (internal/app) and the packages below them say
// what kind of failure an error is; only api/ knows HTTP.
func statusOf(k fault.Kind) int {
	switch k {
	case fault.Invalid:
		return http.StatusBadRequest
	case fault.Unsupported:
		return http.StatusUnsupportedMediaType
	case fault.Unprocessable:
		return http.StatusUnprocessableEntity
	case fault.NotFound:
		return http.StatusNotFound
	case fault.Conflict:
		return http.StatusConflict
	case fault.Unauthorised:
		return http.StatusUnauthorized
	case fault.Forbidden:
		return http.StatusForbidden
	case fault.TooLarge:
		return http.StatusRequestEntityTooLarge
	case fault.Busy, fault.Exhausted:
		return http.StatusTooManyRequests
	case fault.Timeout, fault.Unavailable:
		return http.StatusServiceUnavailable
	case fault.Cancelled:
		return 499 // the client went away; nobody reads this answer
	case fault.Upstream:
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

// kindCodes are the codes of domain errors that name none.
var kindCodes = map[fault.Kind]string{
	fault.Invalid:       scoring.CodeBadRequest,
	fault.Unsupported:   codeUnsupportedType,
	fault.Unprocessable: scoring.CodeBadRequest,
	fault.NotFound:      codeNotFound,
	fault.Conflict:      scoring.CodeBadRequest,
	fault.Unauthorised:  codeUnauthorized,
	fault.Forbidden:     codeForbidden,
	fault.TooLarge:      codeTooLarge,
	fault.Busy:          codeBusy,
	fault.Timeout:       codeTimeout,
	fault.Cancelled:     codeTimeout,
	fault.Unavailable:   codeNoRecognition,
	fault.Upstream:      codeRecognition,
	fault.Exhausted:     codeBusy,
}

// faultProblem is what the client sees of a domain error: its status,
// code and message (a sentence written for the player), with what it
// carries besides. An internal failure's cause goes to the log only; its
// message is shown when the use case wrote one, never the cause.
func (s *Server) faultProblem(c echo.Context, e *fault.Error) *Problem {
	code := e.Code
	if code == "" {
		code = kindCodes[e.Kind]
	}
	if e.Kind == fault.Internal {
		s.log.Printf("error: %s %s: %v", c.Request().Method, c.Request().URL.Path, e)
		if code == "" {
			code = codeInternal
		}
	}
	msg := e.Message
	if msg == "" {
		msg = "the service failed while handling this request; please try again, and report it if it keeps happening"
	}
	p := problem(statusOf(e.Kind), code, msg)
	if e.Title != "" {
		p.Title = e.Title
	}
	p.Ext = e.Body
	if e.Kind == fault.Busy {
		p.RetryAfter = 1
	}
	return p
}
