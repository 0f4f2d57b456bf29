package api

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"mjscan/scoring"
	"mjscan/vision"
)

// pngHeader is a PNG whose header claims w×h pixels and holds no image
// data: the megapixel check must refuse it from the header alone.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestRecognition(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	a := postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), map[string]string{"id": "p1"}, "")
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	if a.str("id") != "p1" || a.json["ok"] != true || len(a.json["tiles"].([]any)) != 14 {
		t.Errorf("recognition %s", a.body)
	}
	tile := a.json["tiles"].([]any)[0].(map[string]any)
	for _, k := range []string{"tile", "box", "confidence", "rotated", "alternatives"} {
		if _, ok := tile[k]; !ok {
			t.Errorf("tile has no %q: %v", k, tile)
		}
	}
	if hand := a.json["hand"].(map[string]any); hand["hand"] != "234m345p456s678s55p" {
		t.Errorf("grouped hand %v", hand)
	}
	if a.json["versions"] == nil {
		t.Error("no versions")
	}
}

func TestRecognitionErrors(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, func(c *Config) { c.BodyLimit = 100 << 10; c.MaxMegapixels = 12 })
	url := ts.URL + "/v1/recognitions"
	photo := samplePhoto(t)

	wantProblem(t, postPhoto(t, url, []byte("this is not an image at all"), nil, ""), 415, codeNotAPhoto)
	wantProblem(t, postPhoto(t, url, photo[:20], nil, ""), 415, codeNotAPhoto) // cut off before its size
	a := postPhoto(t, url, pngHeader(5000, 4000), nil, "")
	wantProblem(t, a, 413, codeTooLarge)
	if !strings.Contains(a.str("detail"), "20 megapixels") {
		t.Errorf("detail %q", a.str("detail"))
	}
	wantProblem(t, postPhoto(t, url, bytes.Repeat(photo, 2), nil, ""), 413, codeTooLarge) // over the body limit
	wantProblem(t, postPhoto(t, url, nil, map[string]string{"id": "x"}, ""), 400, scoring.CodeBadRequest)
	wantProblem(t, postJSON(t, url, `{"photo":"x"}`), 415, codeUnsupportedType)

	// Two photos in one request.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i < 2; i++ {
		w, _ := mw.CreateFormFile("photo", "p.png")
		w.Write(tinyPNG())
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, url, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	wantProblem(t, do(t, req), 400, scoring.CodeBadRequest)

	if n := fake.calls.Load(); n != 0 {
		t.Errorf("the recogniser saw %d bad uploads; they must be refused before it", n)
	}

	// The recogniser's own failures.
	fake.err = vision.ErrNotAPhoto
	wantProblem(t, postPhoto(t, url, photo, nil, ""), 415, codeNotAPhoto)
	fake.err = fmt.Errorf("%w: 60 megapixels", vision.ErrTooLarge)
	wantProblem(t, postPhoto(t, url, photo, nil, ""), 413, codeTooLarge)
	fake.err = errors.New("opencv: something internal")
	a = postPhoto(t, url, photo, nil, "")
	wantProblem(t, a, 500, codeRecognition)
	if strings.Contains(string(a.body), "opencv") {
		t.Errorf("internal error text leaked: %s", a.body)
	}
	fake.err = nil
	fake.rec = vision.Recognition{Error: scoring.Errorf(scoring.CodeBadRequest, "the photo data is damaged")}
	a = postPhoto(t, url, photo, nil, "")
	wantProblem(t, a, 422, scoring.CodeBadRequest)
}

func TestRecognitionUnavailable(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), nil, "")
	wantProblem(t, a, 503, codeNoRecognition)
	if !strings.Contains(a.str("detail"), "by hand") {
		t.Errorf("detail %q should point to entering tiles by hand", a.str("detail"))
	}
	wantProblem(t, postPhoto(t, ts.URL+"/v1/snap-and-score", samplePhoto(t), nil, ""), 503, codeNoRecognition)

	h := get(t, ts.URL+"/healthz")
	if h.status != 503 || h.str("status") != "unavailable" {
		t.Fatalf("healthz without a recogniser: %d %s", h.status, h.body)
	}
	if sc := h.json["scoring"].(map[string]any); sc["ok"] != true {
		t.Errorf("scoring should be healthy: %v", sc)
	}
	if rc := h.json["recognition"].(map[string]any); rc["ok"] != false {
		t.Errorf("recognition should be reported missing: %v", rc)
	}
}

func TestHealthy(t *testing.T) {
	fake := &fakeRecognizer{rec: vision.Recognition{OK: true}}
	_, ts := newTestServer(t, fake, nil)
	h := get(t, ts.URL+"/healthz")
	if h.status != 200 || h.str("status") != "ok" {
		t.Fatalf("%d %s", h.status, h.body)
	}
	get(t, ts.URL+"/healthz")
	if n := fake.calls.Load(); n != 1 {
		t.Errorf("health ran %d recognitions for two probes; it should cache", n)
	}
	fake2 := &fakeRecognizer{err: errors.New("model gone")}
	_, ts2 := newTestServer(t, fake2, nil)
	if h := get(t, ts2.URL+"/healthz"); h.status != 503 {
		t.Errorf("a failing recogniser is healthy: %s", h.body)
	}
}

