// Package fault is the service's domain errors: an error says what kind of
// failure it is (not found, a conflict, too large, busy, …), carries a
// stable code for clients and a message written for the player, and keeps
// its cause for the log. Nothing here knows about HTTP: api/ maps each
// kind to a status in one place (api/faults.go), so no caller ever
// classifies an error by its text.
package fault

import (
	"errors"
	"fmt"
)

// Kind is what sort of failure an error is.
type Kind int

const (
	// Internal is the service's own failure: the client sees no detail.
	Internal Kind = iota
	// Invalid: the request cannot be read or breaks a rule of its form.
	Invalid
	// Unsupported: the request is in a form the service does not take (a
	// file that is not a photo).
	Unsupported
	// Unprocessable: the request is well formed but cannot be carried out
	// (a photo in which no hand can be read).
	Unprocessable
	// NotFound: what the request names does not exist (or is not the
	// caller's to see: the two are answered alike).
	NotFound
	// Conflict: not possible in the current state.
	Conflict
	// Unauthorised: no valid credentials.
	Unauthorised
	// Forbidden: the credentials do not allow this.
	Forbidden
	// TooLarge: the request or its photo is over a limit.
	TooLarge
	// Busy: the service is at capacity; try again shortly.
	Busy
	// Timeout: the work took longer than the service allows.
	Timeout
	// Cancelled: the client went away before the answer.
	Cancelled
	// Unavailable: a part of the service is not there (photo recognition
	// did not load, the record cannot be written).
	Unavailable
	// Upstream: something the service depends on outside it (a table's
	// camera) failed.
	Upstream
	// Exhausted: the caller has done this as often as it may (a table's
	// proposals for one hand); unlike Busy, trying again soon does not
	// help.
	Exhausted
)

var kindNames = [...]string{"internal", "invalid", "unsupported", "unprocessable", "not found", "conflict",
	"unauthorised", "forbidden", "too large", "busy", "timeout", "cancelled", "unavailable", "upstream", "exhausted"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Error is a domain error. Message is for the player holding the phone:
// a sentence they can act on, never internal text. Cause is for the log.
type Error struct {
	Kind Kind
	// Code is the stable, machine-readable name clients switch on (the
	// CONTRACT's error codes and the service's own, see codes.go); empty
	// takes the kind's default.
	Code    string
	Message string
	// Title, when set, is a short heading for the failure where the
	// code's own would mislead (a tampered tile set is not a tampered
	// record, though both are record_tampered).
	Title string
	Cause error
	// Body, when set, is what the answer carries besides the error (the
	// recognition of a photo whose hand could not be read, say).
	Body any
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Message + ": " + e.Cause.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// New is a domain error of kind k with a code and a player's message.
func New(k Kind, code, message string) *Error {
	return &Error{Kind: k, Code: code, Message: message}
}

// Newf is New with a formatted message.
func Newf(k Kind, code, format string, args ...any) *Error {
	return New(k, code, fmt.Sprintf(format, args...))
}

// Wrap is New keeping cause for the log (and for errors.Is).
func Wrap(cause error, k Kind, code, message string) *Error {
	return &Error{Kind: k, Code: code, Message: message, Cause: cause}
}

// WithTitle returns e with its own heading.
func (e *Error) WithTitle(title string) *Error {
	e.Title = title
	return e
}

// WithBody returns e carrying body in its answer.
func (e *Error) WithBody(body any) *Error {
	e.Body = body
	return e
}

// As finds the domain error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// KindOf is the kind of err: Internal for an error that is not a domain
// error (nothing below the service's edge said what it was).
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	return Internal
}

// Is reports whether err is a domain error of kind k.
func Is(err error, k Kind) bool {
	e, ok := As(err)
	return ok && e.Kind == k
}
