package api

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// health runs a tiny real scoring, a tiny real recognition and, with the
// tournament routes on, a tiny real write to the referee record (rolled
// back), and keeps the answer for a few seconds so that probes cost next
// to nothing.
type health struct {
	s      *Server
	mu     sync.Mutex
	at     time.Time
	last   Health
	photo  []byte
	maxAge time.Duration
	// database checks the referee record; nil while the tournament
	// routes are off.
	database func(ctx context.Context) error
}

// Health is the /healthz and /readyz answer.
type Health struct {
	Status      string    `json:"status"` // "ok" or "unavailable"
	Scoring     Component `json:"scoring"`
	Recognition Component `json:"recognition"`
	// Database is the referee record, present when the tournament routes
	// are on.
	Database *Component `json:"database,omitempty"`
	Versions Versions   `json:"versions"`
}

// Component is one part's state.
type Component struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func newHealth(s *Server) *health {
	// A small grey card: the recogniser must read it without error (and
	// find no tiles); it exercises decode, detection and grouping.
	img := image.NewGray(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = 128
	}
	img.Set(10, 10, color.Gray{Y: 250})
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	return &health{s: s, photo: buf.Bytes(), maxAge: 5 * time.Second}
}

// probeHand is a known riichi hand: riichi, tsumo, pinfu, tanyao is 4 han
// 20 fu; self-drawn by a non-dealer it is 2600 from the dealer and 1300 from
// each other player: 5200.
var probeHand = scoring.Request{ID: "healthz", Rules: "riichi", Hand: "234m345p456s678s55p", WinTile: "8s",
	Tsumo: true, Riichi: true, SeatWind: "S", RoundWind: "E"}

func (h *health) check(ctx context.Context) Health {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.at.IsZero() && time.Since(h.at) < h.maxAge {
		return h.last
	}
	out := Health{Versions: h.s.versions()}
	req := probeHand
	res := rulebook.Score(&req)
	if res.OK && res.Points.Total > 0 {
		out.Scoring = Component{OK: true, Detail: "scored a known hand"}
	} else {
		out.Scoring = Component{Detail: "could not score a known hand"}
	}
	if h.s.deps.Recognizer == nil {
		out.Recognition = Component{Detail: "no recogniser loaded"}
		if h.s.deps.RecognizerError != "" {
			out.Recognition.Detail += ": " + h.s.deps.RecognizerError
		}
	} else {
		start := time.Now()
		rec, err := h.s.deps.Recognizer.Recognize(ctx, h.photo)
		switch {
		case err != nil:
			out.Recognition = Component{Detail: "recognition failed: " + err.Error()}
		case rec == nil:
			out.Recognition = Component{Detail: "recognition returned nothing"}
		default:
			out.Recognition = Component{OK: true, Detail: "read a test image in " + time.Since(start).Round(time.Millisecond).String()}
		}
	}
	if h.database != nil {
		out.Database = &Component{OK: true, Detail: "the referee record answered and can be written"}
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := h.database(dctx)
		cancel()
		if err != nil {
			// The cause (which may name hosts or files) goes to the log.
			h.s.log.Printf("healthz: referee record: %v", err)
			out.Database = &Component{Detail: "the referee record does not answer: decisions cannot be recorded"}
			if errors.Is(err, referee.ErrReadOnly) {
				out.Database.Detail = "the referee record is read-only: decisions cannot be recorded"
			}
		}
	}
	out.Status = "unavailable"
	if out.Scoring.OK && out.Recognition.OK && (out.Database == nil || out.Database.OK) {
		out.Status = "ok"
	}
	h.at, h.last = time.Now(), out
	return out
}

// getHealth answers 200 only when the service can recognise and score
// (CONTRACT section 6) and, with the tournament routes on, record; the
// body says which part is missing.
func (s *Server) getHealth(c echo.Context) error {
	hs := s.health.check(c.Request().Context())
	code := http.StatusOK
	if hs.Status != "ok" {
		code = http.StatusServiceUnavailable
	}
	return c.JSON(code, hs)
}

// getReady answers 200 when the service can take requests: it scores
// and, with the tournament routes on, the referee record answers and can
// be written. A service without a recogniser is ready (it scores; its
// photo routes say why they cannot read photos), so a load balancer
// keeps sending it work that it can do.
func (s *Server) getReady(c echo.Context) error {
	hs := s.health.check(c.Request().Context())
	hs.Status = "ok"
	code := http.StatusOK
	if !hs.Scoring.OK || (hs.Database != nil && !hs.Database.OK) {
		hs.Status, code = "unavailable", http.StatusServiceUnavailable
	}
	return c.JSON(code, hs)
}
