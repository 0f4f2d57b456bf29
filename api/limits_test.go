package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"mjscan/vision"
)

// These tests hold the service to its limits: work owned by its request,
// admission before the body, the bytes and pixels in flight, slow clients
// and idle connections. They scale the settings down to stay short; none
// asserts a duration (the client-side timeouts only keep a broken service
// from hanging the test).

// newLimitServer serves the service through HTTPServer, with its
// timeouts and connection cap, as `mjscan serve` does.
func newLimitServer(t testing.TB, rec Recognizer, tweak func(*Config)) (*Server, *httptest.Server) {
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
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Config = s.HTTPServer(nil)
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

// TestPoolRunEndsBeforeReturn: the pool never gives up on work it started.
// When Do returns, fn has returned, even when the deadline came first, so
// what fn wrote is safe to read (under -race the old pool, which returned
// at the deadline while its worker still wrote, fails here).
func TestPoolRunEndsBeforeReturn(t *testing.T) {
	p := NewPool(1, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	wrote := false
	err := p.Do(ctx, func() error {
		<-ctx.Done() // the deadline passes while the work runs
		time.Sleep(20 * time.Millisecond)
		wrote = true
		return nil
	})
	if !wrote {
		t.Fatalf("Do returned (%v) before its work ended", err)
	}
	if p.Running() != 0 || len(p.workers) != 0 || len(p.admit) != 0 {
		t.Errorf("the pool still holds places: running %d, workers %d, admitted %d", p.Running(), len(p.workers), len(p.admit))
	}
}

// TestTicketNestedRun: a ticket's nested Run stays on its worker instead
// of waiting for a second one (there is none).
func TestTicketNestedRun(t *testing.T) {
	p := NewPool(1, 0)
	tk, err := p.Admit()
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Leave()
	nested := false
	if err := tk.Run(context.Background(), func() error {
		return tk.Run(context.Background(), func() error { nested = true; return nil })
	}); err != nil || !nested {
		t.Errorf("nested run: %v, ran %v", err, nested)
	}
}

// stubbornRecognizer does not watch its context: it reads for its delay
// whatever happens, the worst case for a pool that gives up on work.
type stubbornRecognizer struct {
	delay  time.Duration
	inside atomic.Int64
}

func (r *stubbornRecognizer) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	r.inside.Add(1)
	defer r.inside.Add(-1)
	time.Sleep(r.delay)
	rec := handRecognition()
	return &rec, nil
}

// TestWorkEndsWithItsRequest: an answer is written only once the work of
// its request has ended, so no worker outlives the request that started it
// (the old pool answered 503 at the deadline while the recogniser went on
// with the pooled echo.Context and a worker slot).
func TestWorkEndsWithItsRequest(t *testing.T) {
	rec := &stubbornRecognizer{delay: 300 * time.Millisecond}
	s, ts := newTestServer(t, rec, func(c *Config) { c.RequestTimeout = 50 * time.Millisecond })
	a := postPhoto(t, ts.URL+"/v1/recognitions", samplePhoto(t), nil, "")
	if n := rec.inside.Load(); n != 0 {
		t.Fatalf("answered %d while the recogniser was still reading", a.status)
	}
	if s.pool.Running() != 0 {
		t.Errorf("a worker is still running after the answer")
	}
	// The recogniser finished, late: its answer stands.
	if a.status != 200 {
		t.Errorf("status %d: %s", a.status, a.body)
	}
}

// TestBusyBeforeBody: a request that finds the pool full is refused before
// a byte of its body is read; the old service read 19 MB bodies whole and
// only then found the pool full.
func TestBusyBeforeBody(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition(), block: make(chan struct{})}
	s, ts := newLimitServer(t, fake, func(c *Config) { c.Workers, c.Queue = 1, 0 })
	photo, done := samplePhoto(t), make(chan struct{})
	go func() {
		defer close(done)
		postPhoto(t, ts.URL+"/v1/recognitions", photo, nil, "")
	}()
	defer func() { close(fake.block); <-done }()
	waitFor(t, func() bool { return fake.calls.Load() == 1 })
	before := s.bytesHeld()

	// Headers of a 19 MB upload, and no body.
	conn := dial(t, ts)
	fmt.Fprintf(conn, "POST /v1/recognitions HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\n\r\n", 19<<20)
	resp := readResponse(t, conn)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429 before the body", resp.StatusCode)
	}
	if s.bytesHeld() != before {
		t.Errorf("%d bytes held for a refused upload", s.bytesHeld()-before)
	}
}

