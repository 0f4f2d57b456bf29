package api

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"mjscan/vision"
)

// EnvPrefix is the prefix of every environment variable the service reads.
const EnvPrefix = "MJSCAN_"

// Config is what the service can be told at start-up. Every field has a
// default that works on a laptop with nothing else running.
type Config struct {
	// Addr is where the API and the web page listen.
	Addr string
	// MetricsAddr is where Prometheus metrics listen, apart from the API so
	// that they are never exposed by accident; "off" turns them off.
	MetricsAddr string
	// BodyLimit bounds a request body in bytes (photos included).
	BodyLimit int64
	// Workers is how many scorings or recognitions run at once.
	Workers int
	// Queue is how many more may wait for a worker before the service
	// answers 429.
	Queue int
	// RequestTimeout bounds one request's processing, from the moment its
	// body has arrived to the answer: a slow phone's upload does not count.
	RequestTimeout time.Duration
	// MaxMegapixels refuses larger photos from their header, before decoding.
	MaxMegapixels float64
	// DecodeMegapixels bounds the pixels decoded at once by all workers
	// together (counted from each photo's header before it is decoded); a
	// photo waits in the queue until its pixels fit.
	DecodeMegapixels float64
	// BytesInFlight bounds the request bodies (with the copies made of
	// their photos, and drawn overlays) held at once across all requests;
	// an upload that does not fit is answered 429. An upload holds twice
	// its size: its body and its photos.
	BytesInFlight int64

	// HeaderTimeout bounds the arrival of a request's headers.
	HeaderTimeout time.Duration
	// UploadTimeout bounds the arrival of a request's body. Within it the
	// body must keep coming at MinUploadRate bytes per second on average,
	// counted after UploadGrace: a photo sent at 2 KB/s arrives, a body
	// trickled at one byte a second is cut off (408).
	UploadTimeout time.Duration
	MinUploadRate int64
	UploadGrace   time.Duration
	// WriteTimeout is how long the answer may take to reach the client
	// once RequestTimeout has passed.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends nothing more.
	IdleTimeout time.Duration
	// MaxConns bounds the open connections. At the bound the connection idle
	// longest is closed to make room, so idle connections never lock new
	// clients out. Keep it below the process's file limit (ulimit -n).
	MaxConns int
	// IdempotencyTTL is how long an upload's answer is kept for replay
	// under its Idempotency-Key; IdempotencyEntries bounds how many are kept
	// and IdempotencyBytes the memory they take. An answer over a sixteenth
	// of IdempotencyBytes is not kept (its retry runs again).
	IdempotencyTTL     time.Duration
	IdempotencyEntries int
	IdempotencyBytes   int64
	// ShutdownTimeout is how long `mjscan serve`, told to stop (SIGTERM,
	// SIGINT), waits for the requests in flight once it stops accepting
	// new ones; those still unfinished then are cut off.
	ShutdownTimeout time.Duration
	// Instance names this replica among those behind one load balancer:
	// every metric carries it as its replica label. The host's name by
	// default (a pod's name in Kubernetes).
	Instance string
}

// DefaultConfig is the configuration with nothing set.
func DefaultConfig() Config {
	return Config{
		Addr:               "127.0.0.1:8080",
		MetricsAddr:        "127.0.0.1:9464",
		BodyLimit:          20 << 20,
		Workers:            runtime.NumCPU(),
		Queue:              4 * runtime.NumCPU(),
		RequestTimeout:     30 * time.Second,
		MaxMegapixels:      vision.MaxMegapixels,
		DecodeMegapixels:   2 * vision.MaxMegapixels,
		BytesInFlight:      256 << 20,
		HeaderTimeout:      10 * time.Second,
		UploadTimeout:      2 * time.Minute,
		MinUploadRate:      1 << 10,
		UploadGrace:        10 * time.Second,
		WriteTimeout:       time.Minute,
		IdleTimeout:        time.Minute,
		MaxConns:           1024,
		IdempotencyTTL:     10 * time.Minute,
		IdempotencyEntries: 1000,
		IdempotencyBytes:   32 << 20,
		ShutdownTimeout:    20 * time.Second,
		Instance:           hostname(),
	}
}

