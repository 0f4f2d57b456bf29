package calibration

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// tcpServer accepts connections on loopback and hands each to serve.
func tcpServer(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return ln.Addr().String()
}

// TestSnapshotFailuresLookAlike: whatever is (or is not) behind a camera
// address, a failed snapshot is ErrNoSnapshot with the same message, which
// names no address, port, status or protocol; the cause is kept for the
// log. A real JPEG comes through.
func TestSnapshotFailuresLookAlike(t *testing.T) {
	jpeg, err := os.ReadFile(emptyFrame)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	ssh := tcpServer(t, func(c net.Conn) { c.Write([]byte("SSH-2.0-OpenSSH_9.2p1\r\n")); c.Close() })
	smtp := tcpServer(t, func(c net.Conn) {
		c.Write([]byte("220 mail.example ESMTP Postfix\r\n\r\n"))
		time.Sleep(50 * time.Millisecond)
		c.Close()
	})
	hangup := tcpServer(t, func(c net.Conn) { c.Close() })
	silent := tcpServer(t, func(c net.Conn) { time.Sleep(2 * time.Second); c.Close() })
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/frame.jpg":
			w.Header().Set("Content-Type", "image/jpeg")
			w.Write(jpeg)
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><title>Router login</title></html>"))
		case "/jpeg-lie":
			w.Header().Set("Content-Type", "image/jpeg")
			w.Write([]byte("\xff\xd8\xff\xe0 not really"))
		case "/auth":
			http.Error(w, "who are you", http.StatusUnauthorized)
		default:
			http.NotFound(w, r)
		}
	}))
	defer web.Close()

	cam := Camera{Client: &http.Client{Timeout: 300 * time.Millisecond}, MaxBytes: int64(len(jpeg))}
	got, err := cam.Snapshot(context.Background(), web.URL+"/frame.jpg")
	if err != nil || len(got) != len(jpeg) {
		t.Fatalf("a real frame: %d bytes, %v", len(got), err)
	}
	small := Camera{Client: cam.Client, MaxBytes: int64(len(jpeg)) - 1}
	_, tooLarge := small.Snapshot(context.Background(), web.URL+"/frame.jpg")

	fails := map[string]error{"too large": tooLarge}
	for name, url := range map[string]string{
		"closed port":  "http://" + closed + "/snapshot.jpg",
		"ssh banner":   "http://" + ssh + "/",
		"smtp banner":  "http://" + smtp + "/",
		"hang-up":      "http://" + hangup + "/",
		"silent port":  "http://" + silent + "/",
		"web page":     web.URL + "/page",
		"fake jpeg":    web.URL + "/jpeg-lie",
		"401":          web.URL + "/auth",
		"404":          web.URL + "/nothing",
		"no such host": "http://camera.invalid/snapshot.jpg",
		"bad address":  "http://[::1/",
	} {
		_, err := cam.Snapshot(context.Background(), url)
		fails[name] = err
	}
	for name, err := range fails {
		var se *SnapshotError
		switch {
		case err == nil:
			t.Errorf("%s: gave a snapshot", name)
			continue
		case !errors.Is(err, ErrNoSnapshot) || !errors.As(err, &se) || se.Cause == nil:
			t.Errorf("%s: %T %v is not a SnapshotError with a cause", name, err, err)
		case err.Error() != ErrNoSnapshot.Error():
			t.Errorf("%s answers %q, want %q", name, err, ErrNoSnapshot)
		}
		for _, leak := range []string{"127.0.0.1", "refused", "SSH", "ESMTP", "malformed", "404", "401", "timeout", "html", "dial", "EOF"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("%s: the message tells %q: %v", name, leak, err)
			}
		}
	}

}
