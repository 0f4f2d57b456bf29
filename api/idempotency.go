package api

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// idempotency keeps the answers to uploads sent with an Idempotency-Key, so
// a phone that retries after a dropped connection gets the same answer
// without a second recognition. Same key and same upload (the same photos
// and fields, whatever the multipart boundary): the stored answer, marked
// Idempotency-Replayed. Same key, other upload: 422. Same key while the
// first is still running: 409. Answers that a retry could change (429, a
// cancelled request's 499, any 5xx) are not kept.
//
// The cache is bounded twice: by entries and by bytes. An answer larger
// than entryCap is sent but not kept (its retry runs again), so a few huge
// overlay answers cannot fill the memory.
type idempotency struct {
	mu       sync.Mutex
	ttl      time.Duration
	max      int
	maxBytes int64
	bytes    int64 // what the entries hold, overhead included
	entries  map[string]*list.Element
	order    *list.List // oldest first
	now      func() time.Time
	// shared, once set (share), keeps the answers in the referee record
	// instead, so that every replica on it replays them (shared.go).
	shared *sharedIdem
}

type idemEntry struct {
	key     string
	hash    [32]byte
	created time.Time
	done    bool
	status  int
	ctype   string
	body    []byte
	size    int64
}

// idemOverhead is what one entry costs besides its key and answer: the
// map slot, the list element and the entry itself, rounded up.
const idemOverhead = 256

// idemEntryShare: one answer may take at most this share of the byte bound.
const idemEntryShare = 16

func newIdempotency(ttl time.Duration, max int, maxBytes int64) *idempotency {
	return &idempotency{ttl: ttl, max: max, maxBytes: maxBytes, entries: map[string]*list.Element{}, order: list.New(), now: time.Now}
}

// entryCap is the largest answer kept for replay.
func (s *idempotency) entryCap() int {
	return int(s.maxBytes / idemEntryShare)
}

// maxKeyLen bounds a client's key; the IETF draft suggests UUIDs.
const maxKeyLen = 255

// ctxIdemKey is where the middleware leaves the digest of a request's
// scoped Idempotency-Key, for a handler whose write must carry it: a
// write committed by a replica that died before its answer was kept is
// then found by the retry instead of being made twice.
const ctxIdemKey = "mjscan.idempotency_key"

// idemKeyOf is the digest of the request's scoped Idempotency-Key, or "".
func idemKeyOf(c echo.Context) string {
	k, _ := c.Get(ctxIdemKey).(string)
	return k
}

func (s *idempotency) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Header.Get("Idempotency-Key")
		if key == "" || s.max == 0 || s.maxBytes == 0 {
			return next(c)
		}
		if len(key) > maxKeyLen {
			return problem(http.StatusBadRequest, "bad_request", "the Idempotency-Key header is too long: use a UUID")
		}
		body, err := requestBody(c) // read by intake: no copy
		if err != nil {
			return err
		}
		// The overlay changes the answer, so it is part of what is stored
		// under the key.
		// So is the route's own path (the resource it names) and who
		// asks: a key never replays an answer to another token.
		key = c.Request().Method + " " + c.Request().URL.Path + "?overlay=" + c.QueryParam("overlay") +
			" " + tokenHash(c.Request().Header.Get(echo.HeaderAuthorization)) + " " + key
		hash := uploadDigest(c.Request().Header.Get(echo.HeaderContentType), body)
		sum := sha256.Sum256([]byte(key))
		c.Set(ctxIdemKey, hex.EncodeToString(sum[:]))
		if s.shared != nil {
			return s.shared.serve(c, next, s, key, hash)
		}

		e, p := s.begin(key, hash)
		if p != nil {
			return p
		}
		if e != nil {
			h := c.Response().Header()
			h.Set("Idempotency-Replayed", "true")
			return c.Blob(e.status, e.ctype, e.body)
		}
		rec := &recorder{ResponseWriter: c.Response().Writer, limit: s.entryCap()}
		c.Response().Writer = rec
		if err := next(c); err != nil {
			c.Error(err)
		}
		status := c.Response().Status
		s.finish(key, status, c.Response().Header().Get(echo.HeaderContentType), rec.buf.Bytes(), rec.overflow)
		return nil
	}
}

