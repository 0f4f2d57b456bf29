// Package api is the HTTP service: scoring, verifying claimed scores,
// reading photos, the phone web page, health and metrics. Everything that
// knows about echo lives here; the engines and the recogniser do not.
package api

import (
	"context"
	"errors"
	"io"
	"log"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/semaphore"

	"mjscan/internal/app"
	"mjscan/scoring"
	"mjscan/vision"
)

// Recognizer reads the tiles in one photo. The vision package provides the
// real one; the service runs without it (scoring only) when it fails to load.
type Recognizer interface {
	Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error)
}

// Modeled is implemented by a Recognizer that can name its model version.
type Modeled interface {
	ModelVersion() string
}

// Deps are what the service is built from, apart from its Config.
type Deps struct {
	// Version is the engine (binary) version.
	Version string
	// Recognizer may be nil: recognitions then answer 503 and /healthz says
	// recognition is unavailable, with the reason in RecognizerError.
	Recognizer      Recognizer
	RecognizerError string
	Log             *log.Logger
}

// Server is the HTTP service.
type Server struct {
	cfg     Config
	deps    Deps
	log     *log.Logger
	echo    *echo.Echo
	pool    *Pool
	metrics *metrics
	served  *servedRoutes
	idem    *idempotency
	health  *health
	// bytes is the BytesInFlight budget, pixels the DecodeMegapixels one.
	bytes  *byteBudget
	pixels *semaphore.Weighted
	sets   *tileSets // nil until UseTileSets
	// app is the use cases the routes adapt to HTTP.
	app *app.App
}

// New builds the service; it does not listen.
func New(cfg Config, deps Deps) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if deps.Log == nil {
		deps.Log = log.New(io.Discard, "", 0)
	}
	if deps.Version == "" {
		deps.Version = "dev"
	}
	s := &Server{cfg: cfg, deps: deps, log: deps.Log, pool: NewPool(cfg.Workers, cfg.Queue),
		bytes: &byteBudget{max: cfg.BytesInFlight}, pixels: semaphore.NewWeighted(cfg.decodePixels())}
	s.served = newServedRoutes()
	s.metrics = newMetrics(s.pool, s.served, cfg.Instance)
	s.idem = newIdempotency(cfg.IdempotencyTTL, cfg.IdempotencyEntries, cfg.IdempotencyBytes)
	s.health = newHealth(s)
	s.app = app.New(app.Config{MaxMegapixels: cfg.MaxMegapixels, RequestTimeout: cfg.RequestTimeout}, app.Deps{
		Recognizer: deps.Recognizer, RecognizerError: deps.RecognizerError,
		Run: runner{s}, Observe: s.metrics,
		Score: func(r *scoring.Request) (scoring.Result, error) { return scoreHand(r) },
	})

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.errorHandler
	e.OnAddRouteHandler = func(_ string, r echo.Route, _ echo.HandlerFunc, _ []echo.MiddlewareFunc) {
		s.served.add(r.Method, r.Path)
	}
	e.Use(s.metrics.middleware, s.recoverPanics, securityHeaders, s.versionHeader, s.requireJSON, s.intake, s.deadline)
	s.routes(e)
	s.echo = e
	return s, nil
}

// Handler is the API and web page.
func (s *Server) Handler() http.Handler { return s.echo }

// MetricsHandler serves Prometheus metrics; serve it on its own address.
func (s *Server) MetricsHandler() http.Handler { return s.metrics.Handler() }

// route is one served route; the OpenAPI test checks the list against the
// document both ways.
type route struct {
	method, path string
	handler      echo.HandlerFunc
	mw           []echo.MiddlewareFunc
}

func (s *Server) routeList() []route {
	upload := []echo.MiddlewareFunc{s.idem.middleware}
	return []route{
		{http.MethodGet, "/healthz", s.getHealth, nil},
		{http.MethodGet, "/readyz", s.getReady, nil},
		{http.MethodGet, "/openapi.json", s.getOpenAPI, nil},
		{http.MethodGet, "/v1/rules", s.getRules, nil},
		{http.MethodGet, "/v1/notation", s.getNotation, nil},
		{http.MethodPost, "/v1/scores", s.postScore, nil},
		{http.MethodPost, "/v1/verify", s.postVerify, nil},
		{http.MethodPost, "/v1/recognitions", s.postRecognition, upload},
		{http.MethodPost, "/v1/snap-and-score", s.postSnapAndScore, upload},
		{http.MethodPost, "/v1/tile-sets", s.postTileSet, upload},
		{http.MethodGet, "/v1/tile-sets", s.listTileSets, nil},
		{http.MethodGet, "/v1/tile-sets/:id", s.getTileSet, nil},
		{http.MethodPost, "/v1/tile-sets/:id/photos", s.postTileSetPhotos, upload},
		{http.MethodPost, "/v1/recognitions/hand", s.postHand, nil},
		{http.MethodGet, "/", s.getIndex, nil},
		{http.MethodGet, "/web/*", s.getWeb, nil},
		{http.MethodGet, "/referee", s.deskPage("referee.html"), nil},
		{http.MethodGet, "/organiser", s.deskPage("organiser.html"), nil},
	}
}

func (s *Server) routes(e *echo.Echo) {
	for _, r := range s.routeList() {
		e.Add(r.method, r.path, r.handler, r.mw...)
	}
}

