// Package app is the service's use cases: Score, Verify, Recognize,
// SnapAndScore, ScoreNow, RecordHand (settle, keep, apply) and TeachSet
// (a player's tile set, taught on a worker). Each takes plain values, runs the heavy work on the service's
// workers, and answers a result or a domain error (internal/fault). The
// HTTP adapters in api/ decode a request, call one use case and encode its
// answer; the command line can call the same use cases.
//
// The data path is api → app → vision → scoring: app reads photos with
// vision, puts the hand together (Merge, the one rule for a photo and the
// situation a player sent) and scores it with scoring/rulebook. Nothing
// below app knows about HTTP, and app knows nothing of echo.
package app

import (
	"context"
	"time"

	"mjscan/calibration"
	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
	"mjscan/vision"
)

// Recognizer reads the tiles in one photo; *vision.Recognizer is one (by
// RecognizeContext). The error wraps vision.ErrNotAPhoto or
// vision.ErrTooLarge for a photo it cannot read, or is the context's.
type Recognizer interface {
	Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error)
}

// Runner runs CPU work on one of the service's workers, in the caller's
// goroutine: when Run returns, work has ended. pixels is what decoding the
// work's photo costs (0 for none), counted in the service's decode budget.
// Run answers its own error (busy, past the deadline) without running work.
type Runner interface {
	Run(ctx context.Context, pixels int64, work func() error) error
}

// Observer learns how long each step took (the service's metrics).
type Observer interface {
	// Step is one timed step: "photo_header", "recognize", "score", the
	// vision pipeline's steps, "overlay".
	Step(name string, d time.Duration)
	// Scored is one hand scored under rules, with its outcome ("ok" or the
	// CONTRACT error code).
	Scored(rules, outcome string, d time.Duration)
}

// Snapshotter takes one frame from a table's camera; calibration.Camera is
// one.
type Snapshotter interface {
	Snapshot(ctx context.Context, url string) ([]byte, error)
}

// Config is what the use cases are told.
type Config struct {
	// MaxMegapixels refuses larger photos from their header.
	MaxMegapixels float64
	// RequestTimeout is how long one request may take (named in messages).
	RequestTimeout time.Duration
}

// Deps are what the use cases work with. Recognizer may be nil (photos
// are then refused with the reason in RecognizerError); Run, Observe and
// Camera have working defaults.
type Deps struct {
	Recognizer      Recognizer
	RecognizerError string
	Run             Runner
	Observe         Observer
	Camera          Snapshotter
	// Score scores one hand; rulebook.Try when nil.
	Score func(*scoring.Request) (scoring.Result, error)
}

// App holds the use cases.
type App struct {
	cfg  Config
	deps Deps
}

// New builds the use cases.
func New(cfg Config, deps Deps) *App {
	if deps.Run == nil {
		deps.Run = inline{}
	}
	if deps.Observe == nil {
		deps.Observe = noObserver{}
	}
	if deps.Camera == nil {
		deps.Camera = calibration.DefaultCamera
	}
	if deps.Score == nil {
		deps.Score = rulebook.Try
	}
	return &App{cfg: cfg, deps: deps}
}

// CanRecognize answers nil when photos can be read, or why not.
func (a *App) CanRecognize() error {
	if a.deps.Recognizer != nil {
		return nil
	}
	msg := "photo recognition is not available on this server; you can still enter the tiles by hand"
	if a.deps.RecognizerError != "" {
		msg += " (the recogniser did not load: " + a.deps.RecognizerError + ")"
	}
	return fault.New(fault.Unavailable, fault.CodeNoRecognition, msg)
}

// inline runs work at once: the command line's Runner.
type inline struct{}

func (inline) Run(ctx context.Context, _ int64, work func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return work()
}

type noObserver struct{}

func (noObserver) Step(string, time.Duration)           {}
func (noObserver) Scored(string, string, time.Duration) {}

// timed reports the time since start as step name.
func (a *App) timed(name string, start time.Time) { a.deps.Observe.Step(name, time.Since(start)) }

type readerKey struct{}

// WithRecognizer makes the photos read under ctx read with r instead of
// the service's recogniser: a player's own tile set (the api's tile sets).
func WithRecognizer(ctx context.Context, r Recognizer) context.Context {
	return context.WithValue(ctx, readerKey{}, r)
}

// recognizer is the recogniser for ctx: its own (WithRecognizer), or the
// service's.
func (a *App) recognizer(ctx context.Context) Recognizer {
	if r, ok := ctx.Value(readerKey{}).(Recognizer); ok && r != nil {
		return r
	}
	return a.deps.Recognizer
}
