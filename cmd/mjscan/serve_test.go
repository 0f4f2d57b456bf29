package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mjscan/api"
)

// startServe runs the real serve command (real recogniser, real engines)
// on loopback ports chosen by the system.
func startServe(t testing.TB, env map[string]string) (apiURL, metricsURL string) {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	env["MJSCAN_ADDR"] = "127.0.0.1:0"
	env["MJSCAN_METRICS_ADDR"] = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan [2]string, 1)
	done := make(chan int, 1)
	var log bytes.Buffer
	go func() {
		done <- serve(ctx, nil, func(k string) string { return env[k] }, &syncWriter{w: &log}, func(a, m string) { ready <- [2]string{a, m} })
	}()
	t.Cleanup(func() {
		cancel()
		if rc := <-done; rc != 0 {
			t.Errorf("serve exited %d", rc)
		}
	})
	select {
	case addrs := <-ready:
		return "http://" + addrs[0], "http://" + addrs[1]
	case rc := <-done:
		t.Fatalf("serve exited %d before listening:\n%s", rc, log.String())
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start in 30s")
	}
	return "", ""
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func photoForm(t testing.TB) (string, []byte) {
	t.Helper()
	photo, err := os.ReadFile(filepath.Join("..", "..", "testdata", "photos", "dev-sample.jpg"))
	if err != nil {
		t.Fatalf("committed photo missing: %v", err)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("photo", "dev-sample.jpg")
	w.Write(photo)
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// TestServeContractSurface checks CONTRACT section 6 against the real
// binary's serve command: health, OpenAPI, scores, recognitions, problems,
// and metrics on their own port.
func TestServeContractSurface(t *testing.T) {
	apiURL, metricsURL := startServe(t, map[string]string{"MJSCAN_INSTANCE": "r1"})
	getJSON := func(url string) (int, map[string]any) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	if st, h := getJSON(apiURL + "/healthz"); st != 200 {
		t.Errorf("healthz %d: %v", st, h)
	}
	if st, doc := getJSON(apiURL + "/openapi.json"); st != 200 || !strings.HasPrefix(doc["openapi"].(string), "3.") {
		t.Errorf("openapi %d", st)
	}

	resp, err := http.Post(apiURL+"/v1/scores", "application/json", strings.NewReader(
		`{"id":"c1","rules":"riichi","hand":"234m345p456s678s55p","win_tile":"8s","tsumo":true,"riichi":true,"seat_wind":"S","round_wind":"E"}`))
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	if resp.StatusCode != 200 || res["points"].(map[string]any)["total"].(float64) != 5200 {
		t.Errorf("score %d %v", resp.StatusCode, res)
	}

	ct, body := photoForm(t)
	resp, err = http.Post(apiURL+"/v1/recognitions", ct, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	json.NewDecoder(resp.Body).Decode(&rec)
	resp.Body.Close()
	if resp.StatusCode != 200 || rec["ok"] != true || rec["width"].(float64) <= 0 {
		t.Errorf("recognition %d %v", resp.StatusCode, rec)
	}
	if v := rec["versions"].(map[string]any); v["model"] == nil || v["model"] == "" {
		t.Errorf("recognition without a model version: %v", v)
	}

	resp, err = http.Post(apiURL+"/v1/recognitions", ct, strings.NewReader("not a form"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("garbage upload: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}

	mresp, err := http.Get(metricsURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := io.ReadAll(mresp.Body)
	mresp.Body.Close()
	for _, want := range []string{`mjscan_step_duration_seconds_count{replica="r1",step="recognize"}`, `mjscan_scores_total{outcome="ok",replica="r1",rules="riichi"} 1`} {
		if !bytes.Contains(mb, []byte(want)) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestServeReportsEveryBadSetting(t *testing.T) {
	env := map[string]string{"MJSCAN_WORKERS": "lots", "MJSCAN_BODY_LIMIT": "big", "MJSCAN_REQUEST_TIMEOUT": "soon"}
	var out bytes.Buffer
	rc := serve(context.Background(), nil, func(k string) string { return env[k] }, &out, nil)
	if rc != 2 {
		t.Errorf("exit %d, want 2", rc)
	}
	for k := range env {
		if !strings.Contains(out.String(), k) {
			t.Errorf("start-up error does not name %s:\n%s", k, out.String())
		}
	}
}

// BenchmarkServeUploads is the documented load test: 20 clients upload the
// committed photo to the real service (real recogniser) over loopback.
// Only 200 and 429 may come back; p50/p99 latency and resident memory
// growth after warm-up are reported.
//
//	go test -run '^$' -bench ServeUploads -benchtime 60s ./cmd/mjscan/
func BenchmarkServeUploads(b *testing.B) {
	apiURL, _ := startServe(b, nil)
	ct, body := photoForm(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 20}, Timeout: time.Minute}
	var (
		next      atomic.Int64
		mu        sync.Mutex
		latencies []time.Duration
		served    []time.Duration // 200s only: the time a recognition takes under load
		statuses  = map[int]int{}
		wg        sync.WaitGroup
		rssWarm   atomic.Int64
	)
	warm := int64(b.N / 10)
	b.ResetTimer()
	for c := 0; c < 20; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				if i == warm {
					rssWarm.Store(rssKB())
				}
				start := time.Now()
				resp, err := client.Post(apiURL+"/v1/recognitions", ct, bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				rb, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 && resp.StatusCode != 429 {
					b.Logf("%d: %s", resp.StatusCode, rb)
				}
				mu.Lock()
				d := time.Since(start)
				latencies = append(latencies, d)
				if resp.StatusCode == 200 {
					served = append(served, d)
				}
				statuses[resp.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	for st, n := range statuses {
		if st != 200 && st != 429 {
			b.Errorf("%d answers of %d: only 200 and 429 are allowed under load", n, st)
		}
	}
	ms := func(ds []time.Duration, q int) float64 {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return float64(ds[len(ds)*q/100].Microseconds()) / 1000
	}
	if len(latencies) > 0 {
		b.ReportMetric(ms(latencies, 50), "p50-ms")
		b.ReportMetric(ms(latencies, 99), "p99-ms")
		b.ReportMetric(100*float64(statuses[429])/float64(len(latencies)), "%429")
	}
	if len(served) > 0 {
		b.ReportMetric(ms(served, 50), "p50-200-ms")
		b.ReportMetric(ms(served, 99), "p99-200-ms")
		b.ReportMetric(float64(len(served))/b.Elapsed().Seconds(), "200/s")
	}
	if w := rssWarm.Load(); w > 0 {
		b.ReportMetric(float64(rssKB()-w)/1024, "rss-growth-MB")
	}
	b.ReportMetric(float64(rssKB())/1024, "rss-MB")
}

// BenchmarkServeBigUploads: 60 clients upload 19 MB photos at once to the
// real service with its default settings, over loopback. The peak resident
// memory of the whole process (service and clients) must stay under the
// bound the settings give (api.Config.MemoryBound, api/LOAD.md); answers
// other than 200 and 429 are counted apart. The old service, which read
// every body before it looked at its queue, reached 3.3 GB here.
//
//	go test -run '^$' -bench ServeBigUploads -benchtime 300x ./cmd/mjscan/
func BenchmarkServeBigUploads(b *testing.B) {
	env := map[string]string{}
	cfg, err := api.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		b.Fatal(err)
	}
	apiURL, _ := startServe(b, env)
	photo, err := os.ReadFile(filepath.Join("..", "..", "testdata", "photos", "dev-sample.jpg"))
	if err != nil {
		b.Fatal(err)
	}
	// A 19 MB JPEG: the photo, then padding its decoder never reads.
	photo = append(photo, make([]byte, 19<<20-len(photo))...)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("photo", "big.jpg")
	w.Write(photo)
	mw.Close()
	ct, body := mw.FormDataContentType(), buf.Bytes()
	photo = nil

	const clients = 60
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: 5 * time.Minute}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		statuses = map[int]int{}
		cut      int
		wg       sync.WaitGroup
	)
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	base := procKB("VmRSS:")
	b.ResetTimer()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				resp, err := client.Post(apiURL+"/v1/recognitions", ct, bytes.NewReader(body))
				if err != nil {
					// A refused upload's connection closes while the
					// client still writes; it may miss the 429.
					mu.Lock()
					cut++
					mu.Unlock()
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				statuses[resp.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	peak := procKB("VmHWM:")
	for st, n := range statuses {
		if st != 200 && st != 429 {
			b.Errorf("%d answers of %d: only 200 and 429 are allowed under load", n, st)
		}
	}
	bound := cfg.MemoryBound() >> 10
	b.ReportMetric(float64(peak)/1024, "peak-rss-MB")
	b.ReportMetric(float64(peak-base)/1024, "peak-growth-MB")
	b.ReportMetric(float64(bound)/1024, "bound-MB")
	b.ReportMetric(float64(statuses[200]), "200s")
	b.ReportMetric(float64(statuses[429]), "429s")
	b.ReportMetric(float64(cut), "cut")
	if peak > bound {
		b.Errorf("peak resident memory %d MB, over the bound of %d MB", peak>>10, bound>>10)
	}
}

func rssKB() int64 { return procKB("VmRSS:") }

// procKB reads one kB field of /proc/self/status (0 elsewhere).
func procKB(field string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// resetPeakRSS starts VmHWM again from the present (Linux).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// TestServeTournamentRoutes: with the staff tokens set, serve mounts the
// tournament routes on a SQLite referee record; without a token a staff
// route is refused. A token set alone is a configuration error.
func TestServeTournamentRoutes(t *testing.T) {
	env := map[string]string{
		"MJSCAN_REFEREE_TOKEN":   "referee-token-0123456789",
		"MJSCAN_ORGANIZER_TOKEN": "organizer-token-0123456789",
		"MJSCAN_REFEREE_DB":      filepath.Join(t.TempDir(), "records", "referee.db"),
	}
	apiURL, _ := startServe(t, env)
	get := func(token string) int {
		req, _ := http.NewRequest(http.MethodGet, apiURL+"/v1/standings", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get(""); code != http.StatusUnauthorized {
		t.Errorf("standings without a token: %d, want 401", code)
	}
	if code := get(env["MJSCAN_ORGANIZER_TOKEN"]); code != http.StatusOK {
		t.Errorf("standings with the organiser token: %d, want 200", code)
	}

	var log bytes.Buffer
	half := map[string]string{"MJSCAN_REFEREE_TOKEN": "referee-token-0123456789", "MJSCAN_ADDR": "127.0.0.1:0", "MJSCAN_METRICS_ADDR": "off"}
	if rc := serve(context.Background(), nil, func(k string) string { return half[k] }, &log, nil); rc != 2 {
		t.Errorf("serve with one token exited %d, want 2 (bad configuration):\n%s", rc, log.String())
	}
	if !strings.Contains(log.String(), "MJSCAN_ORGANIZER_TOKEN") {
		t.Errorf("the error should name the missing variable:\n%s", log.String())
	}
}

// TestServeTileSets: with the referee record named and no staff tokens,
// serve keeps players' tile sets in it (an unknown set is a 404, not
// 503) while the tournament routes stay off; with the tokens on as well,
// the organiser may list the sets. With nothing named, tile sets are off.
func TestServeTileSets(t *testing.T) {
	status := func(url, token string) int {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	unknown := "/v1/tile-sets/ts_" + strings.Repeat("0", 32)
	apiURL, _ := startServe(t, map[string]string{"MJSCAN_REFEREE_DB": filepath.Join(t.TempDir(), "referee.db")})
	if code := status(apiURL+unknown, ""); code != http.StatusNotFound {
		t.Errorf("an unknown set with the record named: %d, want 404", code)
	}
	if code := status(apiURL+"/v1/standings", ""); code != http.StatusNotFound {
		t.Errorf("standings without tokens: %d, want 404 (tournament routes off)", code)
	}
	if code := status(apiURL+"/v1/tile-sets", "organizer-token-0123456789"); code != http.StatusForbidden {
		t.Errorf("listing without tournament tokens: %d, want 403", code)
	}

	apiURL, _ = startServe(t, map[string]string{
		"MJSCAN_REFEREE_TOKEN":   "referee-token-0123456789",
		"MJSCAN_ORGANIZER_TOKEN": "organizer-token-0123456789",
		"MJSCAN_REFEREE_DB":      filepath.Join(t.TempDir(), "referee.db"),
	})
	if code := status(apiURL+"/v1/tile-sets", "organizer-token-0123456789"); code != http.StatusOK {
		t.Errorf("listing with the organiser token: %d, want 200", code)
	}

	apiURL, _ = startServe(t, nil)
	if code := status(apiURL+unknown, ""); code != http.StatusServiceUnavailable {
		t.Errorf("tile sets with no record named: %d, want 503", code)
	}
}
