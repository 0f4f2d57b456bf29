package api

import (
	"bytes"
	"context"
	"image"
	_ "image/jpeg"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mjscan/vision"
)

// decodingRecognizer stands in for the recogniser in the load benchmark:
// it fully decodes the photo (the CPU and memory of a real read) and
// answers the fixed hand.
type decodingRecognizer struct{}

func (decodingRecognizer) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	img, _, err := image.Decode(bytes.NewReader(photo))
	if err != nil {
		return nil, vision.ErrNotAPhoto
	}
	rec := handRecognition()
	rec.Width, rec.Height = img.Bounds().Dx(), img.Bounds().Dy()
	return &rec, nil
}

// BenchmarkUploadsLoopback is the load test: 20 clients upload the
// committed photo over loopback as fast as they can, for -benchtime (run
// it with -benchtime=60s for the documented numbers). Every answer must be
// 200 or 429; it reports p50/p99 latency, the share of 429s and how much
// the resident memory grew after warm-up.
//
//	go test -run '^$' -bench UploadsLoopback -benchtime 60s ./api/
func BenchmarkUploadsLoopback(b *testing.B) {
	photo := samplePhoto(b)
	ct, body := multipartBody(b, photo, nil)
	_, ts := newTestServer(b, decodingRecognizer{}, func(c *Config) {
		c.Workers, c.Queue = DefaultConfig().Workers, DefaultConfig().Queue
	})
	loadRun(b, 20, func(client *http.Client) (int, error) {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/snap-and-score", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	})
}

// BenchmarkScoresLoopback: 20 clients scoring hands over loopback.
func BenchmarkScoresLoopback(b *testing.B) {
	_, ts := newTestServer(b, nil, func(c *Config) {
		c.Workers, c.Queue = DefaultConfig().Workers, DefaultConfig().Queue
	})
	loadRun(b, 20, func(client *http.Client) (int, error) {
		resp, err := client.Post(ts.URL+"/v1/scores", "application/json", strings.NewReader(readmeHand))
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	})
}

func loadRun(b *testing.B, clients int, call func(*http.Client) (int, error)) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute}
	var (
		next      atomic.Int64
		mu        sync.Mutex
		latencies []time.Duration
		statuses  = map[int]int{}
		wg        sync.WaitGroup
		rssAfter  atomic.Int64
		failed    atomic.Value
	)
	warm := int64(b.N / 10)
	b.ResetTimer()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				if i == warm {
					rssAfter.Store(rssKB())
				}
				start := time.Now()
				st, err := call(client)
				d := time.Since(start)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				mu.Lock()
				latencies = append(latencies, d)
				statuses[st]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	if f := failed.Load(); f != nil {
		b.Fatalf("client error: %v", f)
	}
	for st := range statuses {
		if st != 200 && st != 429 {
			b.Errorf("answer %d (%d times): only 200 and 429 are allowed under load", st, statuses[st])
		}
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	pct := func(p float64) float64 {
		if len(latencies) == 0 {
			return 0
		}
		return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(statuses[429])/float64(max(1, len(latencies)))*100, "%429")
	if w := rssAfter.Load(); w > 0 {
		b.ReportMetric(float64(rssKB()-w)/1024, "rss-growth-MB")
	}
	b.ReportMetric(float64(rssKB())/1024, "rss-MB")
}

// rssKB reads this process's resident memory from /proc (0 elsewhere).
func rssKB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				return n
			}
		}
	}
	return 0
}
