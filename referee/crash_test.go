package referee

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// envCrashChild, when set to a JSON Config, turns the test binary into the
// writer of the crash test (see TestMain).
const envCrashChild = "MJSCAN_REFEREE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if c := os.Getenv(envCrashChild); c != "" {
		os.Exit(crashChild(c))
	}
	os.Exit(m.Run())
}

// crashChild appends records from several goroutines as fast as it can
// and acknowledges each one on stdout only after Append returned, the way
// the service answers a client only after the record is stored. It runs
// until it is killed.
func crashChild(config string) int {
	var c Config
	if err := json.Unmarshal([]byte(config), &c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := Open(context.Background(), c)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	tag := make([]byte, 4)
	_, _ = rand.Read(tag)
	for w := 0; w < 4; w++ {
		go func(w int) {
			for i := 0; ; i++ {
				r := sample(fmt.Sprintf("table %d", w))
				r.Photo = make([]byte, 2048)
				_, _ = rand.Read(r.Photo)
				r.PhotoSHA256 = ""
				r.Claimed = fmt.Sprintf("%x-%d-%d", tag, w, i)
				got, err := s.Append(context.Background(), r)
				if err != nil {
					fmt.Fprintln(os.Stderr, "append:", err)
					os.Exit(3)
				}
				mu.Lock()
				fmt.Fprintf(out, "ack %d %s %s\n", got.ID, got.Digest, got.Claimed)
				out.Flush()
				mu.Unlock()
			}
		}(w)
	}
	select {}
}

type ack struct {
	id              int64
	digest, claimed string
}

// runAndKill starts a writer on the record, lets it acknowledge at least
// want records, SIGKILLs it mid-stream and returns what it acknowledged.
func runAndKill(t *testing.T, c Config, want int) []ack {
	t.Helper()
	cfg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashChild+"="+string(cfg))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acks []ack
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(20 * time.Second)
	killed := false
	for !killed {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the writer stopped by itself: %s", stderr.String())
			}
			f := strings.Fields(l)
			id, _ := strconv.ParseInt(f[1], 10, 64)
			acks = append(acks, ack{id, f[2], f[3]})
			if len(acks) >= want {
				// Kill while the other writers are in the middle of
				// their appends.
				_ = cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			}
		case <-deadline:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			t.Fatalf("only %d records acknowledged in 20 s: %s", len(acks), stderr.String())
		}
	}
	// Acknowledgements already written before the kill still count.
	for l := range lines {
		f := strings.Fields(l)
		if len(f) == 4 {
			id, _ := strconv.ParseInt(f[1], 10, 64)
			acks = append(acks, ack{id, f[2], f[3]})
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the writer was not killed by SIGKILL: %v %s", err, stderr.String())
	}
	return acks
}

// TestCrashKeepsAcknowledgedRecords: a writer under load is SIGKILLed
// twice; after each reopen every record it acknowledged is there, with its
// content and digest, and every record stored reads back intact.
func TestCrashKeepsAcknowledgedRecords(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			c := b.config(t)
			var all []ack
			for round := 1; round <= 2; round++ {
				all = append(all, runAndKill(t, c, 150)...)
				s, err := Open(context.Background(), c)
				if err != nil {
					t.Fatalf("round %d: reopening after the kill: %v", round, err)
				}
				stored := map[int64]Record{}
				var after int64
				for {
					page, _, err := s.List(context.Background(), Query{After: after})
					if err != nil {
						t.Fatalf("round %d: reading back (a record failed its digest?): %v", round, err)
					}
					if len(page) == 0 {
						break
					}
					for _, r := range page {
						stored[r.ID] = r
					}
					after = page[len(page)-1].ID
				}
				for _, a := range all {
					r, ok := stored[a.id]
					if !ok {
						t.Fatalf("round %d: acknowledged record %d is missing", round, a.id)
					}
					if r.Digest != a.digest || r.Claimed != a.claimed || r.Tampered != "" || r.PhotoSize != 2048 {
						t.Fatalf("round %d: record %d changed: %+v", round, a.id, r)
					}
					if _, _, err := s.Photo(context.Background(), a.id); err != nil {
						t.Fatalf("round %d: record %d's photo: %v", round, a.id, err)
					}
				}
				t.Logf("round %d: %d acknowledged, %d stored", round, len(all), len(stored))
				s.Close()
			}
		})
	}
}
