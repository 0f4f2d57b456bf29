package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/calibration"
	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// tableSetup is a table's camera: where its snapshot comes from, which
// seat the camera stands behind, whether photos are kept, and its
// calibration once made.
type tableSetup struct {
	Table       string                   `json:"table"`
	SnapshotURL string                   `json:"snapshot_url"`
	Near        string                   `json:"near,omitempty"`
	NoPhotos    bool                     `json:"no_photos,omitempty"`
	Calibration *calibration.Calibration `json:"calibration,omitempty"`
}

// maxSnapshotURLLen caps a camera's address.
const maxSnapshotURLLen = 2048

// saveTable stores a new version of a table's setup and puts it in force.
func (t *tournamentRoutes) saveTable(c echo.Context, ts *tableSetup) error {
	body, err := json.Marshal(ts)
	if err != nil {
		return err
	}
	if _, err := t.records.AppendTableSetup(c.Request().Context(), referee.TableSetup{Table: ts.Table, By: string(callerOf(c).role), Body: body}); err != nil {
		return storeProblem(err)
	}
	return nil
}

// postTable registers (or re-registers) a table's camera; organiser only,
// since the service will fetch the address it is given.
func (t *tournamentRoutes) postTable(c echo.Context) error {
	var ts tableSetup
	if err := bindStrict(c, "the table (table, snapshot_url)", &ts); err != nil {
		return err
	}
	ts.Calibration = nil
	if err := tournament.CheckID("the table", ts.Table); err != nil {
		return idProblem(err)
	}
	if !(strings.HasPrefix(ts.SnapshotURL, "http://") || strings.HasPrefix(ts.SnapshotURL, "https://")) {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "a table needs a name and an http(s) snapshot_url that answers one JPEG")
	}
	if n := len(ts.SnapshotURL); n > maxSnapshotURLLen {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "snapshot_url is %d characters long: a camera's address has at most %d", n, maxSnapshotURLLen)
	}
	if ts.Near != "" {
		if err := calibration.CheckSeat(ts.Near); err != nil {
			return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, "near is the seat the camera stands behind: "+err.Error())
		}
	}
	if err := t.saveTable(c, &ts); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"table": ts, "versions": t.s.versions()})
}

// table finds a registered table the caller may see.
func (t *tournamentRoutes) table(c echo.Context) (*tableSetup, error) {
	name := c.Param("table")
	if who := callerOf(c); who.role == roleTable && who.table != name {
		return nil, noTable() // another table's is answered as none
	}
	ts, err := t.tableNamed(c.Request().Context(), name)
	if err != nil {
		return nil, storeProblem(err)
	}
	if ts == nil {
		return nil, noTable()
	}
	return ts, nil
}

func (t *tournamentRoutes) getTable(c echo.Context) error {
	ts, err := t.table(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"table": ts, "versions": t.s.versions()})
}

// postCalibrate takes a snapshot of the table (empty or set up) and stores
// a new calibration; redoing it adds a new setup version.
func (t *tournamentRoutes) postCalibrate(c echo.Context) error {
	return t.withFrame(c, func(ctx context.Context, ts *tableSetup, frame []byte) error {
		var cal *calibration.Calibration
		err := t.s.decodeWork(ctx, photoPixels(frame), func() error {
			var err error
			cal, err = calibration.Calibrate(frame, calibration.GreenFelt, ts.Near)
			if err != nil {
				return fault.Wrap(err, fault.Unprocessable, codeRecognition, err.Error())
			}
			return nil
		})
		if err != nil {
			return err
		}
		next := *ts
		next.Calibration = cal
		if err := t.saveTable(c, &next); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]any{"table": next, "versions": t.s.versions()})
	})
}

// scoreNow is the body of a score-now call: the seat to read and what a
// photo cannot show (rules, winds, win tile, self-draw, …).
type scoreNow struct {
	Seat string `json:"seat"`
	// AskedBy is refused: who asked comes from the token.
	AskedBy string          `json:"asked_by,omitempty"`
	Game    string          `json:"game,omitempty"`
	Hand    int             `json:"hand,omitempty"`
	Request scoring.Request `json:"request"`
}

// postScoreNow takes a snapshot, reads the seat's hand and scores it, and
// appends the proposal to the referee record (with the photo unless the
// table opted out). The referee then confirms or overturns it.
func (t *tournamentRoutes) postScoreNow(c echo.Context) error {
	ts, err := t.table(c)
	if err != nil {
		return err
	}
	if ts.Calibration == nil {
		return fault.New(fault.Conflict, scoring.CodeBadRequest, "the table is not calibrated yet: the organiser calibrates it first")
	}
	if t.s.deps.Recognizer == nil {
		return fault.New(fault.Unavailable, codeNoRecognition, "photo recognition is not available on this service")
	}
	var in scoreNow
	if err := bindStrict(c, "the seat and the hand's situation", &in); err != nil {
		return err
	}
	place, err := t.placeProposal(c.Request().Context(), callerOf(c), ts.Table, &in)
	if err != nil {
		return err
	}
	stored := false
	defer func() { place.done(stored) }()
	if in.Request.Rules == "" {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "request.rules names the rule set to score under")
	}
	ctx, leave, err := t.s.admitted(c.Request().Context())
	if err != nil {
		return err
	}
	defer leave()
	p, err := t.s.app.ScoreNow(ctx, app.Table{SnapshotURL: ts.SnapshotURL, Calibration: ts.Calibration}, in.Seat, in.Request)
	if err != nil {
		return err
	}
	reqJSON, _ := json.Marshal(p.Request)
	resJSON, _ := json.Marshal(p.Result)
	rec := referee.Record{
		Table: ts.Table, Game: place.game, Hand: place.hand, AskedBy: place.askedBy, PhotoSHA256: p.FrameSHA256,
		ModelVersion: t.s.versions().Model, EngineVersion: t.s.deps.Version,
		RuleSet: p.Request.Rules + "/" + p.Result.Preset, Recognized: p.Request.Hand,
		Request: reqJSON, Computed: resJSON, Ruling: app.ProposalRuling,
	}
	if !ts.NoPhotos {
		rec.Photo = p.Frame
	}
	kept, err := t.records.Append(ctx, rec)
	if err != nil {
		return storeProblem(err)
	}
	stored = true
	kept.Photo = nil // the answer carries the hash; the record keeps the photo
	return c.JSON(http.StatusOK, map[string]any{"proposal": p, "record": kept, "versions": t.s.versions()})
}
