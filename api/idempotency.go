package api

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// idempotency keeps the answers to uploads sent with an Idempotency-Key, so
// a phone that retries after a dropped connection gets the same answer
// without a second recognition. Same key and same body: the stored answer,
// marked Idempotency-Replayed. Same key, other body: 422. Same key while the
// first is still running: 409. Failures worth retrying (5xx, 429) are not
// kept.
type idempotency struct {
	mu      sync.Mutex
	ttl     time.Duration
	max     int
	entries map[string]*list.Element
	order   *list.List // oldest first
	now     func() time.Time
}

type idemEntry struct {
	key     string
	hash    [32]byte
	created time.Time
	done    bool
	status  int
	ctype   string
	body    []byte
}

func newIdempotency(ttl time.Duration, max int) *idempotency {
	return &idempotency{ttl: ttl, max: max, entries: map[string]*list.Element{}, order: list.New(), now: time.Now}
}

// maxKeyLen bounds a client's key; the IETF draft suggests UUIDs.
const maxKeyLen = 255

func (s *idempotency) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Header.Get("Idempotency-Key")
		if key == "" || s.max == 0 {
			return next(c)
		}
		if len(key) > maxKeyLen {
			return problem(http.StatusBadRequest, "bad_request", "the Idempotency-Key header is too long: use a UUID")
		}
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err // the body limit's 413 comes through here
		}
		c.Request().Body = io.NopCloser(bytes.NewReader(body))
		key = c.Path() + " " + key
		hash := sha256.Sum256(body)

		e, p := s.begin(key, hash)
		if p != nil {
			return p
		}
		if e != nil {
			h := c.Response().Header()
			h.Set("Idempotency-Replayed", "true")
			return c.Blob(e.status, e.ctype, e.body)
		}
		rec := &recorder{ResponseWriter: c.Response().Writer}
		c.Response().Writer = rec
		if err := next(c); err != nil {
			c.Error(err)
		}
		status := c.Response().Status
		s.finish(key, status, c.Response().Header().Get(echo.HeaderContentType), rec.buf.Bytes())
		return nil
	}
}

// begin returns a finished entry to replay, a problem, or (nil, nil) after
// reserving the key for this request.
func (s *idempotency) begin(key string, hash [32]byte) (*idemEntry, *Problem) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	if el, ok := s.entries[key]; ok {
		e := el.Value.(*idemEntry)
		switch {
		case e.hash != hash:
			return nil, problem(http.StatusUnprocessableEntity, codeIdemConflict, "this Idempotency-Key was already used for a different upload: use a new key for a new photo")
		case !e.done:
			p := problem(http.StatusConflict, codeIdemInFlight, "the first upload with this Idempotency-Key is still being read; try again in a moment")
			p.RetryAfter = 1
			return nil, p
		}
		cp := *e
		return &cp, nil
	}
	for s.order.Len() >= s.max {
		s.remove(s.order.Front())
	}
	s.entries[key] = s.order.PushBack(&idemEntry{key: key, hash: hash, created: s.now()})
	return nil, nil
}

func (s *idempotency) finish(key string, status int, ctype string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.entries[key]
	if !ok {
		return
	}
	if status >= 500 || status == http.StatusTooManyRequests || status == 0 {
		s.remove(el)
		return
	}
	e := el.Value.(*idemEntry)
	e.done, e.status, e.ctype, e.body = true, status, ctype, append([]byte(nil), body...)
}

func (s *idempotency) expire() {
	cut := s.now().Add(-s.ttl)
	for el := s.order.Front(); el != nil; {
		next := el.Next()
		if e := el.Value.(*idemEntry); e.done && e.created.Before(cut) {
			s.remove(el)
		}
		el = next
	}
}

func (s *idempotency) remove(el *list.Element) {
	delete(s.entries, el.Value.(*idemEntry).key)
	s.order.Remove(el)
}

// recorder copies what is written to the client.
type recorder struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.buf.Write(b)
	return r.ResponseWriter.Write(b)
}
