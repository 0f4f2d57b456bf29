package calibration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
	"mjscan/vision"
)

// Camera takes snapshots: a plain GET that answers one JPEG, as go2rtc
// and most IP cameras offer. It never streams.
type Camera struct {
	Client *http.Client
	// MaxBytes bounds a snapshot.
	MaxBytes int64
}

// DefaultCamera waits at most 5 seconds and takes at most 20 MiB.
var DefaultCamera = Camera{Client: &http.Client{Timeout: 5 * time.Second}, MaxBytes: 20 << 20}

// Snapshot fetches one frame.
func (c Camera) Snapshot(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("snapshot address: %w", err)
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the camera did not answer: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the camera answered %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot: %w", err)
	}
	if int64(len(data)) > c.MaxBytes {
		return nil, fmt.Errorf("the snapshot is larger than %d bytes", c.MaxBytes)
	}
	return data, nil
}

// Recognizer reads the tiles in a photo; *vision.Recognizer is one.
type Recognizer interface {
	Recognize(id string, data []byte) vision.Recognition
}

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

// ScoreNow takes a snapshot, cuts out the seat's hand, reads it and scores
// it. base carries what a photo cannot show: rules, winds, win tile (when
// the recogniser cannot tell it), self-draw and the rest of the situation.
func ScoreNow(ctx context.Context, cam Camera, url string, c *Calibration, seat string, rec Recognizer, base scoring.Request) (*Proposal, error) {
	if c == nil {
		return nil, errors.New("the table is not calibrated yet")
	}
	frame, err := cam.Snapshot(ctx, url)
	if err != nil {
		return nil, err
	}
	crop, err := c.SeatHand(frame, seat)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(frame)
	p := &Proposal{Seat: seat, FrameSHA256: hex.EncodeToString(sum[:]), Frame: frame}
	p.Recognition = rec.Recognize(base.ID, crop)
	if !p.Recognition.OK || p.Recognition.Hand == nil {
		msg := "no hand was read in front of seat " + seat
		if p.Recognition.Error != nil {
			msg += ": " + p.Recognition.Error.Message
		}
		return p, errors.New(msg)
	}
	req := base
	read := p.Recognition.Hand
	req.Hand, req.Melds = read.Hand, read.Melds
	if req.WinTile == "" {
		req.WinTile = read.WinTile
	}
	if req.SeatWind == "" {
		req.SeatWind = seat
	}
	p.Request = req
	p.Result = rulebook.Score(&req)
	return p, nil
}
