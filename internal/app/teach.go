package app

import (
	"context"
	"time"

	"mjscan/vision"
)

// Teacher learns a player's tile set from photos whose tiles are known;
// *vision.Recognizer is one (by vision.Teach).
type Teacher interface {
	TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error)
}

// TeachSet teaches a tile set (growing base when it is not nil) on a
// worker, pixels being what the largest photo costs to decode, and hands
// the bank to keep, which stores it: keep runs on the worker too, and
// runs to its end even when ctx ends meanwhile (teaching cannot be cut
// short, and a set learned is a set kept). The error is the runner's
// (busy, past the deadline before teaching began), teaching's or keep's.
func (a *App) TeachSet(ctx context.Context, t Teacher, base *vision.Bank, photos []vision.LabelledPhoto, pixels int64, keep func(*vision.Bank) error) error {
	var taught error
	err := a.deps.Run.Run(ctx, pixels, func() error {
		defer a.timed("teach", time.Now())
		bank, err := t.TeachSet(base, photos)
		if err != nil {
			taught = err
			return nil
		}
		taught = keep(bank)
		return nil
	})
	if err != nil {
		return err
	}
	return taught
}
