package api

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"log"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"mjscan/referee"
	"mjscan/vision"
)

// egyptScene reads one of the committed scenes of the egypt set (a set the
// models never saw) and its label file.
func egyptScene(t testing.TB, n int) (photo []byte, labels string) {
	t.Helper()
	stem := filepath.Join("..", "testdata", "synth", "egypt", fmt.Sprintf("synth_3_%05d", n))
	photo, err := os.ReadFile(stem + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	txt, err := os.ReadFile(stem + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return photo, string(txt)
}

// labelCodes are the distinct codes of a label file, sorted.
func labelCodes(t testing.TB, labels string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(labels, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			seen[f[0]] = true
		}
	}
	var out []string
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// labelsAsRecognition writes a label file as a corrected recognition's
// tiles (with the members a recognition carries), as the page sends back.
func labelsAsRecognition(t testing.TB, labels string) string {
	t.Helper()
	var tiles []vision.TileSeen
	for _, line := range strings.Split(labels, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		var b [4]int
		for i := range b {
			fmt.Sscan(f[i+1], &b[i])
		}
		tiles = append(tiles, vision.TileSeen{Tile: tileOf(f[0]), Box: b, Confidence: 0.4, Rotated: len(f) == 6,
			Alternatives: []vision.Alternative{{Tile: tileOf("1z"), Confidence: 0.1}}})
	}
	out, _ := json.Marshal(vision.Recognition{OK: true, Tiles: tiles})
	return string(out)
}

// teachPart is one photo of a teaching upload and its labels.
type teachPart struct {
	photo  []byte
	labels string
}

// teachBody builds a teaching form: each photo followed by its labels,
// and the extra fields.
func teachBody(parts []teachPart, fields map[string]string) (string, []byte) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	for _, p := range parts {
		if p.photo != nil {
			w, _ := mw.CreateFormFile("photo", "tiles.jpg")
			w.Write(p.photo)
		}
		if p.labels != "\x00none" {
			mw.WriteField("labels", p.labels)
		}
	}
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

func postTeaching(t testing.TB, url string, parts []teachPart, fields map[string]string) *answer {
	t.Helper()
	ct, body := teachBody(parts, fields)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	return do(t, req)
}

// The shipped models, loaded once for every tile-set test; what they
// teach is kept by input, so a set taught on SQLite is not taught a
// second time, at length, on PostgreSQL (the routes, the pool, the record
// and the reading all run each time).
var (
	teachModelsOnce sync.Once
	teachModels     *vision.Recognizer
	teachModelsErr  error
	taughtByInput   sync.Map // input digest → *vision.Bank
	teachesRun      atomic.Int64
)

type memoTeacher struct{ shippedRecognizer }

func sharedTeacher(t testing.TB) memoTeacher {
	t.Helper()
	teachModelsOnce.Do(func() { teachModels, teachModelsErr = vision.New(vision.Config{Workers: 1}) })
	if teachModelsErr != nil {
		t.Fatal(teachModelsErr)
	}
	return memoTeacher{shippedRecognizer{teachModels}}
}

func (m memoTeacher) TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error) {
	h := sha256.New()
	if base != nil {
		fmt.Fprintf(h, "base %q %d\n", base.Taught, len(base.Examples))
	}
	for _, p := range photos {
		fmt.Fprintf(h, "%s %x %v\n", p.Name, sha256.Sum256(p.Data), p.Labels)
	}
	key := hex.EncodeToString(h.Sum(nil))
	if b, ok := taughtByInput.Load(key); ok {
		return b.(*vision.Bank), nil
	}
	teachesRun.Add(1)
	b, err := vision.Teach(m.Recognizer, base, photos)
	if err == nil {
		taughtByInput.Store(key, b)
	}
	return b, err
}

func (m memoTeacher) WithSet(b *vision.Bank) Recognizer {
	return shippedRecognizer{m.Recognizer.WithBank(b)}
}

// setService is the service with tile sets kept in one referee record;
// stop ends it (a restart is a new one on the same record).
type setService struct {
	url   string
	srv   *Server
	store *referee.Store
	log   *syncBuffer
	stop  func()
}

func startSets(t *testing.T, c referee.Config, rec Recognizer, organizer string, tweak func(*Config)) *setService {
	t.Helper()
	logs := &syncBuffer{}
	cfg := DefaultConfig()
	cfg.Workers, cfg.Queue = 1, 4
	// Teaching takes seconds on a loaded machine.
	cfg.RequestTimeout = 5 * time.Minute
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := New(cfg, Deps{Version: "test", Recognizer: rec, Log: log.New(logs, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	store, err := referee.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UseTileSets(store, organizer); err != nil {
		store.Close()
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	var once sync.Once
	stop := func() { once.Do(func() { ts.Close(); store.Close() }) }
	t.Cleanup(stop)
	return &setService{url: ts.URL, srv: s, store: store, log: logs, stop: stop}
}

var tileSetIDShape = regexp.MustCompile(`^ts_[0-9a-f]{32}$`)

func versionsOf(a *answer) map[string]any {
	v, _ := a.json["versions"].(map[string]any)
	return v
}

func tilesOfAnswer(a *answer) []string {
	var out []string
	tiles, _ := a.json["tiles"].([]any)
	for _, t := range tiles {
		m := t.(map[string]any)
		out = append(out, fmt.Sprint(m["tile"], m["box"]))
	}
	return out
}

func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// TestTileSetTaughtGrownAndRead: a set made from one labelled egypt scene
// knows its codes and tiles; it grows from a corrected recognition of a
// second scene into version 2; a recognition and a snap-and-score that
// name it read with it (the answer names the set and version, and the
// tiles read differ from the models' own); a new service on the same
// record finds it and reads the same. On SQLite, and on PostgreSQL when
// MJSCAN_TEST_POSTGRES_DSN is set.
func TestTileSetTaughtGrownAndRead(t *testing.T) {
	teacher := sharedTeacher(t)
	photo1, labels1 := egyptScene(t, 0)
	photo2, labels2 := egyptScene(t, 1)
	scene, sceneLabels := egyptScene(t, 5)
	for name, config := range recordBackends(t) {
		t.Run(name, func(t *testing.T) {
			c := config(t)
			svc := startSets(t, c, teacher, "", nil)
			a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{photo1, labels1}}, map[string]string{"name": " egypt at home "})
			if a.status != http.StatusCreated {
				t.Fatalf("create: %d %s", a.status, a.body)
			}
			id := a.str("id")
			if !tileSetIDShape.MatchString(id) || a.header.Get("Location") != "/v1/tile-sets/"+id {
				t.Fatalf("id %q, Location %q", id, a.header.Get("Location"))
			}
			if a.str("name") != "egypt at home" || a.num("version") != 1 || a.num("photos") != 1 || a.num("tiles") != 24 {
				t.Errorf("created: %s", a.body)
			}
			codes1 := strs(a.json["codes"])
			if got := append([]string(nil), codes1...); !equalSorted(got, labelCodes(t, labels1)) {
				t.Errorf("codes %v, want those of the labels %v", codes1, labelCodes(t, labels1))
			}
			if g := get(t, svc.url+"/v1/tile-sets/"+id); g.status != 200 || g.num("version") != 1 || g.str("name") != "egypt at home" || g.json["bank"] != nil {
				t.Fatalf("summary: %d %s", g.status, g.body)
			}

			a = postTeaching(t, svc.url+"/v1/tile-sets/"+id+"/photos", []teachPart{{photo2, labelsAsRecognition(t, labels2)}}, nil)
			if a.status != http.StatusOK || a.num("version") != 2 || a.num("photos") != 2 || a.num("tiles") != 24+17 {
				t.Fatalf("grow: %d %s", a.status, a.body)
			}
			if want := labelCodes(t, labels1+"\n"+labels2); !equalSorted(strs(a.json["codes"]), want) {
				t.Errorf("grown codes %v, want %v", a.json["codes"], want)
			}

			plain := postPhoto(t, svc.url+"/v1/recognitions", scene, nil, "")
			withSet := postPhoto(t, svc.url+"/v1/recognitions", scene, map[string]string{"tile_set": id}, "")
			if plain.status != 200 || withSet.status != 200 {
				t.Fatalf("recognitions: %d %.300s / %d %.300s", plain.status, plain.body, withSet.status, withSet.body)
			}
			if v := versionsOf(plain); v["tile_set"] != nil {
				t.Errorf("a recognition without a set names one: %v", v)
			}
			if v := versionsOf(withSet); v["tile_set"] != id || v["tile_set_version"] != float64(2) {
				t.Errorf("versions %v, want tile_set %s version 2", v, id)
			}
			read := tilesOfAnswer(withSet)
			if fmt.Sprint(read) == fmt.Sprint(tilesOfAnswer(plain)) {
				t.Errorf("the set changed nothing: %v", read)
			}
			right, rightPlain := rightCodes(withSet, sceneLabels), rightCodes(plain, sceneLabels)
			t.Logf("scene 5 (%d tiles): %d read right with the set, %d without", len(strings.Split(strings.TrimSpace(sceneLabels), "\n")), right, rightPlain)
			if right <= rightPlain {
				t.Errorf("with the set %d tiles read right, without it %d", right, rightPlain)
			}

			snap := postPhoto(t, svc.url+"/v1/snap-and-score", scene, map[string]string{"tile_set": id}, "")
			if v := versionsOf(snap); snap.status != 200 || v["tile_set"] != id || v["tile_set_version"] != float64(2) {
				t.Errorf("snap-and-score: %d versions %v", snap.status, v)
			}

			svc.stop()
			svc = startSets(t, c, teacher, "", nil)
			g := get(t, svc.url+"/v1/tile-sets/"+id)
			if g.status != 200 || g.num("version") != 2 || g.num("tiles") != 41 || g.str("name") != "egypt at home" {
				t.Fatalf("after a restart: %d %s", g.status, g.body)
			}
			again := postPhoto(t, svc.url+"/v1/recognitions", scene, map[string]string{"tile_set": id}, "")
			if again.status != 200 || fmt.Sprint(tilesOfAnswer(again)) != fmt.Sprint(read) {
				t.Errorf("after a restart the set reads otherwise: %d %v, want %v", again.status, tilesOfAnswer(again), read)
			}
		})
	}
	t.Logf("%d teachings run", teachesRun.Load())
}

func equalSorted(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// rightCodes counts the labelled tiles read with their code (a box of the
// answer whose centre lies in the label's box).
func rightCodes(a *answer, labels string) int {
	n := 0
	tiles, _ := a.json["tiles"].([]any)
	for _, line := range strings.Split(labels, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		var b [4]float64
		for i := range b {
			fmt.Sscan(f[i+1], &b[i])
		}
		for _, t := range tiles {
			m := t.(map[string]any)
			box, _ := m["box"].([]any)
			if len(box) != 4 {
				continue
			}
			cx, cy := (box[0].(float64)+box[2].(float64))/2, (box[1].(float64)+box[3].(float64))/2
			if cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3] && m["tile"] == f[0] {
				n++
				break
			}
		}
	}
	return n
}

// fakeTeacher learns a set at once (one example per labelled tile) and
// reads with it by answering its codes; it counts what it teaches.
type fakeTeacher struct {
	fakeRecognizer
	model  string
	delay  time.Duration
	taught atomic.Int64
	// bare: the banks taught keep no tiles; givenTiles counts the tiles
	// of the banks WithSet was given.
	bare       bool
	givenTiles atomic.Int64
}

func (f *fakeTeacher) ModelVersion() string { return f.model }

func (f *fakeTeacher) TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error) {
	f.taught.Add(1)
	time.Sleep(f.delay)
	b := &vision.Bank{Format: vision.BankFormat, Version: vision.BankVersion, Width: 24, Height: 32}
	if base != nil {
		b.Examples, b.Taught = append(b.Examples, base.Examples...), append(b.Taught, base.Taught...)
	}
	codes := map[string]bool{}
	for _, p := range photos {
		for _, l := range p.Labels {
			b.Examples = append(b.Examples, vision.Example{Code: l.Tile, BGR: make([]byte, 60*80*3), Photo: p.Name})
		}
		b.Taught = append(b.Taught, p.Name)
	}
	for _, e := range b.Examples {
		codes[e.Code] = true
	}
	if f.bare {
		b.Examples = nil
	}
	h := &vision.Head{Dim: 1, Scale: 1}
	for c := range codes {
		h.Codes = append(h.Codes, c)
		h.W, h.B = append(h.W, 0), append(h.B, 0)
	}
	sort.Strings(h.Codes)
	b.Head = h
	return b, nil
}

func (f *fakeTeacher) WithSet(b *vision.Bank) Recognizer {
	f.givenTiles.Add(int64(b.Tiles()))
	rec := vision.Recognition{OK: true}
	for _, c := range b.Head.Codes {
		rec.Tiles = append(rec.Tiles, vision.TileSeen{Tile: tileOf(c), Box: [4]int{0, 0, 10, 10}})
	}
	return &fakeRecognizer{rec: rec}
}

// twoTiles labels two tiles of the committed dev photo.
const twoTiles = "1m 10 10 60 80\n2m 70 10 120 80\n"

func sqliteRecord(t *testing.T) referee.Config {
	return referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
}

// TestTileSetBadInputs: what a teaching upload gets wrong is a 4xx
// problem that says what to change, and nothing is taught from it; an
// unknown set is a 404 wherever it is named.
func TestTileSetBadInputs(t *testing.T) {
	fake := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}, model: "m1"}
	svc := startSets(t, sqliteRecord(t), fake, "", nil)
	photo := samplePhoto(t)
	ok := teachPart{photo, twoTiles}
	long := strings.Repeat("ã", maxSetName+1)
	cases := []struct {
		name   string
		parts  []teachPart
		fields map[string]string
		status int
		code   string
		says   string
	}{
		{"no labels", []teachPart{{photo, "\x00none"}}, nil, 400, "bad_request", "each photo needs its labels"},
		{"empty labels", []teachPart{{photo, "  "}}, nil, 400, "bad_request", "labels are empty"},
		{"empty list", []teachPart{{photo, "[]"}}, nil, 400, "bad_request", "name no tile"},
		{"no photo", []teachPart{{nil, twoTiles}}, nil, 400, "bad_request", "no photo"},
		{"a bad code", []teachPart{{photo, "1m 10 10 60 80\nxx 70 10 120 80"}}, nil, 400, "bad_request", `tile 2: "xx" is not a tile code`},
		{"a bad code in JSON", []teachPart{{photo, `[{"tile":"1m","box":[10,10,60,80]},{"tile":"10m","box":[70,10,120,80]}]`}}, nil, 400, "bad_request", `"10m" is not a tile code`},
		{"a box outside the photo", []teachPart{{photo, "1m 10 10 60 80\n2m 70 10 120 9000"}}, nil, 400, "bad_request", "outside the photo"},
		{"a negative box", []teachPart{{photo, "1m -5 10 60 80\n2m 70 10 120 80"}}, nil, 400, "bad_request", "outside the photo"},
		{"a box turned inside out", []teachPart{{photo, "1m 60 10 10 80\n2m 70 10 120 80"}}, nil, 400, "bad_request", "top left corner"},
		{"a box of three numbers", []teachPart{{photo, `[{"tile":"1m","box":[10,10,60]}]`}}, nil, 400, "bad_request", "needs 4 numbers"},
		{"a box that is not numbers", []teachPart{{photo, `[{"tile":"1m","box":"10 10 60 80"}]`}}, nil, 400, "bad_request", "box"},
		{"a line of four fields", []teachPart{{photo, "1m 10 10 60"}}, nil, 400, "bad_request", "labels line 1"},
		{"one kind of tile", []teachPart{{photo, "1m 10 10 60 80\n1m 70 10 120 80"}}, nil, 400, "bad_request", "at least two kinds"},
		{"too many photos", []teachPart{ok, ok, ok, ok, ok}, nil, 400, "bad_request", "at most 4 photos"},
		{"more labels than photos", []teachPart{ok, {nil, twoTiles}}, nil, 400, "bad_request", "photos: 1, labels: 2"},
		{"a control character in the name", []teachPart{ok}, map[string]string{"name": "my\x07set"}, 400, "bad_request", "control character"},
		{"a name too long", []teachPart{ok}, map[string]string{"name": long}, 400, "bad_request", "at most 80"},
		{"a field it does not take", []teachPart{ok}, map[string]string{"tile_set": "ts_x"}, 400, "bad_request", `"tile_set"`},
		{"not a photo", []teachPart{{[]byte("not a photo at all"), twoTiles}}, nil, 415, "not_a_photo", "JPEG or PNG"},
		{"the second photo wrong", []teachPart{ok, {photo, "1m 10 10 60 80\n2m 70 10 120 9000"}}, nil, 400, "bad_request", "photo 2: tile 2"},
		{"the second photo's JSON wrong", []teachPart{ok, {photo, `[{"tile":"1m","box":"10 10 60 80"}]`}}, nil, 400, "bad_request", "photo 2: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := postTeaching(t, svc.url+"/v1/tile-sets", c.parts, c.fields)
			wantProblem(t, a, c.status, c.code)
			t.Log(a.str("detail"))
			if !strings.Contains(a.str("detail"), c.says) {
				t.Errorf("detail %q does not say %q", a.str("detail"), c.says)
			}
		})
	}
	req, _ := http.NewRequest(http.MethodPost, svc.url+"/v1/tile-sets", strings.NewReader(`{"photo":"x"}`))
	req.Header.Set("Content-Type", "application/json")
	wantProblem(t, do(t, req), 415, codeUnsupportedType)
	if n := fake.taught.Load(); n != 0 {
		t.Fatalf("%d sets taught from bad uploads", n)
	}

	// Unknown sets, wherever they are named.
	for _, id := range []string{"ts_" + strings.Repeat("0", 32), "nonsense", "ts_" + strings.Repeat("A", 32)} {
		wantProblem(t, get(t, svc.url+"/v1/tile-sets/"+id), 404, codeNotFound)
		wantProblem(t, postTeaching(t, svc.url+"/v1/tile-sets/"+id+"/photos", []teachPart{ok}, nil), 404, codeNotFound)
		for _, route := range []string{"/v1/recognitions", "/v1/snap-and-score"} {
			a := postPhoto(t, svc.url+route, photo, map[string]string{"tile_set": id}, "")
			wantProblem(t, a, 404, codeNotFound)
			if !strings.Contains(a.str("detail"), "no tile set with this id") {
				t.Errorf("%s: %q", route, a.str("detail"))
			}
		}
	}

	// A set made; growing it takes no new name.
	a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{ok}, nil)
	if a.status != 201 || a.str("name") != "" || fmt.Sprint(a.json["codes"]) != "[1m 2m]" {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	wantProblem(t, postTeaching(t, svc.url+"/v1/tile-sets/"+a.str("id")+"/photos", []teachPart{ok}, map[string]string{"name": "other"}), 400, "bad_request")
	if n := fake.taught.Load(); n != 1 {
		t.Fatalf("%d sets taught, want 1", n)
	}
}

