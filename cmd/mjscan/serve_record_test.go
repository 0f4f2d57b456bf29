package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mjscan/referee"
)

// TestServeRefusesReadOnlyRecord: serve does not start on a referee
// record it cannot write (it would answer healthy, then fail every
// ruling): it says which record, what to do, and exits 1.
func TestServeRefusesReadOnlyRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "referee.db")
	s, err := referee.Open(context.Background(), referee.Config{SQLitePath: path})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// A file format write version above 2 makes SQLite open the file
	// read-only whoever runs it (file modes do not stop root).
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{3}, 18); err != nil {
		t.Fatal(err)
	}
	f.Close()

	env := map[string]string{
		"MJSCAN_REFEREE_TOKEN":   "referee-token-0123456789",
		"MJSCAN_ORGANIZER_TOKEN": "organizer-token-0123456789",
		"MJSCAN_REFEREE_DB":      path,
		"MJSCAN_ADDR":            "127.0.0.1:0",
		"MJSCAN_METRICS_ADDR":    "off",
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var log bytes.Buffer
	rc := serve(ctx, nil, func(k string) string { return env[k] }, &syncWriter{w: &log}, func(string, string) {
		t.Error("serve listened on a read-only referee record")
		cancel()
	})
	if rc != 1 {
		t.Errorf("serve exited %d, want 1", rc)
	}
	for _, want := range []string{"read-only", path, "writable"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the error does not say %q:\n%s", want, log.String())
		}
	}
}