// uploadDigest identifies an upload by what the service reads from it: the
// name and bytes of every form part, in name order, but not the boundary,
// the file names or the part headers, which clients choose anew on each
// retry. A body that is not a well-formed form is hashed whole (the
// handler refuses it anyway).
func uploadDigest(contentType string, body []byte) [32]byte {
	raw := func() [32]byte { return sha256.Sum256(append([]byte("raw\x00"), body...)) }
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return raw()
	}
	type part struct {
		name string
		sum  [32]byte
	}
	var parts []part
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return raw()
		}
		h := sha256.New()
		if _, err := io.Copy(h, p); err != nil {
			return raw()
		}
		pt := part{name: p.FormName()}
		h.Sum(pt.sum[:0])
		parts = append(parts, pt)
	}
	// Stable: a field sent twice keeps its order, as the handler reads it.
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].name < parts[j].name })
	h := sha256.New()
	h.Write([]byte("form\x00"))
	for _, p := range parts {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p.name)))
		h.Write(n[:])
		h.Write([]byte(p.name))
		h.Write(p.sum[:])
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
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
			return nil, idemReused()
		case !e.done:
			return nil, idemInFlight()
		}
		cp := *e
		return &cp, nil
	}
	e := &idemEntry{key: key, hash: hash, created: s.now(), size: idemOverhead + int64(len(key))}
	for s.order.Len() > 0 && (s.order.Len() >= s.max || s.bytes+e.size > s.maxBytes) {
		s.remove(s.order.Front())
	}
	s.entries[key] = s.order.PushBack(e)
	s.bytes += e.size
	return nil, nil
}

// idemReused answers a key sent again with another upload or body (the
// words fit every route: a hand recorded as well as a photo).
func idemReused() *Problem {
	return problem(http.StatusUnprocessableEntity, codeIdemConflict, "this Idempotency-Key was already used with a different request: send a new key with each new request")
}

// idemInFlight answers a key whose first request is still running.
func idemInFlight() *Problem {
	p := problem(http.StatusConflict, codeIdemInFlight, "the first request with this Idempotency-Key is still running: try again in a moment")
	p.RetryAfter = 1
	return p
}

// keep says whether an answer with this status may be replayed: not when a
// retry could get another one (a full queue, a cancelled or failed
// request).
func keep(status int) bool {
	return status != 0 && status != http.StatusTooManyRequests && status != 499 && status < 500
}

// finish stores the answer to a reserved key, or lets the key go when the
// answer must not be replayed or is too large to keep (truncated: the
// recorder stopped copying it).
func (s *idempotency) finish(key string, status int, ctype string, body []byte, truncated bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.entries[key]
	if !ok {
		return
	}
	if !keep(status) || truncated || len(body) > s.entryCap() {
		s.remove(el)
		return
	}
	e := el.Value.(*idemEntry)
	grow := int64(len(body) + len(ctype))
	// The newest answer goes last, so making room never evicts it.
	s.order.MoveToBack(el)
	for s.bytes+grow > s.maxBytes && s.order.Front() != el {
		s.remove(s.order.Front())
	}
	if s.bytes+grow > s.maxBytes {
		s.remove(el)
		return
	}
	e.done, e.status, e.ctype, e.body = true, status, ctype, append([]byte(nil), body...)
	e.size += grow
	s.bytes += grow
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
	e := el.Value.(*idemEntry)
	delete(s.entries, e.key)
	s.order.Remove(el)
	s.bytes -= e.size
}

// recorder copies what is written to the client, up to limit bytes; past
// that it stops copying and drops what it had (overflow), since the answer
// will not be kept.
type recorder struct {
	http.ResponseWriter
	limit    int
	buf      bytes.Buffer
	overflow bool
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.overflow {
		if r.buf.Len()+len(b) > r.limit {
			r.overflow = true
			r.buf = bytes.Buffer{}
		} else {
			r.buf.Write(b)
		}
	}
	return r.ResponseWriter.Write(b)
}