// envVar ties one environment variable to the field it sets.
type envVar struct {
	name string
	help string
	set  func(c *Config, v string) error
	show func(c *Config) string
}

var envVars = []envVar{
	{"ADDR", "listen address of the API and the web page",
		func(c *Config, v string) error { c.Addr = v; return nil },
		func(c *Config) string { return c.Addr }},
	{"METRICS_ADDR", `listen address of the Prometheus metrics ("off" to disable)`,
		func(c *Config, v string) error { c.MetricsAddr = v; return nil },
		func(c *Config) string { return c.MetricsAddr }},
	{"BODY_LIMIT", "largest request body, in bytes or with a unit (20MB)",
		func(c *Config, v string) (err error) { c.BodyLimit, err = parseBytes(v); return },
		func(c *Config) string { return strconv.FormatInt(c.BodyLimit, 10) }},
	{"WORKERS", "scorings and recognitions run at once",
		func(c *Config, v string) (err error) { c.Workers, err = strconv.Atoi(v); return },
		func(c *Config) string { return strconv.Itoa(c.Workers) }},
	{"QUEUE", "requests that may wait for a worker before 429",
		func(c *Config, v string) (err error) { c.Queue, err = strconv.Atoi(v); return },
		func(c *Config) string { return strconv.Itoa(c.Queue) }},
	{"REQUEST_TIMEOUT", "deadline of one request (Go duration, e.g. 30s)",
		func(c *Config, v string) (err error) { c.RequestTimeout, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.RequestTimeout.String() }},
	{"MAX_MEGAPIXELS", "largest photo accepted, checked from its header",
		func(c *Config, v string) (err error) { c.MaxMegapixels, err = strconv.ParseFloat(v, 64); return },
		func(c *Config) string { return strconv.FormatFloat(c.MaxMegapixels, 'g', -1, 64) }},
	{"DECODE_MEGAPIXELS", "pixels decoded at once by all workers together, in megapixels",
		func(c *Config, v string) (err error) { c.DecodeMegapixels, err = strconv.ParseFloat(v, 64); return },
		func(c *Config) string { return strconv.FormatFloat(c.DecodeMegapixels, 'g', -1, 64) }},
	{"BYTES_IN_FLIGHT", "request bodies held at once across requests, in bytes or with a unit (256MB)",
		func(c *Config, v string) (err error) { c.BytesInFlight, err = parseBytes(v); return },
		func(c *Config) string { return strconv.FormatInt(c.BytesInFlight, 10) }},
	{"HEADER_TIMEOUT", "time for a request's headers to arrive",
		func(c *Config, v string) (err error) { c.HeaderTimeout, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.HeaderTimeout.String() }},
	{"UPLOAD_TIMEOUT", "time for a request's body to arrive, at most",
		func(c *Config, v string) (err error) { c.UploadTimeout, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.UploadTimeout.String() }},
	{"MIN_UPLOAD_RATE", "slowest a body may arrive, in bytes per second on average (0: no minimum)",
		func(c *Config, v string) (err error) { c.MinUploadRate, err = parseBytes(v); return },
		func(c *Config) string { return strconv.FormatInt(c.MinUploadRate, 10) }},
	{"UPLOAD_GRACE", "time a body may lag behind the minimum rate",
		func(c *Config, v string) (err error) { c.UploadGrace, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.UploadGrace.String() }},
	{"WRITE_TIMEOUT", "time for the answer to reach the client after the request deadline",
		func(c *Config, v string) (err error) { c.WriteTimeout, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.WriteTimeout.String() }},
	{"IDLE_TIMEOUT", "time a keep-alive connection may stay idle",
		func(c *Config, v string) (err error) { c.IdleTimeout, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.IdleTimeout.String() }},
	{"MAX_CONNS", "open connections at most; the longest idle is closed to make room",
		func(c *Config, v string) (err error) { c.MaxConns, err = strconv.Atoi(v); return },
		func(c *Config) string { return strconv.Itoa(c.MaxConns) }},
	{"IDEMPOTENCY_TTL", "how long an upload's answer is kept for its Idempotency-Key",
		func(c *Config, v string) (err error) { c.IdempotencyTTL, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.IdempotencyTTL.String() }},
	{"IDEMPOTENCY_ENTRIES", "how many upload answers are kept for replay",
		func(c *Config, v string) (err error) { c.IdempotencyEntries, err = strconv.Atoi(v); return },
		func(c *Config) string { return strconv.Itoa(c.IdempotencyEntries) }},
	{"IDEMPOTENCY_BYTES", "memory for upload answers kept for replay (32MB); larger answers than a sixteenth of it are not kept",
		func(c *Config, v string) (err error) { c.IdempotencyBytes, err = parseBytes(v); return },
		func(c *Config) string { return strconv.FormatInt(c.IdempotencyBytes, 10) }},
	{"SHUTDOWN_TIMEOUT", "time the requests in flight have to finish once told to stop (SIGTERM)",
		func(c *Config, v string) (err error) { c.ShutdownTimeout, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.ShutdownTimeout.String() }},
	{"INSTANCE", "this replica's name, the replica label of every metric (default: the host name)",
		func(c *Config, v string) error { c.Instance = v; return nil },
		func(c *Config) string { return c.Instance }},
}

