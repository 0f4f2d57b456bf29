package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
)

// Problem codes of the referee record.
const (
	codeTampered          = "record_tampered"
	codeRecordUnavailable = "record_unavailable"
)

// storeProblem says what kind of failure the referee record's error is:
// input it refuses is invalid (the record's message names the field), a
// log or record changed behind the store's back a conflict, a read-only
// record unavailable; anything else stays as it is, an internal failure
// whose cause goes to the log.
func storeProblem(err error) error {
	switch {
	case err == nil:
		return nil
	case isFault(err):
		return err // said already (a log entry refused inside UpdateLogs)
	case errors.Is(err, referee.ErrInvalid):
		return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
	case errors.Is(err, referee.ErrTampered):
		return tamperedProblem(err.Error())
	case errors.Is(err, referee.ErrCorrupt):
		return tamperedProblem("this record was changed after it was stored (it no longer matches its digest): do not rely on it, and tell the head referee")
	case errors.Is(err, referee.ErrReadOnly):
		return fault.Wrap(err, fault.Unavailable, codeRecordUnavailable, "the referee record cannot be written just now, so nothing was recorded: tell the organiser, and try again once it is fixed")
	}
	return err
}

func isFault(err error) bool {
	_, ok := fault.As(err)
	return ok
}

// tamperedProblem is a record that fails its check: a conflict, since
// the record is there but cannot be trusted.
func tamperedProblem(detail string) *fault.Error {
	return fault.New(fault.Conflict, codeTampered, detail)
}

// RecordsPage is one page of referee records, without their photos.
type RecordsPage struct {
	Records []referee.Record `json:"records"`
	// NextAfter, when set, is the after= of the next page.
	NextAfter int64 `json:"next_after,omitempty"`
	// Tampered lists the records of the page that cannot be trusted (each
	// says why in its own tampered field).
	Tampered []int64  `json:"tampered,omitempty"`
	Versions Versions `json:"versions"`
}

// listRecords answers one page of records: ?limit= (1 to 1000, 100 when
// absent) after ?after=. A record that fails its check is in the page,
// marked, and listed in tampered.
func (t *tournamentRoutes) listRecords(c echo.Context, q referee.Query) error {
	q.Limit = referee.DefaultLimit
	if l := c.QueryParam("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > referee.MaxLimit {
			return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "limit is how many records to list: a number from 1 to %d", referee.MaxLimit)
		}
		q.Limit = n
	}
	list, more, err := t.records.List(c.Request().Context(), q)
	if err != nil {
		return storeProblem(err)
	}
	page := RecordsPage{Records: list, Versions: t.s.versions()}
	if page.Records == nil {
		page.Records = []referee.Record{}
	}
	if more {
		page.NextAfter = list[len(list)-1].ID
	}
	for _, r := range list {
		if r.Tampered != "" {
			page.Tampered = append(page.Tampered, r.ID)
		}
	}
	return c.JSON(http.StatusOK, page)
}

// getRecordPhoto answers the photo a record keeps, checked against the
// record's hash of it. A table sees its own game's photos only, and
// another's is answered as none.
func (t *tournamentRoutes) getRecordPhoto(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return noRecord()
	}
	r, photo, err := t.records.Photo(c.Request().Context(), id)
	if errors.Is(err, referee.ErrNotFound) {
		return noRecord()
	}
	if read := err == nil || errors.Is(err, referee.ErrNoPhoto) || errors.Is(err, referee.ErrCorrupt); read && !callerOf(c).sees(r) {
		return noRecord() // as for a record that does not exist
	}
	switch {
	case errors.Is(err, referee.ErrNoPhoto):
		return fault.New(fault.NotFound, codeNotFound, "this record keeps no photo: its table does not keep photos, or none came with it (its photo_sha256 still names the photo)")
	case errors.Is(err, referee.ErrCorrupt) && r.Tampered != "":
		return tamperedProblem(r.Tampered)
	case err != nil:
		return storeProblem(err)
	}
	ctype := http.DetectContentType(photo)
	if ctype != "image/jpeg" && ctype != "image/png" {
		ctype = "application/octet-stream"
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", fmt.Sprintf(`inline; filename="record-%d-photo"`, id))
	h.Set("ETag", `"`+r.PhotoSHA256+`"`)
	h.Set("Cache-Control", "private, max-age=86400, immutable") // a record never changes
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, ctype, photo)
}

// RecordResponse is a stored referee record.
type RecordResponse struct {
	Record   referee.Record `json:"record"`
	Versions Versions       `json:"versions"`
}

func (t *tournamentRoutes) appendRecord(c echo.Context, overturns int64) error {
	var r referee.Record
	if err := bindStrict(c, "the referee record", &r); err != nil {
		return err
	}
	r.Overturns = overturns
	r.IdempotencyKey = idemKeyOf(c)
	if err := t.placeRecord(c.Request().Context(), &r); err != nil {
		return err
	}
	if r.EngineVersion == "" {
		r.EngineVersion = t.s.deps.Version
	}
	stored, err := t.records.Append(c.Request().Context(), r)
	switch {
	case errors.Is(err, referee.ErrNotFound):
		return noOverturned()
	case errors.Is(err, referee.ErrAlreadyOverturned):
		return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, err.Error())
	case err != nil:
		return storeProblem(err) // refused input is a 400; the database failing a 500
	}
	return c.JSON(http.StatusCreated, RecordResponse{Record: stored, Versions: t.s.versions()})
}

func (t *tournamentRoutes) postRecord(c echo.Context) error { return t.appendRecord(c, 0) }

func (t *tournamentRoutes) postOverturn(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return noRecord()
	}
	return t.appendRecord(c, id)
}

func (t *tournamentRoutes) getRecords(c echo.Context) error {
	q := referee.Query{Table: c.QueryParam("table"), Game: c.QueryParam("game")}
	if a := c.QueryParam("after"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return fault.New(fault.Invalid, scoring.CodeBadRequest, "after is a record id")
		}
		q.After = n
	}
	if who := callerOf(c); who.role == roleTable {
		if (q.Table != "" && q.Table != who.table) || (q.Game != "" && q.Game != who.game) {
			return fault.New(fault.Forbidden, codeForbidden, "a table token sees its own game's records only")
		}
		q.Table, q.Game = who.table, who.game
	}
	return t.listRecords(c, q)
}

func (t *tournamentRoutes) getRecord(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return noRecord()
	}
	chain, err := t.records.InForce(c.Request().Context(), id)
	if errors.Is(err, referee.ErrNotFound) {
		return noRecord()
	}
	if err != nil {
		return err
	}
	if !callerOf(c).sees(chain[0]) {
		return noRecord() // as for a record that does not exist
	}
	return c.JSON(http.StatusOK, map[string]any{"record": chain[0], "in_force": chain[len(chain)-1], "chain": chain, "versions": t.s.versions()})
}
