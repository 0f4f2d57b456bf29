package main

import (
	"os"
	"strings"
	"testing"
)

// TestDeriveNginx: the harness's nginx configuration is deploy/nginx.conf
// with the replicas' and nginx's own addresses, and nothing else changed.
func TestDeriveNginx(t *testing.T) {
	shipped, err := os.ReadFile("../../deploy/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	conf, err := deriveNginx(string(shipped), "127.0.0.1:18120", []string{"127.0.0.1:18121", "127.0.0.1:18122"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"server 127.0.0.1:18121 max_fails=2 fail_timeout=10s;",
		"server 127.0.0.1:18122 max_fails=2 fail_timeout=10s;",
		"listen 127.0.0.1:18120;",
		"least_conn;",
		"limit_req zone=mjscan_photos burst=10 nodelay;",
		"client_max_body_size 20m;",
		"add_header " + upstreamHeader + " $upstream_addr always;",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("derived configuration lacks %q", want)
		}
	}
	var directives strings.Builder // the comments name the shipped ports too
	for _, line := range strings.Split(conf, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			directives.WriteString(line + "\n")
		}
	}
	for _, gone := range []string{"127.0.0.1:8081", "127.0.0.1:8083", "listen 80;", "[::]:80"} {
		if strings.Contains(directives.String(), gone) {
			t.Errorf("derived configuration still has %q", gone)
		}
	}
	// Apart from the lines changed, the file is the shipped one.
	kept := 0
	for _, line := range strings.Split(string(shipped), "\n") {
		if strings.Contains(conf, line) {
			kept++
		}
	}
	if total := len(strings.Split(string(shipped), "\n")); total-kept > 5 {
		t.Errorf("%d of the shipped file's %d lines are missing from the derived one", total-kept, total)
	}

	if _, err := deriveNginx(strings.Replace(string(shipped), "listen 80;", "listen 8080;", 1), "127.0.0.1:1", []string{"127.0.0.1:2"}); err == nil {
		t.Error("a shipped file of another shape was derived without complaint")
	}
}

// TestRecognitionsMetric reads the recognitions counter off a replica's
// metrics page.
func TestRecognitionsMetric(t *testing.T) {
	page := `# HELP mjscan_step_duration_seconds Time spent in each pipeline step.
mjscan_step_duration_seconds_bucket{replica="r1",step="recognize",le="+Inf"} 7
mjscan_step_duration_seconds_count{replica="r1",step="decode"} 9
mjscan_step_duration_seconds_count{replica="r1",step="recognize"} 7
mjscan_step_duration_seconds_sum{replica="r1",step="recognize"} 1.5
`
	n, err := parseRecognitions(page)
	if err != nil || n != 7 {
		t.Fatalf("parseRecognitions = %d, %v; want 7", n, err)
	}
	// A replica that has read no photo yet has no series.
	if n, err := parseRecognitions("mjscan_pool_running{replica=\"r1\"} 0\n"); err != nil || n != 0 {
		t.Fatalf("parseRecognitions of a fresh replica = %d, %v; want 0", n, err)
	}
	if _, err := parseRecognitions(`mjscan_step_duration_seconds_count{replica="r1",step="recognize"} x` + "\n"); err == nil {
		t.Fatal("a malformed count was read without complaint")
	}
}
