package app

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/calibration"
	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/vision"
)

// tableFrame is one of calibration's committed camera frames.
func tableFrame(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// visionReader puts the shipped models behind the use cases' Recognizer.
type visionReader struct{ *vision.Recognizer }

func (v visionReader) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	return v.RecognizeContext(ctx, photo)
}

// TestScoreNowFromCamera: a table camera served over HTTP; calibrate on
// the empty table, then "score now" for South reads South's hand with the
// shipped models and scores it.
func TestScoreNowFromCamera(t *testing.T) {
	frames := map[string][]byte{"/empty.jpg": tableFrame(t, "table-empty.jpg"), "/snapshot.jpg": tableFrame(t, "table-hand-south.jpg")}
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := frames[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(data)
	}))
	defer cam.Close()
	ctx := context.Background()
	empty, err := calibration.DefaultCamera.Snapshot(ctx, cam.URL+"/empty.jpg")
	if err != nil {
		t.Fatal(err)
	}
	c, err := calibration.Calibrate(empty, calibration.GreenFelt, "E")
	if err != nil {
		t.Fatal(err)
	}
	models, err := vision.New(vision.Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer models.Close()
	a := New(Config{MaxMegapixels: 50}, Deps{Recognizer: visionReader{models}})
	base := scoring.Request{Rules: "riichi", RoundWind: "E"}
	table := Table{SnapshotURL: cam.URL + "/snapshot.jpg", Calibration: c}
	p, err := a.ScoreNow(ctx, table, "S", base)
	if err != nil {
		t.Fatal(err)
	}
	// 234s 678s 222z 777z 44z (hand-017's row, the last tile taken as the
	// winning one) on a discard, South in the East round: South's wind 1 +
	// red dragon 1 + half flush (concealed) 3 = 5 han, a non-dealer
	// mangan: 8,000.
	if p.Request.Hand != "234678s77722244z" || p.Request.WinTile != "4z" || p.Request.SeatWind != "S" {
		t.Fatalf("proposed hand %+v", p.Request)
	}
	if !p.Result.OK || p.Result.Han != 5 || p.Result.Limit != "mangan" || p.Result.Points.Total != 8000 {
		t.Fatalf("score %+v", p.Result)
	}
	if p.FrameSHA256 == "" {
		t.Fatal("no frame hash")
	}
	// East's place holds twelve tiles in a block: no hand of fourteen.
	if _, err := a.ScoreNow(ctx, table, "E", base); !fault.Is(err, fault.Unprocessable) {
		t.Fatalf("East's place was read as a hand: %v", err)
	}
	missing := table
	missing.SnapshotURL = cam.URL + "/missing.jpg"
	if _, err := a.ScoreNow(ctx, missing, "S", base); !fault.Is(err, fault.Upstream) {
		t.Fatalf("a camera answering 404 gave a frame: %v", err)
	}
}

// TestScoreNowCameraFailureSaysNothingOfThePort: score-now on a closed
// port answers ErrNoSnapshot's words, whatever the cause.
func TestScoreNowCameraFailureSaysNothingOfThePort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	a := New(Config{}, Deps{Recognizer: visionReader{}})
	_, err = a.ScoreNow(context.Background(), Table{SnapshotURL: "http://" + closed + "/", Calibration: &calibration.Calibration{}}, "S", scoring.Request{})
	e, ok := fault.As(err)
	if !ok || e.Kind != fault.Upstream || e.Message != calibration.ErrNoSnapshot.Error() || !errors.Is(err, calibration.ErrNoSnapshot) {
		t.Errorf("score now on a closed port: %v", err)
	}
}

// TestScoreNowBadSeat: a seat that is not E, S, W or N is the caller's
// mistake (invalid, a 400), found before the camera is asked for a frame;
// it used to be reported as the camera's failure (upstream, a 502).
func TestScoreNowBadSeat(t *testing.T) {
	asked := 0
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(tableFrame(t, "table-hand-south.jpg"))
	}))
	defer cam.Close()
	a := New(Config{MaxMegapixels: 50}, Deps{Recognizer: visionReader{}})
	table := Table{SnapshotURL: cam.URL + "/snapshot.jpg", Calibration: &calibration.Calibration{Near: "E"}}
	for _, seat := range []string{"", "X", "south", "S\x00"} {
		_, err := a.ScoreNow(context.Background(), table, seat, scoring.Request{Rules: "riichi"})
		e, ok := fault.As(err)
		if !ok || e.Kind != fault.Invalid || e.Code != scoring.CodeBadRequest || e.Message == "" {
			t.Errorf("seat %q: %v (kind %v), want an invalid request", seat, err, fault.KindOf(err))
		}
	}
	if asked != 0 {
		t.Errorf("the camera was asked %d times for a frame for seats that do not exist", asked)
	}
}

// TestScoreNowWrongNearSaysWhereTheHandIs (#18): a table registered with
// the wrong near seat cut out another seat's place, and score-now said
// only "no hand was read in front of seat S". It now says in front of
// which seat the hand was seen, and which near seat would make it S's.
func TestScoreNowWrongNearSaysWhereTheHandIs(t *testing.T) {
	frames := map[string][]byte{"/snapshot.jpg": tableFrame(t, "table-hand-south.jpg")}
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(frames[r.URL.Path])
	}))
	defer cam.Close()
	// The camera stands behind East; the table was registered as seen
	// from West.
	c, err := calibration.Calibrate(tableFrame(t, "table-empty.jpg"), calibration.GreenFelt, "W")
	if err != nil {
		t.Fatal(err)
	}
	models, err := vision.New(vision.Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer models.Close()
	a := New(Config{MaxMegapixels: 50}, Deps{Recognizer: visionReader{models}})
	_, err = a.ScoreNow(context.Background(), Table{SnapshotURL: cam.URL + "/snapshot.jpg", Calibration: c}, "S", scoring.Request{Rules: "riichi", RoundWind: "E"})
	e, ok := fault.As(err)
	if !ok || e.Kind != fault.Unprocessable {
		t.Fatalf("score now with the wrong near seat: %v", err)
	}
	// South's hand lies at the camera's right: with West near, that is
	// North's place; with East near it is South's.
	for _, want := range []string{"in front of seat S", "seen in front of seat N", `near "W"`, `near "E"`} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("%q does not say %q", e.Message, want)
		}
	}
}
