package vision

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// TestRecognitionSteps: a recognition runs its named steps in order, each
// timed for the caller, and starts no step once its request has ended.
func TestRecognitionSteps(t *testing.T) {
	r := recognizer(t)
	photo := samplePhoto(t)
	var names []string
	ctx := WithTrace(context.Background(), func(step string, d time.Duration) {
		if d < 0 {
			t.Errorf("step %s took %v", step, d)
		}
		names = append(names, step)
	})
	if _, err := r.RecognizeContext(ctx, photo); err != nil {
		t.Fatal(err)
	}
	want := []string{"decode", "worker", "detect", "classify", "review", "layout"}
	if !slices.Equal(names, want) {
		t.Errorf("steps %v, want %v", names, want)
	}

	// The deadline passes during detection: classification never starts.
	names = nil
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = WithTrace(ctx, func(step string, _ time.Duration) {
		names = append(names, step)
		if step == "detect" {
			cancel()
		}
	})
	st := newSteps(ctx)
	_, _, err := r.readBoxes(st, mustDecode(t, photo))
	st.end()
	if !errors.Is(err, context.Canceled) || slices.Contains(names, "classify") {
		t.Errorf("cancelled after detect: %v, steps %v", err, names)
	}
	if _, err := r.RecognizeContext(ctx, photo); !errors.Is(err, context.Canceled) {
		t.Errorf("a request that has ended was read: %v", err)
	}
}

func mustDecode(t *testing.T, photo []byte) gocv.Mat {
	t.Helper()
	m, err := DecodePhoto(photo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}
