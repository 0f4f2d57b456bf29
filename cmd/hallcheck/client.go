package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// retryFor bounds a client's retries of one request (after 502, 503,
// 504, 429, a connection error or a first request with its key still in
// flight): it gives up when the next try would start later than this
// after the first (the -retry-for flag).
var retryFor = 30 * time.Second

// answer is one attempt's outcome.
type answer struct {
	status   int // 0: no answer (connection error)
	body     []byte
	header   http.Header
	err      error
	replica  string // from the upstream header
	attempts int
	// retriedFrom lists the statuses of the attempts before this one.
	retriedFrom []int
}

func (a answer) code() string {
	var p struct {
		Code string `json:"code"`
	}
	json.Unmarshal(a.body, &p)
	return p.Code
}

// disruption is one 502/503/504 or connection error a client saw.
type disruption struct {
	at      time.Duration
	route   string
	status  int
	replica string
}

// tally counts every answer clients saw, by route and status, and keeps
// the ones that matter to the checks.
type tally struct {
	mu          sync.Mutex
	start       time.Time
	byRoute     map[string]map[int]int
	disruptions []disruption
	inFlight409 int
	// unexpected groups the answers no client should see by route,
	// status and problem code, with the first few in full.
	unexpected map[string]*unexpectedGroup
	gaveUp     []string
	// slowest is the longest a request took from its first try to its
	// answer, among those that needed retries.
	slowest     time.Duration
	slowestWhat string
}

func (t *tally) recovered(r request, a answer, took time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if took > t.slowest {
		t.slowest = took
		t.slowestWhat = fmt.Sprintf("%s after %v", r.route, a.retriedFrom)
		if r.key != "" {
			t.slowestWhat = fmt.Sprintf("%s (Idempotency-Key %s) after %v", r.route, r.key, a.retriedFrom)
		}
	}
}

type unexpectedGroup struct {
	n        int
	examples []string
}

func newTally(start time.Time) *tally {
	return &tally{start: start, byRoute: map[string]map[int]int{}, unexpected: map[string]*unexpectedGroup{}}
}

func (t *tally) add(route string, a answer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byRoute[route] == nil {
		t.byRoute[route] = map[int]int{}
	}
	t.byRoute[route][a.status]++
	switch {
	case a.status == 0 || a.status >= 500:
		t.disruptions = append(t.disruptions, disruption{at: time.Since(t.start), route: route, status: a.status, replica: a.replica})
	case a.status == http.StatusConflict && a.code() == "idempotency_key_in_flight":
		t.inFlight409++
	}
}

func (t *tally) unexpectedAnswer(route string, a answer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := fmt.Sprintf("%s answered %d %s", route, a.status, a.code())
	g := t.unexpected[k]
	if g == nil {
		g = &unexpectedGroup{}
		t.unexpected[k] = g
	}
	g.n++
	if len(g.examples) < 3 {
		retried := ""
		if len(a.retriedFrom) > 0 {
			retried = fmt.Sprintf(" (a retry after %v)", a.retriedFrom)
		}
		g.examples = append(g.examples, fmt.Sprintf("at %.1fs from %s%s: %s", time.Since(t.start).Seconds(), orUnknown(a.replica), retried, snippet(a.body)))
	}
}

func (t *tally) gaveUpOn(r request, a answer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	why := a.code()
	if a.err != nil {
		why = a.err.Error()
	}
	key := ""
	if r.key != "" {
		key = " (Idempotency-Key " + r.key + ")"
	}
	t.gaveUp = append(t.gaveUp, fmt.Sprintf("%s%s, given up at %.1fs: still %d %s after %d attempts in %s (statuses before: %v)", r.route, key, time.Since(t.start).Seconds(), a.status, why, a.attempts, retryFor, a.retriedFrom))
}

// names are the replicas' names by address, for the upstream header.
var names = map[string]string{}

// replicaNames turns nginx's $upstream_addr ("a, b" when a failed and b
// answered) into the replicas' names.
func replicaNames(upstream string) string {
	if upstream == "" {
		return ""
	}
	parts := strings.Split(upstream, ", ")
	for i, p := range parts {
		if n, ok := names[p]; ok {
			parts[i] = n
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " (failed), then " + parts[len(parts)-1]
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 240 {
		s = s[:240] + "…"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "nginx itself"
	}
	return s
}

// client is one phone or table: its own source address on loopback (so
// nginx's per-client limits apply to it alone) and its own connections.
type client struct {
	n    int
	base string
	http *http.Client
	t    *tally
}

func newClient(n int, base string, t *tally) *client {
	local := &net.TCPAddr{IP: net.IPv4(127, 0, byte(1+n/250), byte(2+n%250))}
	d := &net.Dialer{LocalAddr: local, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second}
	return &client{n: n, base: base, http: &http.Client{Transport: tr, Timeout: 60 * time.Second}, t: t}
}

// request is what a client sends; body is made anew for each attempt
// (an upload gets a new multipart boundary each time, as a phone's
// retry does).
type request struct {
	route, method, path, token, key string
	body                            func() (ctype string, body []byte)
}

func jsonBody(v any) func() (string, []byte) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return func() (string, []byte) { return "application/json", b }
}

func photoBody(photo []byte) func() (string, []byte) {
	return func() (string, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		part, _ := w.CreateFormFile("photo", "table.jpg")
		part.Write(photo)
		w.Close()
		return w.FormDataContentType(), buf.Bytes()
	}
}

// once sends one attempt to base (nginx, or a replica directly).
func (c *client) once(ctx context.Context, base string, r request) answer {
	var body io.Reader
	ctype := ""
	if r.body != nil {
		var b []byte
		ctype, b = r.body()
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, base+r.path, body)
	if err != nil {
		return answer{err: err}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.key != "" {
		req.Header.Set("Idempotency-Key", r.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{err: err, status: 0}
	}
	return answer{status: resp.StatusCode, body: b, header: resp.Header, replica: replicaNames(resp.Header.Get(upstreamHeader))}
}

// retryable says whether a client tries again, with the same request and
// Idempotency-Key: the service or nginx said so, or nothing answered.
func retryable(a answer) bool {
	switch a.status {
	case 0, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusTooManyRequests:
		return true
	case http.StatusConflict:
		return a.code() == "idempotency_key_in_flight"
	}
	return false
}

// call sends r through nginx until it is answered for good, counting
// every answer; ok reports a 200 or 201.
func (c *client) call(ctx context.Context, r request) (answer, bool) {
	var before []int
	first := time.Now()
	for attempt := 1; ; attempt++ {
		a := c.once(ctx, c.base, r)
		a.attempts, a.retriedFrom = attempt, before
		if ctx.Err() != nil && a.status == 0 {
			c.t.gaveUpOn(r, a)
			return a, false
		}
		c.t.add(r.route, a)
		if a.status == http.StatusOK || a.status == http.StatusCreated {
			if attempt > 1 {
				c.t.recovered(r, a, time.Since(first))
			}
			return a, true
		}
		if !retryable(a) {
			c.t.unexpectedAnswer(r.route, a)
			return a, false
		}
		before = append(before, a.status)
		wait := time.Duration(100<<min(attempt, 4)) * time.Millisecond
		if s, err := strconv.Atoi(a.header.Get("Retry-After")); err == nil && s > 0 {
			wait = min(time.Duration(s)*time.Second, 2*time.Second)
		}
		if time.Since(first)+wait > retryFor {
			c.t.gaveUpOn(r, a)
			return a, false
		}
		select {
		case <-ctx.Done():
			c.t.gaveUpOn(r, a)
			return a, false
		case <-time.After(wait):
		}
	}
}
