package api

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/referee"
)

// sharedIdem keeps Idempotency-Key answers in the referee record, so a
// retry that lands on another replica gets the first answer without a
// second recognition:
//   - the first request claims the key in the database (one INSERT … ON
//     CONFLICT DO NOTHING: of two replicas, one wins) before it runs;
//   - a retry while the first is still running waits for its answer, up
//     to idemWait, polling the row; still running then, it is answered
//     409 with Retry-After (as with one process);
//   - a claim lasts as long as the request may (RequestTimeout +
//     WriteTimeout + a margin), so the claim of a replica killed while
//     working lapses and its retry then runs;
//   - answers are kept until IdempotencyTTL, then purged: lazily (an
//     expired key is taken anew) and by a purge of all expired rows at
//     most once per idemPurgeEvery, run by a request;
//   - the bounds stay those of one process: an answer over a sixteenth of
//     IdempotencyBytes is not kept, and to keep one the oldest answers
//     go first while more than IdempotencyEntries or IdempotencyBytes
//     are kept.
type sharedIdem struct {
	store     *referee.Store
	lease     time.Duration
	lastPurge atomic.Int64 // unix µs
}

// idemWait is how long a retry waits for the first request's answer;
// idemPoll how often it looks.
const (
	idemWait       = 5 * time.Second
	idemPoll       = 50 * time.Millisecond
	idemPurgeEvery = time.Minute
)

// share moves the answers into the referee record (done before serving).
func (s *idempotency) share(store *referee.Store, lease time.Duration) {
	if s.shared == nil && store != nil {
		s.shared = &sharedIdem{store: store, lease: lease}
	}
}

// claimLease is how long a claim made for a request lasts: as long as the
// request may run and be written, and a margin.
func (s *Server) claimLease() time.Duration {
	return s.cfg.RequestTimeout + s.cfg.WriteTimeout + 5*time.Second
}

func (sh *sharedIdem) serve(c echo.Context, next echo.HandlerFunc, s *idempotency, key string, hash [32]byte) error {
	ctx := c.Request().Context()
	upload := hex.EncodeToString(hash[:])
	sh.purge(ctx, s.now())
	lease := sh.lease
	give := s.now().Add(idemWait)
	for {
		claimed, a, err := sh.store.ClaimKey(ctx, key, upload, s.now(), lease)
		if err != nil {
			return idemUnavailable(err)
		}
		if claimed {
			break
		}
		switch {
		case a.Upload != upload:
			return idemReused()
		case a.Done:
			c.Response().Header().Set("Idempotency-Replayed", "true")
			return c.Blob(a.Status, a.ContentType, a.Body)
		}
		if !s.now().Before(give) {
			return idemInFlight()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(idemPoll):
		}
	}
	rec := &recorder{ResponseWriter: c.Response().Writer, limit: s.entryCap()}
	c.Response().Writer = rec
	if err := next(c); err != nil {
		c.Error(err)
	}
	status := c.Response().Status
	// The answer is sent; keeping it must not depend on the client still
	// being there.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	body := rec.buf.Bytes()
	if !keep(status) || rec.overflow || len(body) > s.entryCap() {
		if err := sh.store.ReleaseKey(wctx, key, upload); err != nil {
			c.Logger().Errorf("Idempotency-Key not let go: %v", err)
		}
		return nil
	}
	b := referee.KeyBounds{TTL: s.ttl, Entries: s.max, Bytes: s.maxBytes}
	if _, err := sh.store.KeepAnswer(wctx, key, upload, status, c.Response().Header().Get(echo.HeaderContentType), body, s.now(), b); err != nil {
		c.Logger().Errorf("%v", err)
		_ = sh.store.ReleaseKey(wctx, key, upload)
	}
	return nil
}

// purge drops expired answers, at most once per idemPurgeEvery in this
// process (other replicas purge too; each key also expires on its own).
func (sh *sharedIdem) purge(ctx context.Context, now time.Time) {
	last := sh.lastPurge.Load()
	if now.UnixMicro()-last < idemPurgeEvery.Microseconds() || !sh.lastPurge.CompareAndSwap(last, now.UnixMicro()) {
		return
	}
	_, _ = sh.store.PurgeKeys(ctx, now)
}

// idemUnavailable answers a request whose key the record could not claim:
// running it anyway could run it twice.
func idemUnavailable(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, sql.ErrConnDone) {
		return err
	}
	return fault.Wrap(err, fault.Unavailable, codeRecordUnavailable, "the referee record does not answer just now, so this request with an Idempotency-Key was not run: try again in a moment")
}
