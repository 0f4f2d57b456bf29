package api

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// health runs a tiny real scoring and a tiny real recognition, and keeps
// the answer for a few seconds so that probes cost next to nothing.
type health struct {
	s      *Server
	mu     sync.Mutex
	at     time.Time
	last   Health
	photo  []byte
	maxAge time.Duration
}

// Health is the /healthz answer.
type Health struct {
	Status      string    `json:"status"` // "ok" or "unavailable"
	Scoring     Component `json:"scoring"`
	Recognition Component `json:"recognition"`
	Versions    Versions  `json:"versions"`
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
	out.Status = "unavailable"
	if out.Scoring.OK && out.Recognition.OK {
		out.Status = "ok"
	}
	h.at, h.last = time.Now(), out
	return out
}

// getHealth answers 200 only when the service can both recognise and
// score (CONTRACT section 6); the body says which part is missing.
func (s *Server) getHealth(c echo.Context) error {
	hs := s.health.check(c.Request().Context())
	code := http.StatusOK
	if hs.Status != "ok" {
		code = http.StatusServiceUnavailable
	}
	return c.JSON(code, hs)
}