func TestHealthProbeHand(t *testing.T) {
	req := probeHand
	res := rulebookScore(&req)
	if !res.OK || res.Han != 4 || res.Fu != 20 || res.Points.Total != 5200 {
		t.Errorf("probe hand: ok=%v %d han %d fu %d points %+v", res.OK, res.Han, res.Fu, res.Points.Total, res.Error)
	}
}

func TestSnapAndScore(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	url := ts.URL + "/v1/snap-and-score"
	a := postPhoto(t, url, samplePhoto(t), map[string]string{
		"situation": `{"rules":"riichi","tsumo":true,"riichi":true,"seat_wind":"S","round_wind":"E"}`}, "")
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	res := a.json["result"].(map[string]any)
	if res["ok"] != true || res["han"].(float64) != 4 || res["points"].(map[string]any)["total"].(float64) != 5200 {
		t.Errorf("snap result %v", res)
	}
	if a.json["recognition"] == nil || a.json["request"].(map[string]any)["hand"] != "234m345p456s678s55p" {
		t.Errorf("snap %s", a.body)
	}

	// The player corrects the hand: tiles in the situation win over the photo's.
	a = postPhoto(t, url, samplePhoto(t), map[string]string{
		"situation": `{"rules":"riichi","hand":"234m345p456s678s5p5s","win_tile":"5s","tsumo":true,"seat_wind":"S","round_wind":"E"}`}, "")
	res = a.json["result"].(map[string]any)
	if a.status != 200 || res["ok"] != false {
		t.Errorf("corrected (non-winning) hand: %s", a.body)
	}

	wantProblem(t, postPhoto(t, url, samplePhoto(t), map[string]string{"situation": `{"rules":`}, ""), 400, scoring.CodeBadRequest)
	wantProblem(t, postPhoto(t, url, samplePhoto(t), map[string]string{"situation": `{"rules":"chess"}`}, ""), 400, scoring.CodeBadRequest)
	wantProblem(t, postPhoto(t, url, []byte("GIF89a nope"), nil, ""), 415, codeNotAPhoto)
}

func TestIdempotencyKey(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	url := ts.URL + "/v1/recognitions"
	photo := samplePhoto(t)
	ct, body := multipartBody(t, photo, map[string]string{"id": "k"})
	send := func(key string, b []byte) *answer {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Idempotency-Key", key)
		return do(t, req)
	}
	first := send("key-1", body)
	again := send("key-1", body)
	if first.status != 200 || again.status != 200 || !bytes.Equal(first.body, again.body) {
		t.Fatalf("replay differs: %d %d", first.status, again.status)
	}
	if again.header.Get("Idempotency-Replayed") != "true" || first.header.Get("Idempotency-Replayed") != "" {
		t.Errorf("Idempotency-Replayed: first %q, again %q", first.header.Get("Idempotency-Replayed"), again.header.Get("Idempotency-Replayed"))
	}
	if n := fake.calls.Load(); n != 1 {
		t.Errorf("recognised %d times for one key", n)
	}
	other := bytes.Replace(body, []byte(`name="id"`+"\r\n\r\nk"), []byte(`name="id"`+"\r\n\r\nz"), 1)
	wantProblem(t, send("key-1", other), 422, codeIdemConflict)
	if a := send("key-2", other); a.status != 200 {
		t.Errorf("a new key: %d", a.status)
	}
	wantProblem(t, send(strings.Repeat("k", 300), body), 400, scoring.CodeBadRequest)

	// Failures worth retrying are not kept: the retry runs again.
	fake.err = errors.New("flaky")
	wantProblem(t, send("key-3", body), 500, codeRecognition)
	fake.err = nil
	if a := send("key-3", body); a.status != 200 {
		t.Errorf("retry after a 500: %d %s", a.status, a.body)
	}
}

func TestIdempotencyInFlight(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition(), block: make(chan struct{})}
	_, ts := newTestServer(t, fake, nil)
	ct, body := multipartBody(t, samplePhoto(t), nil)
	send := func() *answer {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/recognitions", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Idempotency-Key", "same")
		return do(t, req)
	}
	done := make(chan *answer)
	go func() { done <- send() }()
	waitFor(t, func() bool { return fake.calls.Load() == 1 })
	wantProblem(t, send(), 409, codeIdemInFlight)
	close(fake.block)
	if a := <-done; a.status != 200 {
		t.Errorf("first: %d", a.status)
	}
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if cond() {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("condition never became true")
}

func tinyPNG() []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, 16, 16)))
	return b.Bytes()
}

func pngOf(w, h int) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

// seen builds a recognition of loose tiles with no grouping.
func seen(codes ...string) vision.Recognition {
	rec := vision.Recognition{OK: true, Width: 100 * len(codes), Height: 150}
	for i, c := range codes {
		rec.Tiles = append(rec.Tiles, vision.TileSeen{Tile: tileOf(c), Box: [4]int{i * 100, 0, i*100 + 90, 140}, Confidence: 0.9})
	}
	return rec
}

