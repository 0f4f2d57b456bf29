package app

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"mjscan/tournament"
	"mjscan/vision"
)

// TestRecordHand: a hand its log does not take leaves the game as it was;
// one it takes is applied; one that does not settle is never offered to
// the log.
func TestRecordHand(t *testing.T) {
	g, err := tournament.NewGame("g", "t", "msmc-2016", [4]string{"A", "B", "C", "D"})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(g)
	draw := tournament.Play{Outcome: tournament.Draw, Tenpai: []int{0}}
	if _, err := RecordHand(g, draw, func() error { return errors.New("the log is down") }); err == nil {
		t.Fatal("a hand the log did not take was recorded")
	}
	if after, _ := json.Marshal(g); string(after) != string(before) {
		t.Fatalf("a hand the log did not take changed the game:\n%s\n%s", before, after)
	}
	kept := 0
	if _, err := RecordHand(g, tournament.Play{Outcome: "nonsense"}, func() error { kept++; return nil }); err == nil || kept != 0 {
		t.Fatalf("a hand that does not settle: error %v, offered to the log %d times", err, kept)
	}
	rec, err := RecordHand(g, draw, func() error { kept++; return nil })
	if err != nil || rec == nil || kept != 1 {
		t.Fatalf("a hand the log took: %v %v (kept %d)", rec, err, kept)
	}
	if after, _ := json.Marshal(g); string(after) == string(before) {
		t.Fatal("a recorded hand left the game as it was")
	}
}

type fakeTeacher struct{ err error }

func (f fakeTeacher) TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &vision.Bank{Taught: []string{photos[0].Name}}, nil
}

type refusingRunner struct{ err error }

func (r refusingRunner) Run(context.Context, int64, func() error) error { return r.err }

// TestTeachSet: the taught bank goes to keep; teaching's, keep's and the
// runner's errors come back, and keep never runs without a bank.
func TestTeachSet(t *testing.T) {
	a := New(Config{}, Deps{})
	photos := []vision.LabelledPhoto{{Name: "p1"}}
	var got *vision.Bank
	if err := a.TeachSet(context.Background(), fakeTeacher{}, nil, photos, 100, func(b *vision.Bank) error { got = b; return nil }); err != nil || got == nil || got.Taught[0] != "p1" {
		t.Fatalf("taught %v, error %v", got, err)
	}
	bad := errors.New("no tile to learn from")
	if err := a.TeachSet(context.Background(), fakeTeacher{err: bad}, nil, photos, 100, func(*vision.Bank) error { t.Fatal("kept nothing taught"); return nil }); !errors.Is(err, bad) {
		t.Fatalf("teaching's error: %v", err)
	}
	full := errors.New("busy")
	b := New(Config{}, Deps{Run: refusingRunner{full}})
	if err := b.TeachSet(context.Background(), fakeTeacher{}, nil, photos, 100, func(*vision.Bank) error { t.Fatal("ran without a worker"); return nil }); !errors.Is(err, full) {
		t.Fatalf("the runner's error: %v", err)
	}
}
