package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the photo formats whose headers are checked here
	_ "image/png"
	"time"

	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/vision"
)

// PhotoParts name the photos of one upload, in the order they are read:
// the whole table in "photo", or the parts of a hand photographed one by
// one.
var PhotoParts = []string{"photo", "hand", "melds", "dora", "flowers"}

// IsPhotoPart says whether name is one of PhotoParts.
func IsPhotoPart(name string) bool {
	for _, p := range PhotoParts {
		if p == name {
			return true
		}
	}
	return false
}

// Photos are one upload's photos by part (PhotoParts).
type Photos map[string][]byte

// Reading is what the photos of one upload show.
type Reading struct {
	// Parts holds each photo's recognition by part.
	Parts map[string]*vision.Recognition
	// Seen is the hand request the photos make together (tiles only: no
	// rules, no situation).
	Seen *scoring.Request
	// Failure, when set, is why a photo could not be read (the first
	// failing part's, named).
	Failure *scoring.Error
}

// Recognize reads every photo of an upload, in the order of PhotoParts,
// and puts the tiles they show together. id names the recognitions.
func (a *App) Recognize(ctx context.Context, photos Photos, id string) (*Reading, error) {
	if err := a.CanRecognize(); err != nil {
		return nil, err
	}
	out := &Reading{Parts: map[string]*vision.Recognition{}}
	for _, name := range PhotoParts {
		data, ok := photos[name]
		if !ok {
			continue
		}
		rec, err := a.recognize(ctx, data)
		if err != nil {
			if e, ok := fault.As(err); ok && name != "photo" {
				e.Message = fmt.Sprintf("the %s photo: %s", name, e.Message)
			}
			return nil, err
		}
		rec.ID = id
		out.Parts[name] = rec
		if out.Failure == nil {
			if f := recFailure(rec); f != nil && name != "photo" {
				out.Failure = scoring.Errorf(f.Code, "the %s photo: %s", name, f.Message)
			} else {
				out.Failure = f
			}
		}
	}
	out.Seen = combineParts(out.Parts)
	return out, nil
}

// recognize checks one photo's header and reads it on a worker, its
// pixels counted in the decode budget.
func (a *App) recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	px, err := a.CheckPhoto(photo)
	if err != nil {
		return nil, err
	}
	var rec *vision.Recognition
	var recErr error
	err = a.deps.Run.Run(ctx, px, func() error {
		defer a.timed("recognize", time.Now())
		rec, recErr = a.recognizer(ctx).Recognize(vision.WithTrace(ctx, a.deps.Observe.Step), photo)
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case errors.Is(recErr, context.DeadlineExceeded):
		return nil, fault.Wrap(recErr, fault.Timeout, fault.CodeTimeout, "reading this photo took longer than the service allows ("+a.cfg.RequestTimeout.String()+"); please try again")
	case errors.Is(recErr, context.Canceled):
		return nil, fault.Wrap(recErr, fault.Cancelled, fault.CodeTimeout, "the request was cancelled")
	case errors.Is(recErr, vision.ErrTooLarge):
		return nil, fault.Newf(fault.TooLarge, fault.CodeTooLarge, "the photo is larger than the recogniser reads (%d megapixels): send a smaller photo", vision.MaxMegapixels)
	case errors.Is(recErr, vision.ErrNotAPhoto):
		return nil, fault.New(fault.Unsupported, fault.CodeNotAPhoto, "this file is not a photo the service can read: send a JPEG or PNG image")
	case recErr != nil:
		return nil, fault.Wrap(recErr, fault.Internal, fault.CodeRecognition, "the service could not read this photo; try again with the tiles in good light, face up and filling the frame")
	case rec == nil:
		return nil, fault.New(fault.Internal, fault.CodeRecognition, "the recogniser returned nothing for this photo")
	}
	return rec, nil
}

// CheckPhoto reads only the image header: the format must be JPEG or PNG
// and the pixel count under the cap, before anything is decoded. It
// returns the pixel count, what decoding the photo will cost.
func (a *App) CheckPhoto(photo []byte) (int64, error) {
	defer a.timed("photo_header", time.Now())
	cfg, _, err := image.DecodeConfig(bytes.NewReader(photo))
	if err != nil {
		return 0, fault.New(fault.Unsupported, fault.CodeNotAPhoto, "this file is not a photo the service can read: send a JPEG or PNG image")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, fault.New(fault.Unsupported, fault.CodeNotAPhoto, "the image has no pixels")
	}
	if err := vision.CheckShape(cfg.Width, cfg.Height); err != nil {
		return 0, fault.New(fault.Unsupported, fault.CodeNotAPhoto, err.Error())
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if mp := float64(px) / 1e6; mp > a.cfg.MaxMegapixels {
		return 0, fault.Newf(fault.TooLarge, fault.CodeTooLarge,
			"the photo is %.0f megapixels; at most %g are accepted: send a smaller photo", mp, a.cfg.MaxMegapixels)
	}
	if vision.Truncated(photo) {
		return 0, fault.New(fault.Unsupported, fault.CodeNotAPhoto,
			"this photo is damaged: the file ends before the picture does (the upload or a copy was cut short); take or send it again")
	}
	return px, nil
}

// PhotoPixels is the pixel count in an image's header, 0 when it has none
// (the decoder then refuses it before decoding anything).
func PhotoPixels(photo []byte) int64 {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(photo))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0
	}
	return int64(cfg.Width) * int64(cfg.Height)
}

// recFailure is why a recognition failed, or nil.
func recFailure(rec *vision.Recognition) *scoring.Error {
	if rec.OK {
		return nil
	}
	if rec.Error != nil {
		return rec.Error
	}
	return scoring.Errorf(fault.CodeRecognition, "the tiles in this photo could not be read")
}

// Overlay draws a recognition on its photo (a PNG), on a worker like any
// OpenCV work: the photo is decoded again, whole.
func (a *App) Overlay(ctx context.Context, photo []byte, rec *vision.Recognition) ([]byte, error) {
	var png []byte
	var drawErr error
	err := a.deps.Run.Run(ctx, PhotoPixels(photo), func() error {
		defer a.timed("overlay", time.Now())
		png, drawErr = vision.Overlay(photo, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if drawErr != nil {
		return nil, fault.Wrap(drawErr, fault.Internal, fault.CodeRecognition, "the service read the photo but could not draw the overlay; ask again without overlay")
	}
	return png, nil
}
