package api

import (
	"bytes"
	"context"
	"errors"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// formWith builds a multipart form of its own boundary: the fields in the
// order given, then the photo.
func formWith(t testing.TB, boundary string, photo []byte, fields ...[2]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.SetBoundary(boundary); err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	w, _ := mw.CreateFormFile("photo", "IMG_"+boundary+".jpg")
	w.Write(photo)
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

func sendKeyed(t testing.TB, url, ct string, body []byte, key string) *answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Idempotency-Key", key)
	return do(t, req)
}

// TestIdempotencyNewBoundary: curl and browsers write a new multipart
// boundary (and file name) on every retry; the same photo and fields under
// the same key are the same upload and get the stored answer. Another
// photo or another field value under that key is still refused.
func TestIdempotencyNewBoundary(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	url := ts.URL + "/v1/recognitions"
	photo := samplePhoto(t)
	ct1, body1 := formWith(t, "first-try-boundary", photo, [2]string{"id", "k"}, [2]string{"note", "a"})
	ct2, body2 := formWith(t, "retry-boundary-0123456789", photo, [2]string{"note", "a"}, [2]string{"id", "k"})
	first := sendKeyed(t, url, ct1, body1, "retry-1")
	again := sendKeyed(t, url, ct2, body2, "retry-1")
	if first.status != 200 || again.status != 200 {
		t.Fatalf("first %d, retry %d: %s", first.status, again.status, again.body)
	}
	if again.header.Get("Idempotency-Replayed") != "true" || !bytes.Equal(first.body, again.body) {
		t.Errorf("the retry with a new boundary was not replayed")
	}
	if n := fake.calls.Load(); n != 1 {
		t.Errorf("recognised %d times for one upload", n)
	}

	other := append([]byte(nil), photo...)
	other[len(other)-3] ^= 0xff
	ct3, body3 := formWith(t, "third", other, [2]string{"id", "k"}, [2]string{"note", "a"})
	wantProblem(t, sendKeyed(t, url, ct3, body3, "retry-1"), 422, codeIdemConflict)
	ct4, body4 := formWith(t, "fourth", photo, [2]string{"id", "k"}, [2]string{"note", "b"})
	wantProblem(t, sendKeyed(t, url, ct4, body4, "retry-1"), 422, codeIdemConflict)
}

// TestIdempotencyOverlayInKey: asking for the overlay is another request:
// the answer without it is not replayed to a request that wants it.
func TestIdempotencyOverlayInKey(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	ct, body := multipartBody(t, samplePhoto(t), nil)
	plain := sendKeyed(t, ts.URL+"/v1/recognitions", ct, body, "ov-1")
	drawn := sendKeyed(t, ts.URL+"/v1/recognitions?overlay=png", ct, body, "ov-1")
	if plain.status != 200 || drawn.status != 200 {
		t.Fatalf("%d %d: %s", plain.status, drawn.status, drawn.body)
	}
	if _, ok := plain.json["overlay"]; ok {
		t.Error("an overlay nobody asked for")
	}
	if !strings.HasPrefix(drawn.str("overlay"), "data:image/png;base64,") {
		t.Errorf("asked for the overlay, got a replay without it (replayed %q)", drawn.header.Get("Idempotency-Replayed"))
	}
	if n := fake.calls.Load(); n != 2 {
		t.Errorf("recognised %d times, want 2", n)
	}
	if again := sendKeyed(t, ts.URL+"/v1/recognitions?overlay=png", ct, body, "ov-1"); again.header.Get("Idempotency-Replayed") != "true" || !bytes.Equal(again.body, drawn.body) {
		t.Errorf("the overlay answer was not replayed to its own retry")
	}
}

// TestIdempotencyCancelledNotKept: an upload whose client went away ends in
// 499; its retry must run again, not get the 499 back.
func TestIdempotencyCancelledNotKept(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition(), block: make(chan struct{})}
	s, ts := newTestServer(t, fake, nil)
	ct, body := multipartBody(t, samplePhoto(t), nil)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/recognitions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Idempotency-Key", "gone")
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	waitFor(t, func() bool { return fake.calls.Load() == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client was not cancelled: %v", err)
	}
	// The first upload's handler ends on its own once it sees the cancel.
	waitFor(t, func() bool {
		s.idem.mu.Lock()
		defer s.idem.mu.Unlock()
		for _, el := range s.idem.entries {
			if !el.Value.(*idemEntry).done {
				return false
			}
		}
		return true
	})
	close(fake.block)
	a := sendKeyed(t, ts.URL+"/v1/recognitions", ct, body, "gone")
	if a.status != 200 || a.header.Get("Idempotency-Replayed") != "" {
		t.Fatalf("retry after a cancelled upload: %d (replayed %q) %s", a.status, a.header.Get("Idempotency-Replayed"), a.body)
	}
	if n := fake.calls.Load(); n != 2 {
		t.Errorf("recognised %d times, want 2", n)
	}
}

// TestIdempotencyStatusesKept: deterministic answers are kept; a cancelled
// request (499), a full queue (429) and every 5xx are not.
func TestIdempotencyStatusesKept(t *testing.T) {
	s := newIdempotency(time.Minute, 100, 1<<20)
	for _, st := range []struct {
		status int
		kept   bool
	}{{200, true}, {400, true}, {413, true}, {415, true}, {422, true}, {429, false}, {499, false},
		{500, false}, {502, false}, {503, false}, {504, false}, {599, false}} {
		key := http.StatusText(st.status) + string(rune('a'+st.status%26))
		if e, p := s.begin(key, [32]byte{1}); e != nil || p != nil {
			t.Fatalf("%d: begin %v %v", st.status, e, p)
		}
		s.finish(key, st.status, "application/json", []byte(`{}`), false)
		e, p := s.begin(key, [32]byte{1})
		if kept := e != nil; kept != st.kept || p != nil {
			t.Errorf("status %d: kept %v, want %v (%v)", st.status, kept, st.kept, p)
		}
	}
}

// TestIdempotencyBytesBound: the stored answers never take more than the
// byte bound, whatever their number; an answer over the per-entry cap is
// not kept at all, and the oldest go first.
func TestIdempotencyBytesBound(t *testing.T) {
	const bound = 1 << 20
	s := newIdempotency(time.Hour, 100000, bound)
	answer := bytes.Repeat([]byte("x"), 10<<10)
	for i := 0; i < 1000; i++ {
		key := "k" + strings.Repeat("0", i%7) + string(rune('A'+i%50)) + string(rune('a'+i/50))
		s.begin(key, [32]byte{})
		s.finish(key, 200, "application/json", answer, false)
		if s.bytes > bound {
			t.Fatalf("after %d answers the cache holds %d bytes, over %d", i+1, s.bytes, bound)
		}
	}
	if n := s.order.Len(); n < 50 || n > bound/len(answer) {
		t.Errorf("%d answers of %d bytes kept under a bound of %d", n, len(answer), bound)
	}
	if e, _ := s.begin("kA"+"a", [32]byte{}); e != nil {
		t.Error("the oldest answer survived")
	}

	// Over the per-entry cap: not kept, and the reservation is let go.
	huge := bytes.Repeat([]byte("y"), s.entryCap()+1)
	s.begin("huge", [32]byte{})
	s.finish("huge", 200, "application/json", huge, false)
	if e, _ := s.begin("huge", [32]byte{}); e != nil {
		t.Error("an answer over the per-entry cap was kept")
	}
	// An answer the recorder had to drop is not kept either.
	s.begin("cut", [32]byte{})
	s.finish("cut", 200, "application/json", nil, true)
	if e, _ := s.begin("cut", [32]byte{}); e != nil {
		t.Error("a truncated answer was kept")
	}
	// Every entry counts, the in-flight ones included.
	if s.bytes > bound || s.bytes < int64(s.order.Len())*idemOverhead {
		t.Errorf("accounted %d bytes for %d entries", s.bytes, s.order.Len())
	}
}

// TestIdempotencyRecorderBounded: a huge answer goes to the client whole but
// is not copied into memory past the per-entry cap.
func TestIdempotencyRecorderBounded(t *testing.T) {
	w := httptest.NewRecorder()
	r := &recorder{ResponseWriter: w, limit: 64 << 10}
	chunk := bytes.Repeat([]byte("z"), 32<<10)
	for i := 0; i < 100; i++ {
		if n, err := r.Write(chunk); n != len(chunk) || err != nil {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	if w.Body.Len() != 100*len(chunk) {
		t.Errorf("the client got %d bytes of %d", w.Body.Len(), 100*len(chunk))
	}
	if !r.overflow || r.buf.Cap() > 256<<10 {
		t.Errorf("recorder kept %d bytes (cap %d), overflow %v", r.buf.Len(), r.buf.Cap(), r.overflow)
	}
}

// TestIdempotencyHugeAnswerNotReplayed: over HTTP, an overlay answer over
// the per-entry cap is answered but not stored: its retry runs again, while
// small answers are still replayed.
func TestIdempotencyHugeAnswerNotReplayed(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	s, ts := newTestServer(t, fake, func(c *Config) { c.IdempotencyBytes = 1 << 20 })
	ct, body := multipartBody(t, samplePhoto(t), nil)
	url := ts.URL + "/v1/recognitions?overlay=png"
	first := sendKeyed(t, url, ct, body, "big")
	if first.status != 200 || len(first.body) <= s.idem.entryCap() {
		t.Fatalf("overlay answer %d, %d bytes: the test needs one over %d", first.status, len(first.body), s.idem.entryCap())
	}
	again := sendKeyed(t, url, ct, body, "big")
	if again.status != 200 || again.header.Get("Idempotency-Replayed") != "" || fake.calls.Load() != 2 {
		t.Errorf("a huge answer was replayed: %d %q, %d calls", again.status, again.header.Get("Idempotency-Replayed"), fake.calls.Load())
	}
	sendKeyed(t, ts.URL+"/v1/recognitions", ct, body, "small")
	if a := sendKeyed(t, ts.URL+"/v1/recognitions", ct, body, "small"); a.header.Get("Idempotency-Replayed") != "true" {
		t.Error("a small answer was not replayed")
	}
	if s.idem.bytes > 1<<20 {
		t.Errorf("cache holds %d bytes", s.idem.bytes)
	}
}

// TestIdempotencyBytesSetting: the byte bound is a setting with a default,
// read with a unit and refused when negative.
func TestIdempotencyBytesSetting(t *testing.T) {
	if d := DefaultConfig().IdempotencyBytes; d < 1<<20 {
		t.Errorf("default %d bytes", d)
	}
	c, err := LoadConfig(func(k string) string { return map[string]string{"MJSCAN_IDEMPOTENCY_BYTES": "8MB"}[k] })
	if err != nil || c.IdempotencyBytes != 8<<20 {
		t.Errorf("8MB: %d %v", c.IdempotencyBytes, err)
	}
	if _, err := LoadConfig(func(k string) string { return map[string]string{"MJSCAN_IDEMPOTENCY_BYTES": "-1"}[k] }); err == nil || !strings.Contains(err.Error(), "IDEMPOTENCY_BYTES") {
		t.Errorf("negative bound: %v", err)
	}
}