// TestTileSetsOff: a server that keeps no tile sets, or whose recogniser
// cannot learn one, says so with a 503; a recognition that names no set
// is read as before.
func TestTileSetsOff(t *testing.T) {
	fake := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}}
	_, ts := newTestServer(t, fake, nil)
	photo := samplePhoto(t)
	id := "ts_" + strings.Repeat("0", 32)
	wantProblem(t, postTeaching(t, ts.URL+"/v1/tile-sets", []teachPart{{photo, twoTiles}}, nil), 503, codeNoTileSets)
	wantProblem(t, get(t, ts.URL+"/v1/tile-sets/"+id), 503, codeNoTileSets)
	wantProblem(t, get(t, ts.URL+"/v1/tile-sets"), 503, codeNoTileSets)
	wantProblem(t, postPhoto(t, ts.URL+"/v1/recognitions", photo, map[string]string{"tile_set": id}, ""), 503, codeNoTileSets)
	if a := postPhoto(t, ts.URL+"/v1/recognitions", photo, nil, ""); a.status != 200 {
		t.Fatalf("a recognition naming no set: %d %s", a.status, a.body)
	}

	// Sets kept, but the recogniser cannot learn them.
	plain := &fakeRecognizer{rec: handRecognition()}
	svc := startSets(t, sqliteRecord(t), plain, "", nil)
	a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{photo, twoTiles}}, nil)
	wantProblem(t, a, 503, codeNoTileSets)
	if !strings.Contains(a.str("detail"), "cannot learn") {
		t.Errorf("detail %q", a.str("detail"))
	}
}