// LoadConfig reads the MJSCAN_ variables through getenv (os.Getenv in
// main, a map in tests) over the defaults. Every malformed or invalid value
// is reported, not just the first, so one start-up shows them all.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	var errs []error
	for _, v := range envVars {
		s := strings.TrimSpace(getenv(EnvPrefix + v.name))
		if s == "" {
			continue
		}
		if err := v.set(&c, s); err != nil {
			errs = append(errs, fmt.Errorf("%s%s=%q: %v", EnvPrefix, v.name, s, unwrapNum(err)))
		}
	}
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}

// Validate reports every value outside what the service can work with.
func (c Config) Validate() error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s%s: %s", EnvPrefix, name, fmt.Sprintf(format, args...)))
	}
	if c.Addr == "" {
		bad("ADDR", "must not be empty")
	}
	if c.BodyLimit < 1<<10 || c.BodyLimit > 1<<30 {
		bad("BODY_LIMIT", "%d bytes is outside 1KB..1GB", c.BodyLimit)
	}
	if c.Workers < 1 || c.Workers > 1024 {
		bad("WORKERS", "%d is outside 1..1024", c.Workers)
	}
	if c.Queue < 0 || c.Queue > 1<<16 {
		bad("QUEUE", "%d is outside 0..65536", c.Queue)
	}
	if c.RequestTimeout < 10*time.Millisecond || c.RequestTimeout > time.Hour {
		bad("REQUEST_TIMEOUT", "%s is outside 10ms..1h", c.RequestTimeout)
	}
	if c.MaxMegapixels <= 0 || c.MaxMegapixels > 500 {
		bad("MAX_MEGAPIXELS", "%g is outside (0, 500]", c.MaxMegapixels)
	}
	switch {
	case c.DecodeMegapixels > 10000:
		bad("DECODE_MEGAPIXELS", "%g is above 10000", c.DecodeMegapixels)
	case c.DecodeMegapixels < c.MaxMegapixels:
		bad("DECODE_MEGAPIXELS", "%g is below %sMAX_MEGAPIXELS (%g): the largest photo accepted must fit", c.DecodeMegapixels, EnvPrefix, c.MaxMegapixels)
	}
	switch {
	case c.BytesInFlight > 1<<40:
		bad("BYTES_IN_FLIGHT", "%d bytes is above 1TB", c.BytesInFlight)
	case c.BytesInFlight < 2*c.BodyLimit:
		bad("BYTES_IN_FLIGHT", "%d bytes is below twice %sBODY_LIMIT (%d): the largest upload accepted, with the copy of its photos, must fit", c.BytesInFlight, EnvPrefix, c.BodyLimit)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"HEADER_TIMEOUT", c.HeaderTimeout}, {"UPLOAD_TIMEOUT", c.UploadTimeout}, {"WRITE_TIMEOUT", c.WriteTimeout}, {"IDLE_TIMEOUT", c.IdleTimeout}} {
		if d.v < 10*time.Millisecond || d.v > 24*time.Hour {
			bad(d.name, "%s is outside 10ms..24h", d.v)
		}
	}
	if c.UploadGrace < 0 || c.UploadGrace > c.UploadTimeout {
		bad("UPLOAD_GRACE", "%s is outside 0..%sUPLOAD_TIMEOUT (%s)", c.UploadGrace, EnvPrefix, c.UploadTimeout)
	}
	if c.MinUploadRate < 0 {
		bad("MIN_UPLOAD_RATE", "must not be negative")
	}
	if c.MaxConns < 4 || c.MaxConns > 1<<20 {
		bad("MAX_CONNS", "%d is outside 4..1048576", c.MaxConns)
	}
	if c.IdempotencyTTL < 0 {
		bad("IDEMPOTENCY_TTL", "must not be negative")
	}
	if c.IdempotencyEntries < 0 {
		bad("IDEMPOTENCY_ENTRIES", "must not be negative")
	}
	if c.IdempotencyBytes < 0 || c.IdempotencyBytes > 1<<34 {
		bad("IDEMPOTENCY_BYTES", "%d bytes is outside 0..16GB", c.IdempotencyBytes)
	}
	if c.ShutdownTimeout < 0 || c.ShutdownTimeout > time.Hour {
		bad("SHUTDOWN_TIMEOUT", "%s is outside 0..1h", c.ShutdownTimeout)
	}
	if !instanceName.MatchString(c.Instance) {
		bad("INSTANCE", "%.40q is not a name of 1 to 128 letters, digits and . _ : -", c.Instance)
	}
	return errors.Join(errs...)
}

