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
	"mjscan/referee"
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

// yamlValues reads the "KEY: value" lines of a manifest whose keys start
// with MJSCAN_ (the settings in a ConfigMap or Secret), unquoted.
func yamlValues(t *testing.T, path string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	re := regexp.MustCompile(`(?m)^\s+(MJSCAN_[A-Z_]+):\s*(.*)$`)
	for _, m := range re.FindAllStringSubmatch(string(raw), -1) {
		v, err := strconv.Unquote(strings.TrimSpace(m[2]))
		if err != nil {
			v = strings.TrimSpace(m[2])
		}
		out[m[1]] = v
	}
	return out
}

// TestManifestsMatchTheService: the Kubernetes settings are ones the
// service reads and accepts, the memory limit holds the bound they give,
// the pod has time to drain, and the probes and ports are the service's.
func TestManifestsMatchTheService(t *testing.T) {
	known := map[string]bool{
		referee.EnvPostgresDSN: true, referee.EnvSQLitePath: true,
		api.EnvRefereeToken: true, api.EnvOrganizerToken: true, api.EnvPrefix + "BANK": true,
	}
	for _, line := range api.DefaultConfig().Describe() {
		name, _, _ := strings.Cut(line, "=")
		known[name] = true
	}
	settings := yamlValues(t, "k8s/configmap.yaml")
	secrets := yamlValues(t, "k8s/secret.yaml")
	if len(settings) == 0 || len(secrets) == 0 {
		t.Fatalf("no settings read: %v %v", settings, secrets)
	}
	for _, m := range []map[string]string{settings, secrets} {
		for k := range m {
			if !known[k] {
				t.Errorf("%s is not a setting of mjscan serve", k)
			}
		}
	}
	for _, k := range []string{referee.EnvPostgresDSN, api.EnvRefereeToken, api.EnvOrganizerToken} {
		if secrets[k] == "" {
			t.Errorf("secret.yaml lacks %s", k)
		}
	}
	env := map[string]string{}
	for k, v := range settings {
		env[k] = v
	}
	for k, v := range secrets {
		env[k] = v
	}
	cfg, err := api.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("the service refuses the manifests' settings: %v", err)
	}
	if _, err := api.LoadTournamentConfig(func(k string) string { return env[k] }); err != nil {
		t.Errorf("the service refuses the manifests' tokens: %v", err)
	}
	if _, err := referee.LoadConfig(func(k string) string { return env[k] }); err != nil {
		t.Errorf("the service refuses the manifests' record: %v", err)
	}

	raw, err := os.ReadFile("k8s/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dep := string(raw)
	num := func(re string) int64 {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(dep)
		if m == nil {
			t.Fatalf("deployment.yaml: nothing matches %s", re)
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		return n
	}
	limit := num(`(?s)limits:.*?memory:\s*(\d+)Mi`) << 20
	if bound := cfg.MemoryBound(); bound > limit {
		t.Errorf("memory limit %d MiB is below the bound of the settings, %d MiB", limit>>20, bound>>20)
	}
	grace := time.Duration(num(`terminationGracePeriodSeconds:\s*(\d+)`)) * time.Second
	pause := time.Duration(num(`command: \["sleep", "(\d+)"\]`)) * time.Second
	if grace < pause+cfg.ShutdownTimeout+time.Second {
		t.Errorf("terminationGracePeriodSeconds %s leaves no time to drain: preStop %s + MJSCAN_SHUTDOWN_TIMEOUT %s", grace, pause, cfg.ShutdownTimeout)
	}
	if cpus := num(`(?s)limits:\s*cpu:\s*"(\d+)"`); int64(cfg.Workers) > cpus {
		t.Errorf("%d workers on %d CPUs", cfg.Workers, cpus)
	}
	for _, want := range []string{"path: /readyz", "path: /healthz", "containerPort: 8080", "containerPort: " + portOf(t, cfg.MetricsAddr), "name: " + api.EnvPrefix + "INSTANCE"} {
		if !strings.Contains(dep, want) {
			t.Errorf("deployment.yaml lacks %q", want)
		}
	}
	docker, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docker), `"--addr", "0.0.0.0:8080"`) {
		t.Errorf("the image no longer listens on 0.0.0.0:8080, the container port")
	}
}

func portOf(t *testing.T, addr string) string {
	t.Helper()
	i := strings.LastIndex(addr, ":")
	if i < 0 {
		t.Fatalf("%q has no port", addr)
	}
	return addr[i+1:]
}
