package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// envServeChild turns the test binary into `mjscan serve` (see TestMain),
// so a test can send the real process its signals.
const envServeChild = "MJSCAN_TEST_SERVE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(envServeChild) != "" {
		os.Exit(run([]string{"serve"}))
	}
	os.Exit(m.Run())
}

// serveProcess is `mjscan serve` in a process of its own.
type serveProcess struct {
	cmd  *exec.Cmd
	addr string
	mu   sync.Mutex
	log  bytes.Buffer
	done chan struct{}
	rc   int
}

// startServeProcess starts serve on a loopback port chosen by the system,
// with a SQLite referee record, and waits until it listens.
func startServeProcess(t *testing.T, env ...string) *serveProcess {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServeChild+"=1",
		"MJSCAN_ADDR=127.0.0.1:0", "MJSCAN_METRICS_ADDR=off", "MJSCAN_WORKERS=1",
		"MJSCAN_REFEREE_TOKEN=referee-token-0123456789", "MJSCAN_ORGANIZER_TOKEN=organizer-token-0123456789",
		"MJSCAN_REFEREE_DB="+filepath.Join(dir, "referee.db"))
	cmd.Env = append(cmd.Env, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{cmd: cmd, done: make(chan struct{})}
	listening := make(chan string, 1)
	serving := regexp.MustCompile(`serving on http://([^/]+)/`)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				listening <- m[1]
			}
		}
		err := cmd.Wait()
		p.rc = cmd.ProcessState.ExitCode()
		if err != nil && p.rc < 0 {
			p.rc = -1
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
	})
	select {
	case p.addr = <-listening:
		return p
	case <-p.done:
		t.Fatalf("serve exited %d before listening:\n%s", p.rc, p.logText())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not listen within a minute:\n%s", p.logText())
	}
	return nil
}

func (p *serveProcess) logText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// wait waits for the process to exit and returns its exit status.
func (p *serveProcess) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.rc
	case <-time.After(within):
		t.Fatalf("serve did not exit within %s of SIGTERM:\n%s", within, p.logText())
	}
	return 0
}

// slowUpload opens a connection and sends a photo upload's headers and the
// first half of its body; the rest is sent by finish.
func slowUpload(t *testing.T, addr string) (conn net.Conn, finish func() *http.Response) {
	t.Helper()
	ctype, body := photoForm(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := fmt.Sprintf("POST /v1/recognitions HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", addr, ctype, len(body))
	half := len(body) / 2
	if _, err := conn.Write(append([]byte(head), body[:half]...)); err != nil {
		t.Fatal(err)
	}
	return conn, func() *http.Response {
		t.Helper()
		if _, err := conn.Write(body[half:]); err != nil {
			t.Fatalf("the rest of the upload: %v", err)
		}
		conn.SetReadDeadline(time.Now().Add(time.Minute))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer to the upload in flight: %v", err)
		}
		return resp
	}
}

// refused waits until a new connection to addr is refused (the listener
// is closed), for at most 10 s.
func refused(t *testing.T, addr string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			continue
		}
		if errors.Is(err, syscall.ECONNRESET) {
			// It reached the backlog as the listener closed.
			continue
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("a new connection after SIGTERM: %v, want connection refused", err)
		}
		return
	}
	t.Fatal("new connections were still accepted 10 s after SIGTERM")
}

// TestServeGracefulShutdown: on SIGTERM the real serve process stops
// accepting connections at once, answers the upload still arriving (200),
// closes the referee record and exits 0.
func TestServeGracefulShutdown(t *testing.T) {
	p := startServeProcess(t)
	_, finish := slowUpload(t, p.addr)
	// The upload is in flight: its headers and half its body are sent.
	time.Sleep(200 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	refused(t, p.addr)
	resp := finish()
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the upload in flight at SIGTERM answered %d, want 200", resp.StatusCode)
	}
	if rc := p.wait(t, time.Minute); rc != 0 {
		t.Errorf("serve exited %d after a clean drain, want 0:\n%s", rc, p.logText())
	}
	log := p.logText()
	for _, want := range []string{"stopping: finishing requests in flight (at most 20s", "referee record closed", "stopped: every request answered"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
}

// TestServeShutdownDeadline: a request still unfinished when
// MJSCAN_SHUTDOWN_TIMEOUT runs out is cut off; the record is closed all
// the same and serve exits 1, saying so.
func TestServeShutdownDeadline(t *testing.T) {
	p := startServeProcess(t, "MJSCAN_SHUTDOWN_TIMEOUT=1s")
	conn, _ := slowUpload(t, p.addr)
	time.Sleep(200 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	refused(t, p.addr)
	// The body never comes: the upload would otherwise be cut off only
	// by MJSCAN_UPLOAD_GRACE (10 s), the drain by REQUEST_TIMEOUT + 5 s.
	if rc := p.wait(t, 8*time.Second); rc != 1 {
		t.Errorf("serve exited %d with a request cut off, want 1:\n%s", rc, p.logText())
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := conn.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection cut off by the deadline is still open (read %d, %v)", n, err)
	}
	log := p.logText()
	for _, want := range []string{"(at most 1s", "shutdown deadline (1s) passed", "referee record closed"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
}