// TestTileSetTeachingOutlivesDeadline: teaching that passes the request's
// deadline is finished and kept (it cannot be cut short), and answered.
func TestTileSetTeachingOutlivesDeadline(t *testing.T) {
	fake := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}, delay: 400 * time.Millisecond}
	svc := startSets(t, sqliteRecord(t), fake, "", func(c *Config) { c.RequestTimeout = 100 * time.Millisecond })
	a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{samplePhoto(t), twoTiles}}, nil)
	if a.status != http.StatusCreated || !tileSetIDShape.MatchString(a.str("id")) || a.header.Get("Location") != "/v1/tile-sets/"+a.str("id") {
		t.Fatalf("%d %s", a.status, a.body)
	}
	if g := get(t, svc.url+"/v1/tile-sets/"+a.str("id")); g.num("version") != 1 || g.num("tiles") != 2 {
		t.Fatalf("kept as %s", g.body)
	}
}

// TestTileSetOutdatedAndTampered: a set taught with other models is read
// with once it is fitted again from the tiles it keeps (the teacher's
// recogniser is given them); one that keeps none is refused (409, grow it
// to teach it again); and one changed behind the record's back is refused
// (409).
func TestTileSetOutdatedAndTampered(t *testing.T) {
	c := sqliteRecord(t)
	photo := samplePhoto(t)
	old := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}, model: "models-1"}
	svc := startSets(t, c, old, "", nil)
	a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{photo, twoTiles}}, nil)
	if a.status != 201 || a.str("model") != "models-1" {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	id := a.str("id")
	if r := postPhoto(t, svc.url+"/v1/recognitions", photo, map[string]string{"tile_set": id}, ""); r.status != 200 || strs(r.json["tiles"]) == nil {
		t.Fatalf("read with the set: %d %s", r.status, r.body)
	}
	old.bare = true // a set whose record keeps no tiles to learn from
	b := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{photo, twoTiles}}, nil)
	if b.status != 201 {
		t.Fatalf("create a bare set: %d %s", b.status, b.body)
	}
	bare := b.str("id")
	svc.stop()

	newer := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}, model: "models-2"}
	svc = startSets(t, c, newer, "", nil)
	r := postPhoto(t, svc.url+"/v1/recognitions", photo, map[string]string{"tile_set": id}, "")
	if v := versionsOf(r); r.status != 200 || v["tile_set_version"] != float64(1) || len(strs(r.json["tiles"])) != 2 || !strings.Contains(string(r.body), `"tile":"2m"`) {
		t.Fatalf("read under the new models: %d %s", r.status, r.body)
	}
	if got := newer.givenTiles.Load(); got != 2 {
		t.Fatalf("the recogniser was given %d tiles to fit the set again from, want 2", got)
	}
	r = postPhoto(t, svc.url+"/v1/recognitions", photo, map[string]string{"tile_set": bare}, "")
	wantProblem(t, r, 409, codeTileSetOutdated)
	if !strings.Contains(r.str("detail"), "/v1/tile-sets/"+bare+"/photos") || !strings.Contains(r.str("detail"), "no tiles") {
		t.Errorf("detail %q", r.str("detail"))
	}
	g := postTeaching(t, svc.url+"/v1/tile-sets/"+bare+"/photos", []teachPart{{photo, twoTiles}}, nil)
	if g.status != 200 || g.num("version") != 2 || g.str("model") != "models-2" || fmt.Sprint(g.json["codes"]) != "[1m 2m]" {
		t.Fatalf("grown under the new models: %d %s", g.status, g.body)
	}
	r = postPhoto(t, svc.url+"/v1/recognitions", photo, map[string]string{"tile_set": bare}, "")
	if v := versionsOf(r); r.status != 200 || v["tile_set_version"] != float64(2) {
		t.Fatalf("read after growing: %d %s", r.status, r.body)
	}
	g = postTeaching(t, svc.url+"/v1/tile-sets/"+id+"/photos", []teachPart{{photo, "3m 10 10 60 80"}}, nil)
	if g.status != 200 || g.num("version") != 2 || g.str("model") != "models-2" || fmt.Sprint(g.json["codes"]) != "[1m 2m 3m]" {
		t.Fatalf("grown under the new models: %d %s", g.status, g.body)
	}
	svc.stop()

	db := behindTheStore(t, c, "tile_sets")
	if _, err := db.Exec(`UPDATE tile_sets SET tiles = 99 WHERE version = 2`); err != nil {
		t.Fatal(err)
	}
	svc = startSets(t, c, newer, "", nil)
	wantProblem(t, get(t, svc.url+"/v1/tile-sets/"+id), 409, codeTampered)
	wantProblem(t, postPhoto(t, svc.url+"/v1/recognitions", photo, map[string]string{"tile_set": id}, ""), 409, codeTampered)
}

