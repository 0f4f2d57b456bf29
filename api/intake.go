package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"mjscan/scoring"
)

// pooledRoutes take their place in the worker pool when they arrive, before
// their body is read: a full pool answers 429 without reading a byte, so a
// crowd of large uploads never sits in memory waiting for a worker.
var pooledRoutes = map[string]bool{
	"/v1/scores":         true,
	"/v1/verify":         true,
	"/v1/recognitions":   true,
	"/v1/snap-and-score": true,
}

// intake admits a request and reads its body, so that the request's
// deadline (the next middleware) counts its processing only:
//   - a declared oversize body is refused at once (413);
//   - a pooled route takes its pool place first (429 when there is none);
//   - the body is read into memory held against BytesInFlight (429 when
//     it does not fit), at MinUploadRate at least (408 when slower) and
//     within UploadTimeout, each read with its own deadline;
//   - the answer gets RequestTimeout + WriteTimeout to be written.
//
// Handlers then read the body with requestBody, without copying it.
func (s *Server) intake(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.ContentLength > s.cfg.BodyLimit {
			return echo.ErrStatusRequestEntityTooLarge
		}
		h := &held{budget: s.bytes}
		defer h.release()
		ctx := context.WithValue(r.Context(), heldKey{}, h)
		if r.Method == http.MethodPost && pooledRoutes[c.Path()] {
			t, err := s.pool.Admit()
			if err != nil {
				return s.busy()
			}
			defer t.Leave()
			ctx = withTicket(ctx, t)
		}
		c.SetRequest(r.WithContext(ctx))
		// The controller reaches the connection under echo's writer; taken
		// now, before route middleware wraps the writer.
		rc := http.NewResponseController(c.Response().Writer)
		if err := s.readBody(c, rc, h); err != nil {
			// The rest of the body is not read: the connection cannot carry
			// another request.
			c.Response().Header().Set(echo.HeaderConnection, "close")
			return err
		}
		// ErrNotSupported only outside a real server (handler tests).
		_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.RequestTimeout + s.cfg.WriteTimeout))
		return next(c)
	}
}

// busy is the 429 of a full pool or a full byte budget.
func (s *Server) busy() *Problem {
	s.metrics.rejected.Inc()
	p := problem(http.StatusTooManyRequests, codeBusy, "the service is busy with other hands; please try again in a moment")
	p.RetryAfter = 1
	return p
}

// bufferedBody is a request body read whole by intake.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (*bufferedBody) Close() error { return nil }

// requestBody is the request's body, read by intake (no copy is made).
func requestBody(c echo.Context) ([]byte, error) {
	if b, ok := c.Request().Body.(*bufferedBody); ok {
		return b.data, nil
	}
	if c.Request().Body == nil {
		return nil, nil
	}
	return io.ReadAll(c.Request().Body)
}

// readBody reads the body (if any) into memory held in h. The read deadline
// of the next byte is where the body would fall behind MinUploadRate after
// UploadGrace, or UploadTimeout, whichever comes first; it is cleared
// afterwards, since a deadline that passes while the answer is worked on
// would cancel the request.
func (s *Server) readBody(c echo.Context, rc *http.ResponseController, h *held) error {
	r := c.Request()
	if r.Body == nil || r.Body == http.NoBody {
		_ = rc.SetReadDeadline(time.Time{})
		return nil
	}
	start := time.Now()
	due := func(n int) time.Time { return s.cfg.uploadDue(start, n) }
	deadlines := rc.SetReadDeadline(due(0)) == nil
	defer func() {
		if deadlines {
			_ = rc.SetReadDeadline(time.Time{})
		}
	}()

	limit := int(s.cfg.BodyLimit)
	known := r.ContentLength > 0
	var buf []byte
	if known {
		if !h.hold(r.ContentLength) {
			return s.busy()
		}
		buf = make([]byte, 0, r.ContentLength)
	}
	for !known || len(buf) < cap(buf) {
		if len(buf) == cap(buf) {
			// No length given: grow by doubling, each step held first.
			if len(buf) > limit {
				return echo.ErrStatusRequestEntityTooLarge
			}
			n := min(max(2*cap(buf), 64<<10), limit+1)
			if !h.hold(int64(n - cap(buf))) {
				return s.busy()
			}
			buf = append(make([]byte, 0, n), buf...)
		}
		if deadlines {
			_ = rc.SetReadDeadline(due(len(buf)))
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err == nil && !deadlines && time.Now().After(due(len(buf))) {
			err = os.ErrDeadlineExceeded
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return problem(http.StatusRequestTimeout, codeTimeout, "the upload arrived too slowly and was stopped; check the connection and send it again")
			}
			return problem(http.StatusBadRequest, scoring.CodeBadRequest, "the upload was cut off before it ended; please send it again")
		}
	}
	if len(buf) > limit {
		return echo.ErrStatusRequestEntityTooLarge
	}
	r.Body = &bufferedBody{Reader: bytes.NewReader(buf), data: buf}
	return nil
}

// uploadDue is when byte n of a body that started arriving at start must
// have arrived: where it falls behind MinUploadRate after UploadGrace, or
// at UploadTimeout, whichever comes first.
func (c Config) uploadDue(start time.Time, n int) time.Time {
	last := start.Add(c.UploadTimeout)
	if c.MinUploadRate <= 0 {
		return last
	}
	d := start.Add(c.UploadGrace + time.Duration(float64(n+1)/float64(c.MinUploadRate)*float64(time.Second)))
	if d.After(last) {
		return last
	}
	return d
}

// byteBudget is BytesInFlight: bytes are taken at once or not at all.
type byteBudget struct {
	max  int64
	used atomic.Int64
}

func (b *byteBudget) take(n int64) bool {
	for {
		u := b.used.Load()
		if u+n > b.max {
			return false
		}
		if b.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

func (b *byteBudget) give(n int64) { b.used.Add(-n) }

// bytesHeld is how many bytes requests hold now.
func (s *Server) bytesHeld() int64 { return s.bytes.used.Load() }

// held is what one request holds of the BytesInFlight budget; intake gives
// it all back when the request ends.
type held struct {
	budget *byteBudget
	n      int64
}

type heldKey struct{}

func (h *held) hold(n int64) bool {
	if n <= 0 {
		return true
	}
	if !h.budget.take(n) {
		return false
	}
	h.n += n
	return true
}

func (h *held) release() {
	h.budget.give(h.n)
	h.n = 0
}

// holdBytes holds n more bytes for the request (copies of its photos, a
// drawn overlay) until it ends, or answers 429 when they do not fit.
func (s *Server) holdBytes(ctx context.Context, n int64) error {
	h, ok := ctx.Value(heldKey{}).(*held)
	if !ok {
		return nil // not through intake (a handler called on its own)
	}
	if !h.hold(n) {
		return s.busy()
	}
	return nil
}
