package api

import (
	"errors"
	"fmt"
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
	// RequestTimeout bounds one request from arrival to answer.
	RequestTimeout time.Duration
	// MaxMegapixels refuses larger photos from their header, before decoding.
	MaxMegapixels float64
	// IdempotencyTTL is how long an upload's answer is kept for replay
	// under its Idempotency-Key; IdempotencyEntries bounds how many are kept
	// and IdempotencyBytes the memory they take. An answer over a sixteenth
	// of IdempotencyBytes is not kept (its retry runs again).
	IdempotencyTTL     time.Duration
	IdempotencyEntries int
	IdempotencyBytes   int64
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
		IdempotencyTTL:     10 * time.Minute,
		IdempotencyEntries: 1000,
		IdempotencyBytes:   32 << 20,
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
	{"IDEMPOTENCY_TTL", "how long an upload's answer is kept for its Idempotency-Key",
		func(c *Config, v string) (err error) { c.IdempotencyTTL, err = time.ParseDuration(v); return },
		func(c *Config) string { return c.IdempotencyTTL.String() }},
	{"IDEMPOTENCY_ENTRIES", "how many upload answers are kept for replay",
		func(c *Config, v string) (err error) { c.IdempotencyEntries, err = strconv.Atoi(v); return },
		func(c *Config) string { return strconv.Itoa(c.IdempotencyEntries) }},
	{"IDEMPOTENCY_BYTES", "memory for upload answers kept for replay (32MB); larger answers than a sixteenth of it are not kept",
		func(c *Config, v string) (err error) { c.IdempotencyBytes, err = parseBytes(v); return },
		func(c *Config) string { return strconv.FormatInt(c.IdempotencyBytes, 10) }},
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
	if c.IdempotencyTTL < 0 {
		bad("IDEMPOTENCY_TTL", "must not be negative")
	}
	if c.IdempotencyEntries < 0 {
		bad("IDEMPOTENCY_ENTRIES", "must not be negative")
	}
	if c.IdempotencyBytes < 0 || c.IdempotencyBytes > 1<<34 {
		bad("IDEMPOTENCY_BYTES", "%d bytes is outside 0..16GB", c.IdempotencyBytes)
	}
	return errors.Join(errs...)
}

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
