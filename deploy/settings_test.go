package deploy

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mjscan/api"
)

// directives reads the nginx configuration's simple directives, by name,
// in order (comments dropped).
func directives(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	re := regexp.MustCompile(`^\s*([a-z_]+)\s+([^;{]*);`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if m := re.FindStringSubmatch(line); m != nil {
			out[m[1]] = append(out[m[1]], strings.TrimSpace(m[2]))
		}
	}
	return out
}

func nginxDuration(t *testing.T, v string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%q is not a duration", v)
	}
	return d
}

// TestNginxMatchesTheService: deploy/nginx.conf takes the uploads the
// service takes, waits for its answers at least as long as the service
// takes to give them, and drops an idle connection to a replica before
// the replica does (so it never sends a request down one being closed).
func TestNginxMatchesTheService(t *testing.T) {
	c := api.DefaultConfig()
	d := directives(t, "nginx.conf")
	one := func(name string) string {
		t.Helper()
		if len(d[name]) == 0 {
			t.Fatalf("nginx.conf sets no %s", name)
		}
		return d[name][0]
	}
	body := one("client_max_body_size")
	mb, err := strconv.ParseInt(strings.TrimSuffix(body, "m"), 10, 64)
	if err != nil || mb<<20 != c.BodyLimit {
		t.Errorf("client_max_body_size %s, the service's body limit is %d bytes", body, c.BodyLimit)
	}
	if got := nginxDuration(t, one("client_header_timeout")); got != c.HeaderTimeout {
		t.Errorf("client_header_timeout %s, the service's header timeout is %s", got, c.HeaderTimeout)
	}
	if got := nginxDuration(t, one("proxy_read_timeout")); got <= c.RequestTimeout {
		t.Errorf("proxy_read_timeout %s: nginx would give up before the service's own %s deadline answers", got, c.RequestTimeout)
	}
	if got := nginxDuration(t, one("send_timeout")); got != c.WriteTimeout {
		t.Errorf("send_timeout %s, the service's write timeout is %s", got, c.WriteTimeout)
	}
	// keepalive_timeout appears twice: the upstream's first, the
	// clients' after.
	kt := d["keepalive_timeout"]
	if len(kt) != 2 {
		t.Fatalf("keepalive_timeout %v: want the upstream's and the clients'", kt)
	}
	if got := nginxDuration(t, kt[0]); got >= c.IdleTimeout {
		t.Errorf("upstream keepalive_timeout %s: not below the service's idle timeout %s", got, c.IdleTimeout)
	}
	if got := nginxDuration(t, kt[1]); got != c.IdleTimeout {
		t.Errorf("keepalive_timeout %s, the service's idle timeout is %s", got, c.IdleTimeout)
	}
	servers := d["server"]
	if len(servers) != 3 {
		t.Errorf("%d upstream servers, want three replicas", len(servers))
	}
	for _, s := range servers {
		if !strings.HasPrefix(s, "127.0.0.1:") || !strings.Contains(s, "max_fails=") || !strings.Contains(s, "fail_timeout=") {
			t.Errorf("upstream server %q: want a loopback replica with max_fails and fail_timeout", s)
		}
	}
	next := one("proxy_next_upstream")
	for _, want := range []string{"error", "timeout", "http_503"} {
		if !strings.Contains(next, want) {
			t.Errorf("proxy_next_upstream %q lacks %s", next, want)
		}
	}
	if strings.Contains(next, "non_idempotent") {
		t.Errorf("proxy_next_upstream %q would repeat a POST (a hand recorded twice)", next)
	}
	if one("limit_req_status") != "429" || one("limit_conn_status") != "429" {
		t.Errorf("over the rate limits nginx must answer 429, as the service does")
	}
	if len(d["limit_req"]) < 2 {
		t.Errorf("limit_req %v: want the general and the photo limits", d["limit_req"])
	}
}