// TestTileSetListing: with an organiser token the organiser lists the
// sets a page at a time; nobody else does.
func TestTileSetListing(t *testing.T) {
	fake := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}}
	c := sqliteRecord(t)
	svc := startSets(t, c, fake, testOrganizerToken, nil)
	var ids []string
	for i := 0; i < 2; i++ {
		a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{samplePhoto(t), twoTiles}}, map[string]string{"name": fmt.Sprint("set ", i)})
		if a.status != 201 {
			t.Fatalf("%d %s", a.status, a.body)
		}
		ids = append(ids, a.str("id"))
	}
	sort.Strings(ids)
	wantProblem(t, get(t, svc.url+"/v1/tile-sets"), 401, codeUnauthorized)
	list := func(token, query string) *answer {
		req, _ := http.NewRequest(http.MethodGet, svc.url+"/v1/tile-sets"+query, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		return do(t, req)
	}
	wantProblem(t, list(testRefereeToken, ""), 401, codeUnauthorized)
	a := list(testOrganizerToken, "")
	sets, _ := a.json["tile_sets"].([]any)
	if a.status != 200 || len(sets) != 2 || sets[0].(map[string]any)["id"] != ids[0] || sets[1].(map[string]any)["id"] != ids[1] {
		t.Fatalf("listing: %d %s", a.status, a.body)
	}
	wantProblem(t, list(testOrganizerToken, "?after=junk"), 400, "bad_request")
	svc.stop()

	svc = startSets(t, c, fake, "", nil)
	wantProblem(t, list(testOrganizerToken, ""), 403, codeForbidden)
}

