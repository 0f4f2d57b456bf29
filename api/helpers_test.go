package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
	"mjscan/vision"
)

// newTestServer builds a service with test settings and serves it on
// loopback. tweak adjusts the config before the server is built.
func newTestServer(t testing.TB, rec Recognizer, tweak func(*Config)) (*Server, *httptest.Server) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Workers, cfg.Queue = 2, 8
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := New(cfg, Deps{Version: "test", Recognizer: rec})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// answer is a decoded response.
type answer struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

func (a *answer) str(key string) string {
	v, _ := a.json[key].(string)
	return v
}

func (a *answer) num(key string) int {
	v, _ := a.json[key].(float64)
	return int(v)
}

func do(t testing.TB, req *http.Request) *answer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	a := &answer{status: resp.StatusCode, header: resp.Header, body: body}
	if strings.Contains(resp.Header.Get("Content-Type"), "json") {
		if err := json.Unmarshal(body, &a.json); err != nil {
			t.Fatalf("%s %s: body is not JSON: %v\n%s", req.Method, req.URL.Path, err, body)
		}
	}
	return a
}

func postJSON(t testing.TB, url, body string) *answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return do(t, req)
}

func get(t testing.TB, url string) *answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	return do(t, req)
}

// multipartBody builds a form with a photo and text fields.
func multipartBody(t testing.TB, photo []byte, fields map[string]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if photo != nil {
		w, _ := mw.CreateFormFile("photo", "photo.jpg")
		w.Write(photo)
	}
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

func postPhoto(t testing.TB, url string, photo []byte, fields map[string]string, key string) *answer {
	t.Helper()
	ct, body := multipartBody(t, photo, fields)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return do(t, req)
}

// wantProblem checks an RFC 9457 answer: status, content type, the
// members every problem has, and the code.
func wantProblem(t testing.TB, a *answer, status int, code string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d, want %d: %s", a.status, status, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("content type %q, want application/problem+json: %s", ct, a.body)
	}
	for _, k := range []string{"type", "title", "detail", "code"} {
		if a.str(k) == "" {
			t.Errorf("problem has no %q: %s", k, a.body)
		}
	}
	if a.num("status") != status {
		t.Errorf("problem status member %d, want %d", a.num("status"), status)
	}
	if a.str("code") != code {
		t.Errorf("code %q, want %q: %s", a.str("code"), code, a.body)
	}
	if strings.Contains(a.str("detail"), "json: ") || strings.Contains(a.str("detail"), "Go struct") {
		t.Errorf("detail leaks Go internals: %s", a.str("detail"))
	}
}

// samplePhoto is the committed dev photo (see testdata/photos/ATTRIBUTION.md).
func samplePhoto(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "photos", "dev-sample.jpg"))
	if err != nil {
		t.Fatalf("committed photo missing: %v", err)
	}
	return b
}

// fakeRecognizer stands in for the vision package in HTTP tests: it
// answers a fixed recognition, counts calls, and can be made slow. The
// service itself never uses it.
type fakeRecognizer struct {
	calls atomic.Int64
	delay time.Duration
	block chan struct{} // when set, each call waits for it
	rec   vision.Recognition
	err   error
	// byPhoto, when it holds the photo's bytes, answers that recognition.
	byPhoto map[string]vision.Recognition
}

func (f *fakeRecognizer) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	f.calls.Add(1)
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	rec := f.rec
	if r, ok := f.byPhoto[string(photo)]; ok {
		rec = r
	}
	return &rec, nil
}

// handRecognition is what the fake reads: a riichi hand that scores riichi
// tsumo pinfu tanyao (4 han 20 fu, 5200 for a non-dealer's self-draw)
// whose last tile is the winning one.
func handRecognition() vision.Recognition {
	codes := []string{"2m", "3m", "4m", "3p", "4p", "5p", "4s", "5s", "6s", "6s", "7s", "5p", "5p", "8s"}
	rec := vision.Recognition{OK: true, Width: 1400, Height: 300}
	g := vision.Group{Kind: "hand"}
	for i, c := range codes {
		rec.Tiles = append(rec.Tiles, vision.TileSeen{Tile: tileOf(c), Box: [4]int{i * 100, 100, i*100 + 90, 230}, Confidence: 0.9,
			Alternatives: []vision.Alternative{{Tile: scoring.East, Confidence: 0.05}}})
		g.Tiles = append(g.Tiles, i)
	}
	rec.Groups = []vision.Group{g}
	rec.Hand = &scoringRequestForFake
	return rec
}

// tileOf types one tile code in a test.
func tileOf(code string) scoring.Tile {
	t, err := scoring.ParseTile(code)
	if err != nil {
		panic(err)
	}
	return t
}

var scoringRequestForFake = scoring.Request{Hand: "234m345p456s678s55p", WinTile: "8s"}

func rulebookScore(r *scoring.Request) scoring.Result { return rulebook.Score(r) }

// shippedRecognizer puts the shipped models behind the API's interface.
type shippedRecognizer struct{ *vision.Recognizer }

func (r shippedRecognizer) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	return r.RecognizeContext(ctx, photo)
}

// shippedModels loads the committed models, closed when the test ends.
func shippedModels(t testing.TB) *vision.Recognizer {
	t.Helper()
	models, err := vision.New(vision.Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(models.Close)
	return models
}

// syncBuffer is a log destination tests can read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// mountOnSQLite mounts the tournament routes of s on a referee record in a
// new SQLite file, closed when the test ends.
func mountOnSQLite(t testing.TB, s *Server) *referee.Store {
	t.Helper()
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(t.TempDir(), "r.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		t.Fatal(err)
	}
	return store
}
