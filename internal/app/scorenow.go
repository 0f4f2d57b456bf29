package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"mjscan/calibration"
	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/vision"
)

// Proposal is what "score now" proposes to the table: which frame, which
// seat, what was read and what it scores. A referee confirms or corrects
// it.
type Proposal struct {
	Seat        string             `json:"seat"`
	FrameSHA256 string             `json:"frame_sha256"`
	Frame       []byte             `json:"-"`
	Recognition vision.Recognition `json:"recognition"`
	Request     scoring.Request    `json:"request"`
	Result      scoring.Result     `json:"result"`
}

// Table is a table's camera as score-now needs it.
type Table struct {
	SnapshotURL string
	Calibration *calibration.Calibration
}

// ScoreNow takes a snapshot of the table, cuts out the seat's hand
// (calibration), reads it (vision) and scores it under the situation sit
// carries: what a photo cannot show (rules, winds, the win tile when the
// recogniser cannot tell it, self-draw and the rest), merged with what the
// photo shows by Merge, as snap-and-score does. The snapshot waits
// on the network holding no worker; the cut, the reading and the scoring
// hold one.
func (a *App) ScoreNow(ctx context.Context, t Table, seat string, sit scoring.Request) (*Proposal, error) {
	if err := a.CanRecognize(); err != nil {
		return nil, err
	}
	if t.Calibration == nil {
		return nil, fault.New(fault.Conflict, scoring.CodeBadRequest, "the table is not calibrated yet: the organiser calibrates it first")
	}
	// A seat that is none is the caller's mistake, not the camera's: say
	// so before asking the camera for a frame.
	if err := calibration.CheckSeat(seat); err != nil {
		return nil, fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
	}
	frame, err := a.deps.Camera.Snapshot(ctx, t.SnapshotURL)
	if err != nil {
		// The message is ErrNoSnapshot's, whatever the cause: it must not
		// tell a closed port from an open one.
		return nil, fault.Wrap(err, fault.Upstream, fault.CodeRecognition, calibration.ErrNoSnapshot.Error())
	}
	var p *Proposal
	err = a.deps.Run.Run(ctx, PhotoPixels(frame), func() error {
		var err error
		p, err = a.scoreFrame(ctx, frame, t.Calibration, seat, sit)
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// handSeenAt is the first other seat in front of which the frame shows a
// whole hand, or "": when the seat asked shows none, a hand elsewhere
// most likely means the table's near seat is wrong. It reads on the
// worker already held, and only when score-now is failing anyway.
func (a *App) handSeenAt(ctx context.Context, frame []byte, c *calibration.Calibration, seat string) string {
	for _, other := range calibration.Seats {
		if other == seat || ctx.Err() != nil {
			continue
		}
		crop, err := c.SeatHand(frame, other)
		if err != nil {
			continue
		}
		rec, err := a.deps.Recognizer.Recognize(ctx, crop)
		if err == nil && rec != nil && rec.OK && rec.Hand != nil && rec.Hand.Hand != "" {
			return other
		}
	}
	return ""
}

// scoreFrame is ScoreNow on a frame already taken, on the worker held.
func (a *App) scoreFrame(ctx context.Context, frame []byte, c *calibration.Calibration, seat string, base scoring.Request) (*Proposal, error) {
	crop, err := c.SeatHand(frame, seat)
	if err != nil {
		return nil, fault.Wrap(err, fault.Upstream, fault.CodeRecognition, err.Error())
	}
	sum := sha256.Sum256(frame)
	p := &Proposal{Seat: seat, FrameSHA256: hex.EncodeToString(sum[:]), Frame: frame}
	rec, err := a.deps.Recognizer.Recognize(vision.WithTrace(ctx, a.deps.Observe.Step), crop)
	if err != nil || rec == nil {
		rec = &vision.Recognition{ID: base.ID, Error: &scoring.Error{Code: fault.CodeRecognition, Message: "the tiles in front of the seat could not be read"}}
	}
	p.Recognition = *rec
	req := Merge(&base, p.Recognition.Hand, base.ID)
	if !p.Recognition.OK || req.Hand == "" {
		msg := "no hand was read in front of seat " + seat
		if p.Recognition.Error != nil {
			msg += ": " + p.Recognition.Error.Message
		}
		if other := a.handSeenAt(ctx, frame, c, seat); other != "" {
			msg += fmt.Sprintf(". A hand was seen in front of seat %s instead: if it is %s's, the camera does not stand behind %s as the table's setup says (near %q); register the table again with near %q and calibrate it",
				other, seat, c.Near, c.Near, c.NearFor(seat, other))
		}
		return nil, fault.New(fault.Unprocessable, fault.CodeRecognition, msg)
	}
	// The camera knows whose hand it read: the seat's wind, unless the
	// player said otherwise.
	if req.SeatWind == "" {
		req.SeatWind = seat
	}
	p.Request = *req
	if err := a.scoreNow(&p.Request, &p.Result); err != nil {
		return nil, err
	}
	return p, nil
}
