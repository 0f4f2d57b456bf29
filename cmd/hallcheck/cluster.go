package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Tokens of the hall's staff: every replica has the same ones, as every
// replica of a real deployment reads them from one Secret.
const (
	refereeToken   = "hall-referee-token-0123456789"
	organizerToken = "hall-organiser-token-0123456789"
)

// postgres starts the throwaway cluster of scripts/postgres-test.sh on its
// own port and folder and answers its DSN and a function that stops it.
func postgres(port int, dir string) (string, func(), error) {
	env := append(os.Environ(), fmt.Sprintf("MJSCAN_PG_PORT=%d", port), "MJSCAN_PG_DIR="+dir)
	cmd := exec.Command("bash", "scripts/postgres-test.sh")
	cmd.Env, cmd.Stderr = env, os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("scripts/postgres-test.sh: %w", err)
	}
	stop := func() {
		cmd := exec.Command("bash", "scripts/postgres-test.sh", "stop")
		cmd.Env, cmd.Stderr = env, os.Stderr
		if err := cmd.Run(); err != nil {
			logf("stopping PostgreSQL: %v", err)
		}
	}
	return strings.TrimSpace(string(out)), stop, nil
}

// replica is one `mjscan serve` process: its name (MJSCAN_INSTANCE), its
// API and metrics ports, and the process while it runs.
type replica struct {
	name    string
	api     string // 127.0.0.1:port
	metrics string
	dsn     string
	bin     string
	logPath string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	exit   error
	starts int
}

func (r *replica) url() string { return "http://" + r.api }

// start runs the replica and waits until its /readyz answers 200.
func (r *replica) start(ctx context.Context) error {
	r.mu.Lock()
	log, err := os.OpenFile(r.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		r.mu.Unlock()
		return err
	}
	r.starts++
	fmt.Fprintf(log, "\n===== start %d of %s at %s\n", r.starts, r.name, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(r.bin, "serve")
	cmd.Env = append(os.Environ(),
		"MJSCAN_ADDR="+r.api,
		"MJSCAN_METRICS_ADDR="+r.metrics,
		"MJSCAN_INSTANCE="+r.name,
		"MJSCAN_REFEREE_DSN="+r.dsn,
		"MJSCAN_REFEREE_TOKEN="+refereeToken,
		"MJSCAN_ORGANIZER_TOKEN="+organizerToken,
		"MJSCAN_SHUTDOWN_TIMEOUT=20s",
	)
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group, so a Ctrl-C to the harness reaches the
	// replicas only through the harness's own shutdown; killed with the
	// harness if it dies without one.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		r.mu.Unlock()
		return fmt.Errorf("starting %s: %w", r.name, err)
	}
	r.cmd, r.exited, r.exit = cmd, make(chan struct{}), nil
	exited := r.exited
	go func() {
		err := cmd.Wait()
		log.Close()
		r.mu.Lock()
		r.exit = err
		r.mu.Unlock()
		close(exited)
	}()
	r.mu.Unlock()
	return r.waitReady(ctx, exited)
}

func (r *replica) waitReady(ctx context.Context, exited chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for {
		if ready(ctx, r.url()+"/readyz") {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("%s exited before it was ready (%v): see %s", r.name, r.exitErr(), r.logPath)
		case <-ctx.Done():
			return fmt.Errorf("%s not ready within 90s: see %s", r.name, r.logPath)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (r *replica) exitErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.exit
}

// signal sends sig to the running replica and waits for it to exit (at
// most limit); it answers the process's exit error (nil: exit status 0).
func (r *replica) signal(sig syscall.Signal, limit time.Duration) error {
	r.mu.Lock()
	cmd, exited := r.cmd, r.exited
	r.mu.Unlock()
	if cmd == nil {
		return errors.New(r.name + " is not running")
	}
	if err := cmd.Process.Signal(sig); err != nil {
		return err
	}
	select {
	case <-exited:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-exited
		return fmt.Errorf("%s did not exit within %s of %s (killed)", r.name, limit, sig)
	}
	return r.exitErr()
}

// running says whether the replica's process is alive.
func (r *replica) running() bool {
	r.mu.Lock()
	exited := r.exited
	r.mu.Unlock()
	if exited == nil {
		return false
	}
	select {
	case <-exited:
		return false
	default:
		return true
	}
}

func (r *replica) stop() {
	if r.running() {
		if err := r.signal(syscall.SIGTERM, 30*time.Second); err != nil {
			logf("stopping %s: %v", r.name, err)
		}
	}
}

func ready(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// nginx is Debian's nginx in the foreground with everything of its own
// (prefix, pid, logs, temporary files) in one folder.
type nginx struct {
	dir  string
	cmd  *exec.Cmd
	done chan error
}

// startNginx writes the main configuration around conf (the http-context
// file derived from deploy/nginx.conf) and runs nginx until stop.
func startNginx(ctx context.Context, dir, conf, listen string) (*nginx, error) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx"
		if _, err := os.Stat(bin); err != nil {
			return nil, errors.New("nginx is not installed: run scripts/setup.sh (Debian's nginx)")
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Workers run as nobody when nginx starts as root: their temporary
	// folders must be theirs to write.
	for _, d := range []string{"body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o777); err != nil {
			return nil, err
		}
		os.Chmod(filepath.Join(dir, d), 0o777)
	}
	site := filepath.Join(dir, "mjscan.conf")
	if err := os.WriteFile(site, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	main := fmt.Sprintf(`# What Debian's /etc/nginx/nginx.conf gives conf.d/, in a folder of our own.
worker_processes 1;
error_log %[1]s/error.log warn;
pid %[1]s/nginx.pid;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    access_log %[1]s/access.log;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[2]s;
}
`, dir, site)
	mainPath := filepath.Join(dir, "nginx-main.conf")
	if err := os.WriteFile(mainPath, []byte(main), 0o644); err != nil {
		return nil, err
	}
	args := []string{"-p", dir + "/", "-e", filepath.Join(dir, "error.log"), "-c", mainPath, "-g", "daemon off;"}
	if out, err := exec.Command(bin, append([]string{"-t", "-q"}, args...)...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("nginx -t refused the derived configuration %s: %v\n%s", site, err, out)
	}
	n := &nginx{dir: dir, cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := n.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { n.done <- n.cmd.Wait() }()
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for !ready(wctx, "http://"+listen+"/readyz") {
		select {
		case err := <-n.done:
			return nil, fmt.Errorf("nginx exited: %v (see %s/error.log)", err, dir)
		case <-wctx.Done():
			n.stop()
			return nil, fmt.Errorf("nginx on %s did not pass /readyz on to a replica within 20s (see %s/error.log)", listen, dir)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return n, nil
}

// stop asks nginx to finish gracefully (SIGQUIT), then kills it.
func (n *nginx) stop() {
	n.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-n.done:
	case <-time.After(10 * time.Second):
		n.cmd.Process.Kill()
		<-n.done
	}
}