// TestBytesInFlight: the bodies held at once stay within BytesInFlight; an
// upload that does not fit is answered 429 at once. (An upload holds its
// body and the copy of its photos: twice its size.)
func TestBytesInFlight(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	s, ts := newLimitServer(t, fake, func(c *Config) { c.BodyLimit, c.BytesInFlight = 1<<20, 2<<20 })
	// A first upload of 900 KB that has sent its headers only.
	slow := dial(t, ts)
	fmt.Fprintf(slow, "POST /v1/recognitions HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\n\r\n--b\r\n", 900<<10)
	waitFor(t, func() bool { return s.bytesHeld() == 900<<10 })
	// A second one of 700 KB does not fit beside it.
	ct, body := multipartBody(t, append(samplePhoto(t), make([]byte, 630<<10)...), nil)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/recognitions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	wantProblem(t, do(t, req), 429, codeBusy)
	// Once the first has gone, it does.
	slow.Close()
	waitFor(t, func() bool { return s.bytesHeld() == 0 })
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/v1/recognitions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	if a := do(t, req); a.status != 200 {
		t.Fatalf("alone: %d %s", a.status, a.body)
	}
	waitFor(t, func() bool { return s.bytesHeld() == 0 })
}

// TestSlowPhoneUpload: the deadline counts processing, not the upload. A
// 68 KB photo sent at twice the minimum rate takes longer to arrive than
// the whole request deadline, and is read and answered. (The defaults, 1
// KB/s after 10 s against a 30 s deadline, are TestUploadPace's; here
// everything runs 16 times faster.)
func TestSlowPhoneUpload(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newLimitServer(t, fake, func(c *Config) {
		c.RequestTimeout, c.MinUploadRate, c.UploadGrace = time.Second, 16<<10, 500*time.Millisecond
	})
	photo := samplePhoto(t)
	ct, body := multipartBody(t, photo, nil)
	conn := dial(t, ts)
	fmt.Fprintf(conn, "POST /v1/snap-and-score HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(body))
	start := time.Now()
	const chunk = 2 << 10 // 2 KB every 1/16 s: 32 KB/s
	for i := 0; i < len(body); i += chunk {
		time.Sleep(time.Until(start.Add(time.Duration(i/chunk) * time.Second / 16)))
		if _, err := conn.Write(body[i:min(i+chunk, len(body))]); err != nil {
			t.Fatalf("cut off after %d of %d bytes (%s): %v", i, len(body), time.Since(start), err)
		}
	}
	took := time.Since(start)
	resp := readResponse(t, conn)
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d after an upload of %s: %s", resp.StatusCode, took, b)
	}
	if took < time.Second {
		t.Logf("the upload took %s, less than the deadline: the test proves little", took)
	}
}

// TestTrickleCutOff: a body trickled far below the minimum rate is cut off
// with 408 once it falls behind, instead of holding its connection, its
// pool place and its bytes for ever.
func TestTrickleCutOff(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	s, ts := newLimitServer(t, fake, func(c *Config) {
		c.MinUploadRate, c.UploadGrace = 16<<10, 300*time.Millisecond
	})
	conn := dial(t, ts)
	fmt.Fprintf(conn, "POST /v1/recognitions HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000\r\n\r\n")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(100 * time.Millisecond) // 10 bytes a second
		defer tick.Stop()
		for i := 0; i < 100; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte{'x'}); err != nil {
					return
				}
			}
		}
	}()
	resp := readResponse(t, conn)
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", resp.StatusCode)
	}
	waitFor(t, func() bool { return s.bytesHeld() == 0 && len(s.pool.admit) == 0 })
}

// TestUploadPace: with the default settings a 68 KB photo sent at 2 KB/s
// is never behind the minimum rate, and a body trickled at one byte a
// second is, within the grace and a little more.
func TestUploadPace(t *testing.T) {
	c := DefaultConfig()
	start := time.Now()
	for n := 0; n < 68<<10; n += 512 {
		if at := start.Add(time.Duration(n) * time.Second / 2048); !at.Before(c.uploadDue(start, n)) {
			t.Fatalf("byte %d at 2 KB/s arrives after its deadline", n)
		}
	}
	cut := -1
	for n := 0; n < 100; n++ {
		if at := start.Add(time.Duration(n) * time.Second); at.After(c.uploadDue(start, n)) {
			cut = n
			break
		}
	}
	if cut < 0 || time.Duration(cut)*time.Second > c.UploadGrace+2*time.Second {
		t.Fatalf("a trickle of 1 byte/s is cut after %d s (grace %s)", cut, c.UploadGrace)
	}
	if c.uploadDue(start, 1<<30).After(start.Add(c.UploadTimeout)) {
		t.Errorf("a body may take longer than UPLOAD_TIMEOUT")
	}
}