// TestTileSetRetried: a teaching upload retried under its Idempotency-Key
// gets the first answer and makes no second set.
func TestTileSetRetried(t *testing.T) {
	fake := &fakeTeacher{fakeRecognizer: fakeRecognizer{rec: handRecognition()}}
	svc := startSets(t, sqliteRecord(t), fake, "", nil)
	ct, body := teachBody([]teachPart{{samplePhoto(t), twoTiles}}, nil)
	var ids []string
	for i := 0; i < 2; i++ {
		req, _ := http.NewRequest(http.MethodPost, svc.url+"/v1/tile-sets", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Idempotency-Key", "6f1c9a52-teach-once")
		a := do(t, req)
		if a.status != 201 {
			t.Fatalf("%d %s", a.status, a.body)
		}
		ids = append(ids, a.str("id"))
	}
	if ids[0] != ids[1] || fake.taught.Load() != 1 {
		t.Fatalf("ids %v, %d taught", ids, fake.taught.Load())
	}
}

// TestTileSetReadersBounded: the sets kept ready to read with are
// bounded; the least recently used goes first and is loaded again when
// named.
func TestTileSetReadersBounded(t *testing.T) {
	ts := &tileSets{ready: map[string]*list.Element{}, order: list.New()}
	loads := 0
	load := func() (Recognizer, error) { loads++; return &fakeRecognizer{}, nil }
	set := func(i int) referee.TileSet { return referee.TileSet{ID: fmt.Sprint("ts_", i), Version: 1} }
	for i := 0; i <= tileSetCache; i++ {
		if _, err := ts.reader(set(i), load); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			ts.reader(set(0), load) // kept: no second load
		}
	}
	if loads != tileSetCache+1 || len(ts.ready) != tileSetCache || ts.order.Len() != tileSetCache {
		t.Fatalf("%d loads, %d kept", loads, len(ts.ready))
	}
	ts.reader(set(tileSetCache), load) // the newest is kept
	ts.reader(set(0), load)            // the oldest went
	if loads != tileSetCache+2 {
		t.Fatalf("%d loads, want %d", loads, tileSetCache+2)
	}
}

