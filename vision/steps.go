package vision

import (
	"context"
	"time"
)

// The recogniser reads a photo in named steps: "decode" (the photo to
// pixels, reduced when large), "worker" (waiting for a free pair of
// networks), "detect" (the tile detector), "classify" (each box read),
// "review" (a tile set's bank or head, then the boxes too weak to keep)
// and "layout" (the tiles in reading order, grouped into a hand). Each is
// timed for the caller (WithTrace), and the deadline is checked between
// them: a request that has ended starts no further step.

// Trace learns how long each step of a recognition took.
type Trace func(step string, d time.Duration)

type traceKey struct{}

// WithTrace asks the recognitions run with ctx to report their steps'
// times to trace (the service's metrics), as httptrace does for a request.
func WithTrace(ctx context.Context, trace Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, trace)
}

// steps times a recognition's steps and checks its deadline between them.
type steps struct {
	ctx   context.Context
	trace Trace
	name  string
	start time.Time
}

func newSteps(ctx context.Context) *steps {
	t, _ := ctx.Value(traceKey{}).(Trace)
	return &steps{ctx: ctx, trace: t}
}

// next ends the step under way and starts the one named, unless the
// deadline has passed: then it answers the context's error.
func (s *steps) next(name string) error {
	s.end()
	if err := s.ctx.Err(); err != nil {
		return err
	}
	s.name, s.start = name, time.Now()
	return nil
}

// end ends the step under way, if any.
func (s *steps) end() {
	if s.name != "" && s.trace != nil {
		s.trace(s.name, time.Since(s.start))
	}
	s.name = ""
}