// What the memory bound is made of, measured on the shipped models (see
// api/LOAD.md): the process with OpenCV and the models loaded once; each
// worker's two networks and working buffers on a phone photo; a decoded
// pixel (BGR, and the reduced copy beside it: a 49-megapixel PNG took
// 177 MB); the Go runtime beyond the bytes in flight.
const (
	memBase         = 128 << 20
	memPerWorker    = 48 << 20
	memPerPixel     = 4
	memGoOverhead   = 64 << 20
	memGoHeadroomPc = 50
)

// instanceName is what a replica's name may be: a host or pod name, with
// a port or an index.
var instanceName = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// hostname is the host's name, or "mjscan" when it has none that fits.
func hostname() string {
	if h, err := os.Hostname(); err == nil && instanceName.MatchString(h) {
		return h
	}
	return "mjscan"
}

// GoMemoryLimit is the soft limit `mjscan serve` gives the Go runtime
// (unless GOMEMLIMIT is set): the bytes in flight, half as much again for
// the collector to work in, and the runtime's own.
func (c Config) GoMemoryLimit() int64 {
	return c.BytesInFlight*(100+memGoHeadroomPc)/100 + memGoOverhead
}

// MemoryBound is the resident memory the service stays under whatever the
// load, from its settings: the base process, each worker, the pixels
// decoded at once (DecodeMegapixels) and the Go heap (GoMemoryLimit, which
// holds the bodies and photos in flight, BytesInFlight). Bodies wait for
// nothing in memory: a request takes its pool place before its body is
// read, and a body that does not fit in BytesInFlight is refused.
func (c Config) MemoryBound() int64 {
	return memBase + int64(c.Workers)*memPerWorker + c.decodePixels()*memPerPixel + c.GoMemoryLimit()
}

// decodePixels is DecodeMegapixels in pixels.
func (c Config) decodePixels() int64 { return int64(c.DecodeMegapixels * 1e6) }

// Describe lists every setting with its variable name and meaning, for the
// start-up log.
func (c Config) Describe() []string {
	out := make([]string, 0, len(envVars))
	for _, v := range envVars {
		out = append(out, fmt.Sprintf("%s%s=%s  (%s)", EnvPrefix, v.name, v.show(&c), v.help))
	}
	return out
}

// parseBytes reads "20971520", "20MB", "512KB" or "1GB" (powers of 1024).
func parseBytes(s string) (int64, error) {
	u := strings.ToUpper(s)
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, suf.s) {
			u, mult = strings.TrimSpace(strings.TrimSuffix(u, suf.s)), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(u, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not a size: write bytes or a number with KB, MB or GB")
	}
	if n < 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("size out of range")
	}
	return n * mult, nil
}

// unwrapNum drops strconv's "strconv.Atoi: parsing ..." prefix, which says
// nothing to an operator.
func unwrapNum(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return fmt.Errorf("not a number")
	}
	return err
}