// TestIdleConnsDoNotLockOut: 500 idle connections (half kept alive after
// an answer, half silent since they opened) do not lock a new client out
// of a process whose file limit is lower. The limit is played by a
// listener that stops accepting at 128 open connections, as accept(2)
// does at EMFILE; the old server kept every idle connection open and left
// the rest waiting in the kernel's backlog for ever.
func TestIdleConnsDoNotLockOut(t *testing.T) {
	_, ts := newLimitServerOn(t, &fdLimitListener{limit: 128}, func(c *Config) { c.MaxConns = 100 })
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	for i := 0; i < 500; i++ {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		idle = append(idle, c)
		if i%2 == 0 {
			fmt.Fprintf(c, "GET /v1/rules HTTP/1.1\r\nHost: x\r\n\r\n")
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(ts.URL + "/v1/rules")
	if err != nil {
		t.Fatalf("a new client is locked out: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// newLimitServerOn is newLimitServer on a listener wrapping loopback.
func newLimitServerOn(t testing.TB, ln *fdLimitListener, tweak func(*Config)) (*Server, *httptest.Server) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Workers, cfg.Queue = 2, 8
	tweak(&cfg)
	s, err := New(cfg, Deps{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Listener = inner
	ts := &httptest.Server{Listener: ln, Config: s.HTTPServer(nil)}
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

// fdLimitListener accepts at most limit open connections, leaving the rest
// in the backlog, as a process out of file descriptors does.
type fdLimitListener struct {
	net.Listener
	limit int
	open  atomic.Int64
}

func (l *fdLimitListener) Accept() (net.Conn, error) {
	if l.open.Load() >= int64(l.limit) {
		time.Sleep(time.Millisecond)
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.open.Add(1)
	return &countedConn{Conn: c, l: l}, nil
}

type countedConn struct {
	net.Conn
	l    *fdLimitListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// TestSnapshotHoldsNoWorker: a camera that is slow to answer holds the
// score-now request's pool place, not a worker, so hands are still scored
// meanwhile (the old service waited on the camera inside a worker slot).
func TestSnapshotHoldsNoWorker(t *testing.T) {
	empty, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", "table-empty.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	var snaps atomic.Int64
	hit, release := make(chan struct{}, 1), make(chan struct{})
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if snaps.Add(1) > 1 { // the first snapshot calibrates at once
			hit <- struct{}{}
			<-release
		}
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(empty)
	}))
	defer cam.Close()
	defer close(release)

	cfg := DefaultConfig()
	cfg.Workers, cfg.Queue, cfg.RequestTimeout = 1, 2, 3*time.Second
	s, err := New(cfg, Deps{Version: "test", Recognizer: &fakeRecognizer{rec: handRecognition()}})
	if err != nil {
		t.Fatal(err)
	}
	mountOnSQLite(t, s)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	if a := call(t, "POST", ts.URL+"/v1/tables", testOrganizerToken, `{"table":"t1","snapshot_url":"`+cam.URL+`/snap.jpg"}`); a.status != 201 {
		t.Fatalf("register: %d %s", a.status, a.body)
	}
	if a := call(t, "POST", ts.URL+"/v1/tables/t1/calibrate", testOrganizerToken, ""); a.status != 200 {
		t.Fatalf("calibrate: %d %s", a.status, a.body)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		call(t, "POST", ts.URL+"/v1/tables/t1/score-now", testRefereeToken, `{"seat":"S","request":{"rules":"riichi"}}`)
	}()
	<-hit // score-now now waits on the camera
	if a := postJSON(t, ts.URL+"/v1/scores", readmeHand); a.status != 200 {
		t.Fatalf("a hand scored while a camera is slow: %d %s", a.status, a.body)
	}
	release <- struct{}{}
	<-done
}

// TestDecodeBudget: the pixels decoded at once, by all workers together,
// stay within DecodeMegapixels; photos beyond it wait their turn.
func TestDecodeBudget(t *testing.T) {
	rec := &pixelCounter{}
	_, ts := newTestServer(t, rec, func(c *Config) {
		c.Workers, c.MaxMegapixels, c.DecodeMegapixels = 3, 1, 1
	})
	photo := pngOf(1000, 800) // 0.8 megapixels: one at a time
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a := postPhoto(t, ts.URL+"/v1/recognitions", photo, nil, ""); a.status != 200 {
				t.Errorf("status %d: %s", a.status, a.body)
			}
		}()
	}
	wg.Wait()
	if m := rec.most.Load(); m > 1e6 {
		t.Fatalf("%d pixels decoded at once, the budget is 1,000,000", m)
	}
	// A photo over the per-photo cap is refused from its header.
	wantProblem(t, postPhoto(t, ts.URL+"/v1/recognitions", pngOf(1200, 1000), nil, ""), 413, codeTooLarge)
}

// pixelCounter "decodes" a photo for a while and keeps the most pixels
// decoded at once.
type pixelCounter struct {
	now, most atomic.Int64
}

func (p *pixelCounter) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(photo))
	if err != nil {
		return nil, vision.ErrNotAPhoto
	}
	n := p.now.Add(int64(cfg.Width * cfg.Height))
	defer p.now.Add(-int64(cfg.Width * cfg.Height))
	for {
		m := p.most.Load()
		if n <= m || p.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(100 * time.Millisecond)
	rec := handRecognition()
	return &rec, nil
}

func dial(t testing.TB, ts *httptest.Server) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readResponse reads one response from a raw connection; a service that
// answers nothing within 10 s fails the test instead of hanging it.
func readResponse(t testing.TB, c net.Conn) *http.Response {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("no answer within 10 s")
		}
		t.Fatalf("reading the answer: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestConfigLimits: the limits are read from the environment, and values
// that would make a limit unusable are refused, each named.
func TestConfigLimits(t *testing.T) {
	env := map[string]string{
		"MJSCAN_BYTES_IN_FLIGHT": "64MB", "MJSCAN_DECODE_MEGAPIXELS": "75", "MJSCAN_MIN_UPLOAD_RATE": "2KB",
		"MJSCAN_UPLOAD_GRACE": "5s", "MJSCAN_UPLOAD_TIMEOUT": "1m", "MJSCAN_MAX_CONNS": "300", "MJSCAN_IDLE_TIMEOUT": "20s",
	}
	c, err := LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.BytesInFlight != 64<<20 || c.DecodeMegapixels != 75 || c.MinUploadRate != 2<<10 || c.UploadGrace != 5*time.Second ||
		c.UploadTimeout != time.Minute || c.MaxConns != 300 || c.IdleTimeout != 20*time.Second {
		t.Errorf("%+v", c)
	}
	if c.MemoryBound() <= c.GoMemoryLimit() || c.GoMemoryLimit() <= c.BytesInFlight {
		t.Errorf("memory bound %d, Go limit %d", c.MemoryBound(), c.GoMemoryLimit())
	}
	bad := map[string]string{
		"MJSCAN_BODY_LIMIT": "20MB", "MJSCAN_BYTES_IN_FLIGHT": "30MB", // below two bodies
		"MJSCAN_DECODE_MEGAPIXELS": "10", // below one photo of MAX_MEGAPIXELS
		"MJSCAN_UPLOAD_GRACE":      "5m", // longer than the whole upload
		"MJSCAN_MAX_CONNS":         "1",
		"MJSCAN_MIN_UPLOAD_RATE":   "fast",
	}
	_, err = LoadConfig(func(k string) string { return bad[k] })
	if err == nil {
		t.Fatal("bad limits accepted")
	}
	for k := range bad {
		if k != "MJSCAN_BODY_LIMIT" && !strings.Contains(err.Error(), k) {
			t.Errorf("error does not name %s:\n%v", k, err)
		}
	}
}

// TestChunkedUpload: a body of no declared length is read as it comes,
// each step held in flight, and cut off with 413 past the body limit.
func TestChunkedUpload(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	s, ts := newLimitServer(t, fake, func(c *Config) { c.BodyLimit, c.BytesInFlight = 512<<10, 2<<20 })
	send := func(body []byte, ct string) *answer {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/recognitions", io.MultiReader(bytes.NewReader(body)))
		req.Header.Set("Content-Type", ct)
		if req.ContentLength != 0 {
			t.Fatal("the request has a length")
		}
		return do(t, req)
	}
	ct, body := multipartBody(t, samplePhoto(t), nil)
	if a := send(body, ct); a.status != 200 {
		t.Fatalf("chunked upload: %d %s", a.status, a.body)
	}
	ct, body = multipartBody(t, append(samplePhoto(t), make([]byte, 600<<10)...), nil)
	wantProblem(t, send(body, ct), 413, codeTooLarge)
	waitFor(t, func() bool { return s.bytesHeld() == 0 })
}
