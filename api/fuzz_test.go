package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// serveDirect answers one request without a network round trip.
func serveDirect(s *Server, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec
}

// checkAnswer fails on a 5xx, a body that is not JSON, or a status the
// route does not document.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder, allowed ...int) {
	t.Helper()
	ok := false
	for _, s := range allowed {
		ok = ok || rec.Code == s
	}
	if !ok {
		t.Fatalf("status %d not in %v: %s", rec.Code, allowed, rec.Body.Bytes())
	}
	if !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("body is not JSON: %q", rec.Body.Bytes())
	}
	if rec.Code >= 400 && rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("error without problem+json: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}

func fuzzServer(f *testing.F, rec Recognizer) *Server {
	cfg := DefaultConfig()
	cfg.BodyLimit = 256 << 10
	cfg.Queue = 1 << 10
	s, err := New(cfg, Deps{Version: "fuzz", Recognizer: rec})
	if err != nil {
		f.Fatal(err)
	}
	return s
}

func FuzzScoresHandler(f *testing.F) {
	f.Add([]byte(readmeHand))
	f.Add([]byte(`{"rules":"riichi","hand":"11111m","melds":[{"type":"pon","tiles":"777z","from":"across"}]}`))
	f.Add([]byte(`{"rules":"mcr","hand":"19m19p19s1234567z1m","flowers":"1f"}`))
	f.Add([]byte(`{"rules":"hk","hand":"123m","options":{"min_faan":"x"}}`))
	f.Add([]byte(`{"rules":"riichi","hand":"0m0p0s","win_tile":"0z","honba":-5,"nuki":99}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"rules":"american","hand":"9j9j9j","options":{"card":"nope"}}`))
	s := fuzzServer(f, nil)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/scores", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := serveDirect(s, req)
		checkAnswer(t, rec, 200, 400, 413, 422)
		if rec.Code == 200 && !bytes.Contains(rec.Body.Bytes(), []byte(`"ok":true`)) {
			t.Fatalf("200 without ok: %s", rec.Body.Bytes())
		}
	})
}

func FuzzVerifyHandler(f *testing.F) {
	f.Add([]byte(`{"request":` + readmeHand + `,"claim":{"points":5200}}`))
	f.Add([]byte(`{"request":{"rules":"riichi","hand":"222333444m567p88s","win_tile":"4m"},"claim":{"han":2,"fu":40,"limit":"mangan"}}`))
	f.Add([]byte(`{"request":null,"claim":{"points":1}}`))
	f.Add([]byte(`{"request":{"rules":"mcr","hand":"1m"},"claim":{"fan":"8"}}`))
	s := fuzzServer(f, nil)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/verify", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		checkAnswer(t, serveDirect(s, req), 200, 400, 413)
	})
}

// FuzzUploadHandler sends arbitrary photo bytes and situations through the
// upload path (header check, form reading, grouping, scoring).
func FuzzUploadHandler(f *testing.F) {
	f.Add(tinyPNG(), `{"rules":"riichi","tsumo":true}`, "k1")
	f.Add(pngHeader(100000, 100000), ``, "")
	f.Add([]byte("\xff\xd8\xff\xe0garbage"), `{"rules":`, "")
	f.Add([]byte{}, `{"hand":"99999m"}`, strings.Repeat("x", 300))
	s := fuzzServer(f, &fakeRecognizer{rec: handRecognition()})
	f.Fuzz(func(t *testing.T, photo []byte, situation, key string) {
		for _, path := range []string{"/v1/recognitions", "/v1/snap-and-score"} {
			ct, body := multipartBody(t, photo, map[string]string{"situation": situation})
			req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			if key != "" && !strings.ContainsAny(key, "\r\n\x00") {
				req.Header.Set("Idempotency-Key", key)
			}
			checkAnswer(t, serveDirect(s, req), 200, 400, 409, 413, 415, 422)
		}
	})
}

// FuzzMultipartBody feeds raw bytes as a multipart body: the form reader
// must refuse garbage cleanly.
func FuzzMultipartBody(f *testing.F) {
	ct, body := multipartBody(f, tinyPNG(), map[string]string{"id": "x"})
	boundary := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	f.Add(body)
	f.Add([]byte("--" + boundary + "\r\nContent-Disposition: form-data; name=\"photo\"\r\n\r\n"))
	f.Add([]byte("--" + boundary + "--"))
	s := fuzzServer(f, &fakeRecognizer{rec: handRecognition()})
	f.Fuzz(func(t *testing.T, raw []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/recognitions", bytes.NewReader(raw))
		req.Header.Set("Content-Type", ct)
		checkAnswer(t, serveDirect(s, req), 200, 400, 413, 415)
	})
}

func FuzzNotationHandler(f *testing.F) {
	for _, s := range []string{"234m345p55s,678=s", "1-23m,5555z", "", ",,,", "0z0z", "12345678901234567890m"} {
		f.Add(s)
	}
	s := fuzzServer(f, nil)
	f.Fuzz(func(t *testing.T, q string) {
		req := httptest.NewRequest(http.MethodGet, "/v1/notation?mpsz="+url.QueryEscape(q), nil)
		checkAnswer(t, serveDirect(s, req), 200, 400)
	})
}
