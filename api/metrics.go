package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"mjscan/referee"
)

// metrics are the service's Prometheus series. Each Server has its own
// registry, so tests can build many servers in one process.
type metrics struct {
	reg       *prometheus.Registry
	replica   prometheus.Registerer // reg, each series labelled with the replica
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	steps     *prometheus.HistogramVec
	scores    *prometheus.CounterVec
	scoreTime *prometheus.HistogramVec
	rejected  prometheus.Counter
	routes    *servedRoutes
	// records are the referee records whose database errors are counted
	// (one in practice: the tournament routes and tile sets share it).
	recordsMu sync.Mutex
	records   []*referee.Store
}

// replicaLabel names the replica on every series (Config.Instance). It is
// not "instance": Prometheus sets that to the address it scrapes, and
// renames an "instance" the page itself carries to "exported_instance".
const replicaLabel = "replica"

func newMetrics(pool *Pool, routes *servedRoutes, instance string) *metrics {
	m := &metrics{
		reg:    prometheus.NewRegistry(),
		routes: routes,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mjscan_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mjscan_http_request_duration_seconds", Help: "Time from request to answer, by route.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12),
		}, []string{"route"}),
		steps: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mjscan_step_duration_seconds", Help: "Time spent in each pipeline step (photo header check, recognition, grouping, scoring).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 3, 12),
		}, []string{"step"}),
		scores: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mjscan_scores_total", Help: "Hands scored, by rule set and outcome (ok or the error code).",
		}, []string{"rules", "outcome"}),
		scoreTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mjscan_score_duration_seconds", Help: "Time to score one hand, by rule set.",
			Buckets: prometheus.ExponentialBuckets(0.00002, 3, 12),
		}, []string{"rules"}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "mjscan_pool_rejected_total", Help: "Requests refused with 429 because the work queue was full.",
		}),
	}
	// Every series, the Go and process ones too, carries the replica.
	m.replica = prometheus.WrapRegistererWith(prometheus.Labels{replicaLabel: instance}, m.reg)
	m.replica.MustRegister(m.requests, m.latency, m.steps, m.scores, m.scoreTime, m.rejected,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mjscan_database_errors_total",
			Help: "Operations on the referee record that the database failed (no answer, a refused write or statement, a lost connection)."},
			m.databaseErrors),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mjscan_pool_running", Help: "Workers busy now."},
			func() float64 { return float64(pool.Running()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mjscan_pool_waiting", Help: "Requests waiting for a worker now."},
			func() float64 { return float64(pool.Waiting()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// register adds a series of a part mounted later (the tournament routes).
func (m *metrics) register(c prometheus.Collector) error {
	return m.replica.Register(c)
}

// watchRecord counts the database errors of a referee record.
func (m *metrics) watchRecord(store *referee.Store) {
	m.recordsMu.Lock()
	defer m.recordsMu.Unlock()
	for _, r := range m.records {
		if r == store {
			return
		}
	}
	m.records = append(m.records, store)
}

func (m *metrics) databaseErrors() float64 {
	m.recordsMu.Lock()
	defer m.recordsMu.Unlock()
	n := uint64(0)
	for _, r := range m.records {
		n += r.DatabaseErrors()
	}
	return float64(n)
}

// Step and Scored make the metrics the use cases' Observer.
func (m *metrics) Step(name string, d time.Duration) {
	m.steps.WithLabelValues(name).Observe(d.Seconds())
}

func (m *metrics) Scored(rules, outcome string, d time.Duration) {
	m.scoreTime.WithLabelValues(rules).Observe(d.Seconds())
	m.scores.WithLabelValues(rules, outcome).Inc()
}

// middleware counts every request under labels from a fixed set: the
// route pattern it matched (or "unmatched") and a known method (or
// "other"). Nothing a client writes becomes a label, so clients cannot
// create series at will.
func (m *metrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err) // write the problem now so its status is counted
		}
		route := "unmatched"
		if m.routes.has(c.Path()) {
			route = c.Path()
		}
		m.requests.WithLabelValues(route, methodLabel(c.Request().Method), strconv.Itoa(c.Response().Status)).Inc()
		m.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
		return nil
	}
}

// knownMethods are the methods of RFC 9110 and PATCH; any other counts as
// "other".
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodConnect: true,
	http.MethodOptions: true, http.MethodTrace: true,
}

func methodLabel(method string) string {
	if knownMethods[method] {
		return method
	}
	return "other"
}

// servedRoutes is every route pattern the router serves with its methods,
// filled as routes are added (the tournament routes come after New). The
// metrics and the content-type check consult it, never the raw path.
type servedRoutes struct {
	mu    sync.RWMutex
	paths map[string]map[string]bool // pattern → methods
}

func newServedRoutes() *servedRoutes {
	return &servedRoutes{paths: map[string]map[string]bool{}}
}

func (r *servedRoutes) add(method, path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.paths[path] == nil {
		r.paths[path] = map[string]bool{}
	}
	r.paths[path][method] = true
}

// has reports whether path is a registered route pattern.
func (r *servedRoutes) has(path string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.paths[path] != nil
}

// serves reports whether the pattern is registered for this method.
func (r *servedRoutes) serves(method, path string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.paths[path][method]
}

// Handler serves the metrics in the Prometheus text format at /metrics,
// and nothing else: every other path is 404.
func (m *metrics) Handler() http.Handler {
	prom := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", apiCSP)
		switch {
		case r.URL.Path != "/metrics":
			http.NotFound(w, r)
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed: GET /metrics", http.StatusMethodNotAllowed)
		default:
			prom.ServeHTTP(w, r)
		}
	})
}