// blurTile blurs the tile of code in a photo (a JPEG) as a tile caught
// moving is, and returns the photo again as a JPEG.
func blurTile(t *testing.T, photo []byte, labels, code string) []byte {
	t.Helper()
	img, err := gocv.IMDecode(photo, gocv.IMReadColor)
	if err != nil || img.Empty() {
		t.Fatalf("photo: %v", err)
	}
	defer img.Close()
	found := false
	for _, line := range strings.Split(labels, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[0] != code {
			continue
		}
		var r image.Rectangle
		if _, err := fmt.Sscan(strings.Join(f[1:5], " "), &r.Min.X, &r.Min.Y, &r.Max.X, &r.Max.Y); err != nil {
			t.Fatal(err)
		}
		if r = r.Intersect(image.Rect(0, 0, img.Cols(), img.Rows())); r.Dx() < 2 || r.Dy() < 2 {
			t.Fatalf("the %s's box lies outside the photo", code)
		}
		tile := img.Region(r)
		gocv.GaussianBlur(tile, &tile, image.Pt(0, 0), 4, 0, gocv.BorderReplicate)
		tile.Close()
		found = true
	}
	if !found {
		t.Fatalf("no %s in the labels", code)
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, img, []int{gocv.IMWriteJpegQuality, 92})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	return bytes.Clone(buf.GetBytes())
}

