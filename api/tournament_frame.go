package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/calibration"
	"mjscan/internal/fault"
)

// getFrame answers one snapshot of a table's camera as it is now, for the
// organiser's desk to draw the calibration (the felt and each seat's
// region) on. The page cannot fetch the camera itself: the camera is the
// service's to reach, and the page talks to this service only.
func (t *tournamentRoutes) getFrame(c echo.Context) error {
	return t.withFrame(c, func(_ context.Context, _ *tableSetup, frame []byte) error {
		// The camera answers one JPEG or PNG (calibration.Camera refuses
		// anything else), which the page shows as an image and nothing
		// more; with nosniff, the label must be the frame's own.
		ctype := "image/jpeg"
		if http.DetectContentType(frame) == "image/png" {
			ctype = "image/png"
		}
		h := c.Response().Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		return c.Blob(http.StatusOK, ctype, frame)
	})
}

// withFrame takes one snapshot of the table's camera and hands it to use.
// The snapshot waits on the network: it holds a place, not a worker.
func (t *tournamentRoutes) withFrame(c echo.Context, use func(ctx context.Context, ts *tableSetup, frame []byte) error) error {
	ts, err := t.table(c)
	if err != nil {
		return err
	}
	ctx, leave, err := t.s.admitted(c.Request().Context())
	if err != nil {
		return err
	}
	defer leave()
	frame, err := calibration.DefaultCamera.Snapshot(ctx, ts.SnapshotURL)
	if err != nil {
		return fault.Wrap(err, fault.Upstream, codeRecognition, err.Error())
	}
	return use(ctx, ts, frame)
}
