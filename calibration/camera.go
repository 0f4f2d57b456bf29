package calibration

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the snapshot formats whose headers are checked
	_ "image/png"
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

// ErrNoSnapshot is every failure to get a frame: nothing listening, a
// timeout, something that does not speak HTTP, an answer other than 200,
// a body that is not a JPEG or PNG, one too large. A camera's address comes
// from a client, so the answer must not say which of these it was: that
// would tell a closed port from an open one, and the service would scan
// ports for whoever asks. The cause rides in a SnapshotError for the log.
var ErrNoSnapshot = errors.New("the camera gave no snapshot: check that the table's snapshot_url answers one JPEG photo")

// SnapshotError is ErrNoSnapshot with its cause, which is for the
// operator's log and never for the client: its message is ErrNoSnapshot's.
type SnapshotError struct{ Cause error }

func (e *SnapshotError) Error() string        { return ErrNoSnapshot.Error() }
func (e *SnapshotError) Is(target error) bool { return target == ErrNoSnapshot }
func (e *SnapshotError) Unwrap() error        { return e.Cause }

// Snapshot fetches one frame. Every failure is a *SnapshotError.
func (c Camera) Snapshot(ctx context.Context, url string) ([]byte, error) {
	data, err := c.fetch(ctx, url)
	if err != nil {
		return nil, &SnapshotError{Cause: err}
	}
	return data, nil
}

func (c Camera) fetch(ctx context.Context, url string) ([]byte, error) {
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
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "jpeg" && format != "png") || cfg.Width < 1 || cfg.Height < 1 {
		return nil, fmt.Errorf("the snapshot (%d bytes, %s) is not a JPEG or PNG photo", len(data), resp.Header.Get("Content-Type"))
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
	return ScoreFrame(frame, c, seat, rec, base)
}

// ScoreFrame is ScoreNow on a frame already taken: the CPU part alone, so
// that a service can wait on the camera without holding a worker.
func ScoreFrame(frame []byte, c *Calibration, seat string, rec Recognizer, base scoring.Request) (*Proposal, error) {
	if c == nil {
		return nil, errors.New("the table is not calibrated yet")
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