// TestTileSetNamesBlurredTiles: a set taught from a photo in which one
// kind of tile is blurred names that code as blurred, in its answer and
// in its stored summary; once a sharp photo of it is added, it no longer
// does.
func TestTileSetNamesBlurredTiles(t *testing.T) {
	teacher := sharedTeacher(t)
	photo1, labels1 := egyptScene(t, 0)
	photo2, labels2 := egyptScene(t, 1) // shows a sharp 3m
	svc := startSets(t, referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}, teacher, "", nil)
	a := postTeaching(t, svc.url+"/v1/tile-sets", []teachPart{{blurTile(t, photo1, labels1, "3m"), labels1}}, nil)
	if a.status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	id := a.str("id")
	t.Logf("blurred as taught: %v", a.json["blurred"])
	if b := strs(a.json["blurred"]); !slices.Contains(b, "3m") {
		t.Fatalf("taught a blurred 3m, the set names blurred %v: %s", b, a.body)
	}
	if a.json["known"] != nil {
		t.Errorf("an egypt set, which the models read badly, is known: %s", a.body)
	}
	for _, c := range strs(a.json["blurred"]) {
		if !slices.Contains(strs(a.json["codes"]), c) {
			t.Errorf("blurred %s is not among the codes %v", c, a.json["codes"])
		}
	}
	if g := get(t, svc.url+"/v1/tile-sets/"+id); g.status != 200 || !slices.Contains(strs(g.json["blurred"]), "3m") {
		t.Fatalf("stored summary: %d %s", g.status, g.body)
	}
	a = postTeaching(t, svc.url+"/v1/tile-sets/"+id+"/photos", []teachPart{{photo2, labels2}}, nil)
	if a.status != http.StatusOK || a.num("version") != 2 {
		t.Fatalf("grow: %d %s", a.status, a.body)
	}
	t.Logf("blurred after a sharp photo was added: %v", a.json["blurred"])
	if b := strs(a.json["blurred"]); slices.Contains(b, "3m") {
		t.Errorf("after a sharp 3m was added, the set still names it blurred: %v", b)
	}
}
