package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the service's Prometheus series. Each Server has its own
// registry, so tests can build many servers in one process.
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	steps     *prometheus.HistogramVec
	scores    *prometheus.CounterVec
	scoreTime *prometheus.HistogramVec
	rejected  prometheus.Counter
}

func newMetrics(pool *Pool) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
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
	m.reg.MustRegister(m.requests, m.latency, m.steps, m.scores, m.scoreTime, m.rejected,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mjscan_pool_running", Help: "Workers busy now."},
			func() float64 { return float64(pool.Running()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mjscan_pool_waiting", Help: "Requests waiting for a worker now."},
			func() float64 { return float64(pool.Waiting()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// step times one pipeline step.
func (m *metrics) step(name string, start time.Time) {
	m.steps.WithLabelValues(name).Observe(time.Since(start).Seconds())
}

// middleware counts every request under its route pattern (never the raw
// path, which would let clients create series at will).
func (m *metrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err) // write the problem now so its status is counted
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(route, c.Request().Method, strconv.Itoa(c.Response().Status)).Inc()
		m.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
		return nil
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