// Versions names what produced an answer; it rides in every JSON body and,
// as Mjscan-Version, in every response header.
type Versions struct {
	API    string `json:"api"`
	Engine string `json:"engine"`
	Model  string `json:"model,omitempty"`
	// Rules and RuleSet name the rule set used and its version, on answers
	// that scored a hand.
	Rules   string `json:"rules,omitempty"`
	RuleSet string `json:"rule_set,omitempty"`
	Preset  string `json:"preset,omitempty"`
	// TileSet and TileSetVersion name the player's tile set a photo was
	// read with, on answers that read one with it.
	TileSet        string `json:"tile_set,omitempty"`
	TileSetVersion int    `json:"tile_set_version,omitempty"`
}

func (s *Server) versions() Versions {
	v := Versions{API: "v1", Engine: s.deps.Version}
	if m, ok := s.deps.Recognizer.(Modeled); ok {
		v.Model = m.ModelVersion()
	}
	return v
}

func (s *Server) versionHeader(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		v := s.versions()
		h := "api=v1; engine=" + v.Engine
		if v.Model != "" {
			h += "; model=" + v.Model
		}
		c.Response().Header().Set("Mjscan-Version", h)
		return next(c)
	}
}

// apiCSP is the Content-Security-Policy of every answer but the page
// (pageCSP): JSON runs nothing, loads nothing and is framed by no one.
const apiCSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// securityHeaders go on every answer: no content-type sniffing, no
// referrer sent on, no framing (X-Frame-Options for browsers that predate
// frame-ancestors). The page replaces the CSP with its own.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", apiCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		return next(c)
	}
}

// formRoutes take multipart forms (the photo uploads); every other route
// that takes a body takes JSON.
var formRoutes = map[string]bool{"/v1/recognitions": true, "/v1/snap-and-score": true, "/v1/tile-sets": true, "/v1/tile-sets/:id/photos": true}

// requireJSON refuses a body that is not declared as JSON on a JSON route
// with 415, before anything reads it. This also keeps other sites' plain
// form posts (which a browser sends without asking) away from the routes.
// A request with no body, or to no route, passes on to its own answer.
func (s *Server) requireJSON(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
		default:
			return next(c)
		}
		if r.ContentLength == 0 || formRoutes[c.Path()] || !s.served.serves(r.Method, c.Path()) {
			return next(c)
		}
		if !isJSONType(r.Header.Get(echo.HeaderContentType)) {
			return problem(http.StatusUnsupportedMediaType, codeUnsupportedType, "send the body as JSON, with the header Content-Type: application/json")
		}
		return next(c)
	}
}

// isJSONType accepts application/json and application/*+json, with any
// parameters (charset).
func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

func (s *Server) deadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), s.cfg.RequestTimeout)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Printf("panic: %s %s: %v", c.Request().Method, c.Request().URL.Path, p)
				err = problem(http.StatusInternalServerError, codeInternal, "the service failed while handling this request; please report it with what you sent")
			}
		}()
		return next(c)
	}
}

// work runs fn on a worker of the pool, in the caller's goroutine, and
// turns the pool's refusals into problems: a full queue is 429, a passed
// deadline 503. A request admitted by intake works in its own place; any
// other takes a place for the time of fn. fn runs CPU work only: network
// I/O (a camera snapshot) is done before, holding a place but no worker.
func (s *Server) work(ctx context.Context, fn func() error) error {
	return s.decodeWork(ctx, 0, fn)
}

// decodeWork is work for fn that decodes an image of pixels (from its
// header): it first waits, in the queue, until the pixels fit in the
// DecodeMegapixels budget, so the decoded images of all workers together
// stay within it whatever their number.
func (s *Server) decodeWork(ctx context.Context, pixels int64, fn func() error) error {
	t := ticketOf(ctx)
	if t == nil {
		var err error
		if t, err = s.pool.Admit(); err != nil {
			return s.busy()
		}
		defer t.Leave()
	}
	if pixels > 0 && !t.working {
		// Never more than the whole budget, or it would wait for ever; the
		// header check refuses such photos before they come here.
		pixels = min(pixels, s.cfg.decodePixels())
		if err := s.pixels.Acquire(ctx, pixels); err != nil {
			return s.refusal(err)
		}
		defer s.pixels.Release(pixels)
	}
	return s.refusal(t.Run(ctx, fn))
}

// runner runs the use cases' CPU work on the pool (decodeWork).
type runner struct{ s *Server }

func (r runner) Run(ctx context.Context, pixels int64, work func() error) error {
	return r.s.decodeWork(ctx, pixels, work)
}

// admitted gives ctx a place in the pool for the rest of a request that
// is not pooled on arrival (a camera's: its snapshot waits on the network
// holding a place but no worker), or answers 429. The returned func gives
// the place back.
func (s *Server) admitted(ctx context.Context) (context.Context, func(), error) {
	if ticketOf(ctx) != nil {
		return ctx, func() {}, nil
	}
	t, err := s.pool.Admit()
	if err != nil {
		return ctx, func() {}, s.busy()
	}
	return withTicket(ctx, t), t.Leave, nil
}

// refusal turns the context's end into a problem; other errors pass.
func (s *Server) refusal(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return problem(http.StatusServiceUnavailable, codeTimeout, "this took longer than the service allows ("+s.cfg.RequestTimeout.String()+"); please try again")
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this answer.
		return problem(499, codeTimeout, "the request was cancelled")
	}
	return err
}
