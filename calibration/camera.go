package calibration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the snapshot formats whose headers are checked
	_ "image/png"
	"io"
	"net/http"
	"time"
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