// TestRecognitionParts: the hand, melds and dora photographed apart come
// back as one hand request, and snap-and-score scores it.
func TestRecognitionParts(t *testing.T) {
	handPhoto, meldPhoto, doraPhoto := pngOf(20, 20), pngOf(21, 20), pngOf(22, 20)
	melds := seen("6s", "7s", "8s")
	melds.Hand = &scoring.Request{Melds: []scoring.MeldSpec{{Type: "chi", Tiles: "678s", From: "left"}}}
	fake := &fakeRecognizer{byPhoto: map[string]vision.Recognition{
		string(handPhoto): seen("2m", "3m", "4m", "3p", "4p", "5p", "4s", "5s", "6s", "5p", "5p"),
		string(meldPhoto): melds,
		string(doraPhoto): seen("1p"),
	}}
	_, ts := newTestServer(t, fake, nil)
	form := func(fields map[string]string) (string, []byte) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		for name, data := range map[string][]byte{"hand": handPhoto, "melds": meldPhoto, "dora": doraPhoto} {
			w, _ := mw.CreateFormFile(name, name+".png")
			w.Write(data)
		}
		mw.Close()
		return mw.FormDataContentType(), buf.Bytes()
	}
	ct, body := form(map[string]string{"id": "parts"})
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/recognitions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	a := do(t, req)
	if a.status != 200 || a.str("id") != "parts" || len(a.json["parts"].(map[string]any)) != 3 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	hand := a.json["hand"].(map[string]any)
	if hand["hand"] != "234m345p456s55p" {
		t.Errorf("hand %v", hand["hand"])
	}
	if hand["dora_indicators"] != "1p" || len(hand["melds"].([]any)) != 1 {
		t.Errorf("combined request %v", hand)
	}

	// Scored with the winning tile named: a ron on 5p with an open chow
	// is tanyao alone (open tanyao is on by default); the 1p indicator
	// makes 2p dora, which the hand does not hold.
	ct, body = form(map[string]string{"situation": `{"rules":"riichi","win_tile":"5p","seat_wind":"S","round_wind":"E"}`})
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/v1/snap-and-score", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	a = do(t, req)
	res := a.json["result"].(map[string]any)
	if a.status != 200 || res["ok"] != true || a.json["parts"] == nil {
		t.Fatalf("snap of parts: %s", a.body)
	}
	if res["han"].(float64) != 1 || a.json["request"].(map[string]any)["dora_indicators"] != "1p" {
		t.Errorf("han %v, request %v", res["han"], a.json["request"])
	}

	// A bad part is named in the problem.
	fake.byPhoto[string(doraPhoto)] = vision.Recognition{Error: scoring.Errorf(scoring.CodeBadRequest, "the photo data is damaged")}
	ct, body = form(nil)
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/v1/recognitions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	a = do(t, req)
	wantProblem(t, a, 422, scoring.CodeBadRequest)
	if !strings.Contains(a.str("detail"), "dora photo") {
		t.Errorf("detail %q", a.str("detail"))
	}
}

// TestRecognitionOverlay: ?overlay=png adds the photo with the boxes drawn,
// as a PNG data URL of the photo's size; without it there is none.
func TestRecognitionOverlay(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	a := postPhoto(t, ts.URL+"/v1/recognitions?overlay=png", samplePhoto(t), nil, "")
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	url := a.str("overlay")
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(url, prefix) {
		t.Fatalf("overlay %.60q, want a PNG data URL", url)
	}
	raw, err := base64.StdEncoding.DecodeString(url[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("overlay is not a PNG: %v", err)
	}
	photo, _, err := image.DecodeConfig(bytes.NewReader(samplePhoto(t)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != photo.Width || b.Dy() != photo.Height {
		t.Errorf("overlay %v, photo %dx%d", b, photo.Width, photo.Height)
	}
	plain := postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), nil, "")
	if _, ok := plain.json["overlay"]; ok {
		t.Error("an overlay was sent without being asked for")
	}
}

// TestThinPhotosRefused: the 86-byte PNGs that once aborted the whole
// process (a reduced decode whose short side rounds to 0) are refused with
// a 415 that says why, and the service goes on reading photos.
func TestThinPhotosRefused(t *testing.T) {
	_, ts := newTestServer(t, shippedRecognizer{shippedModels(t)}, nil)
	for _, s := range [][2]int{{2000, 1}, {1, 2000}, {3, 4000}, {1, 49000}} {
		img := image.NewGray(image.Rect(0, 0, s[0], s[1]))
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		for _, route := range []string{"/v1/recognitions", "/v1/snap-and-score"} {
			a := postPhoto(t, ts.URL+route, buf.Bytes(), nil, "")
			wantProblem(t, a, 415, codeNotAPhoto)
			if !strings.Contains(a.str("detail"), "pixels") {
				t.Errorf("%v %s: detail %q does not say what is wrong", s, route, a.str("detail"))
			}
		}
	}
	if a := postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), nil, ""); a.status != 200 {
		t.Fatalf("after the thin photos: %d %s", a.status, a.body)
	}
}
