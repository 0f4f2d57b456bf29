package referee

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// The state replicas share besides the record: the answers to uploads
// sent with an Idempotency-Key, and the camera's proposals in flight.
// Unlike the record, these rows expire.

// KeyAnswer is what the database holds under an Idempotency-Key.
type KeyAnswer struct {
	// Upload identifies the request the key was first used with.
	Upload string
	// Done is false while the first request is still being answered.
	Done        bool
	Status      int
	ContentType string
	Body        []byte
}

func keyID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// ClaimKey takes an Idempotency-Key for a request about to run: claimed
// is true when this caller now holds it (until now+lease, when a replica
// that died holding it lets it go). Otherwise the answer is what holds
// the key: the first request's answer, or its claim (Done false). A key
// whose answer or claim expired is taken anew. Of two replicas claiming
// one key at once, exactly one gets it (INSERT … ON CONFLICT DO NOTHING
// on the key).
func (s *Store) ClaimKey(ctx context.Context, key, upload string, now time.Time, lease time.Duration) (claimed bool, a KeyAnswer, err error) {
	defer s.observe(&err)
	id := keyID(key)
	for try := 0; try < 3; try++ {
		if _, err := s.db.ExecContext(ctx, rebind(s.d, `DELETE FROM idempotency_keys WHERE key_sha256 = ? AND expires_us <= ?`), id, now.UnixMicro()); err != nil {
			return false, KeyAnswer{}, s.explainWrite(err)
		}
		res, err := s.db.ExecContext(ctx, rebind(s.d, `INSERT INTO idempotency_keys (key_sha256, upload_sha256, created_us, expires_us)
			VALUES (?, ?, ?, ?) ON CONFLICT (key_sha256) DO NOTHING`), id, upload, now.UnixMicro(), now.Add(lease).UnixMicro())
		if err != nil {
			return false, KeyAnswer{}, s.explainWrite(err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, KeyAnswer{}, err
		} else if n == 1 {
			return true, KeyAnswer{}, nil
		}
		a, err = s.keyAnswer(ctx, id)
		if errors.Is(err, sql.ErrNoRows) {
			continue // let go meanwhile: claim it again
		}
		return false, a, err
	}
	return false, KeyAnswer{}, errors.New("an Idempotency-Key was taken and let go three times over while claiming it")
}

// KeyAnswerOf reads what holds a key now (sql.ErrNoRows: nothing).
func (s *Store) KeyAnswerOf(ctx context.Context, key string, now time.Time) (_ KeyAnswer, err error) {
	defer func() {
		if !errors.Is(err, sql.ErrNoRows) {
			s.observe(&err)
		}
	}()
	return s.keyAnswerAt(ctx, keyID(key), now)
}

func (s *Store) keyAnswer(ctx context.Context, id string) (KeyAnswer, error) {
	return s.keyAnswerAt(ctx, id, time.Time{})
}

func (s *Store) keyAnswerAt(ctx context.Context, id string, now time.Time) (KeyAnswer, error) {
	var a KeyAnswer
	var done int
	err := s.db.QueryRowContext(ctx, rebind(s.d, `SELECT upload_sha256, done, status, content_type, body FROM idempotency_keys WHERE key_sha256 = ? AND expires_us > ?`),
		id, now.UnixMicro()).Scan(&a.Upload, &done, &a.Status, &a.ContentType, &a.Body)
	a.Done = done == 1
	return a, err
}

// KeyBounds bound what the database keeps of answers: how long (TTL),
// how many (Entries) and how many bytes in all (Bytes).
type KeyBounds struct {
	TTL     time.Duration
	Entries int
	Bytes   int64
}

// keyOverhead is what one kept answer counts for besides its body and
// content type (the row, its key and index entries), rounded up.
const keyOverhead = 256

// KeepAnswer stores the answer of a claimed key, to be replayed until
// now+TTL. To stay within the bounds it first drops the oldest answers
// kept (never a claim still in flight); an answer that still does not fit
// is not kept, and its key is let go (kept false).
func (s *Store) KeepAnswer(ctx context.Context, key, upload string, status int, ctype string, body []byte, now time.Time, b KeyBounds) (kept bool, err error) {
	defer s.observe(&err)
	id := keyID(key)
	size := int64(keyOverhead + len(body) + len(ctype))
	if size > b.Bytes {
		// It could never fit: let the key go rather than empty the
		// table for it.
		return false, s.ReleaseKey(ctx, key, upload)
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, rebind(s.d, `UPDATE idempotency_keys SET done = 1, status = ?, content_type = ?, body = ?, size = ?, expires_us = ?
			WHERE key_sha256 = ? AND upload_sha256 = ? AND done = 0`), status, ctype, body, size, now.Add(b.TTL).UnixMicro(), id, upload)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil // the claim lapsed and the key went to another request
		}
		// Make room, oldest answers first; a bounded number of rounds, since
		// other replicas drop answers too.
		for round := 0; round < 64; round++ {
			var total int64
			var count int
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0), COUNT(*) FROM idempotency_keys`).Scan(&total, &count); err != nil {
				return err
			}
			if total <= b.Bytes && count <= b.Entries {
				kept = true
				return nil
			}
			res, err := tx.ExecContext(ctx, rebind(s.d, `DELETE FROM idempotency_keys WHERE key_sha256 = (
				SELECT key_sha256 FROM idempotency_keys WHERE done = 1 AND key_sha256 <> ? ORDER BY created_us LIMIT 1)`), id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				break // only claims in flight and this answer are left
			}
		}
		_, err = tx.ExecContext(ctx, rebind(s.d, `DELETE FROM idempotency_keys WHERE key_sha256 = ?`), id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("Idempotency-Key answer not kept: %w", s.explainWrite(err))
	}
	return kept, nil
}

// ReleaseKey lets a claimed key go without an answer (one a retry could
// change: a 429, a cancelled request, a 5xx, or one too large to keep):
// the next request with the key runs anew.
func (s *Store) ReleaseKey(ctx context.Context, key, upload string) (err error) {
	defer s.observe(&err)
	_, err = s.db.ExecContext(ctx, rebind(s.d, `DELETE FROM idempotency_keys WHERE key_sha256 = ? AND upload_sha256 = ? AND done = 0`), keyID(key), upload)
	return s.explainWrite(err)
}

// PurgeKeys drops every answer and claim expired at now, and says how
// many.
func (s *Store) PurgeKeys(ctx context.Context, now time.Time) (_ int64, err error) {
	defer s.observe(&err)
	res, err := s.db.ExecContext(ctx, rebind(s.d, `DELETE FROM idempotency_keys WHERE expires_us <= ?`), now.UnixMicro())
	if err != nil {
		return 0, s.explainWrite(err)
	}
	return res.RowsAffected()
}

// ErrTooManyClaims is returned when a hand has all the proposals it may.
var ErrTooManyClaims = errors.New("this hand has had all the camera proposals it may")

// ClaimProposal counts a camera proposal of a game's hand: the hand's
// proposals stored and in flight (until now+lease) may number at most max
// (ErrTooManyClaims past that). The claim's id then either becomes a
// stored proposal (KeepProposal) or is given back (ReleaseProposal).
// Claims of one game are serialised as its log's writers are.
func (s *Store) ClaimProposal(ctx context.Context, game string, hand, max int, now time.Time, lease time.Duration) (id int64, err error) {
	defer func() {
		if !errors.Is(err, ErrTooManyClaims) {
			s.observe(&err)
		}
	}()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if s.d.logLock != "" {
			if _, err := tx.ExecContext(ctx, rebind(s.d, s.d.logLock), "score-now:"+game); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, rebind(s.d, `SELECT COUNT(*) FROM score_now_claims WHERE game = ? AND hand = ? AND (expires_us = 0 OR expires_us > ?)`),
			game, hand, now.UnixMicro()).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return ErrTooManyClaims
		}
		return tx.QueryRowContext(ctx, rebind(s.d, `INSERT INTO score_now_claims (game, hand, expires_us) VALUES (?, ?, ?) RETURNING id`),
			game, hand, now.Add(lease).UnixMicro()).Scan(&id)
	})
	if err != nil && !errors.Is(err, ErrTooManyClaims) {
		err = s.explainWrite(err)
	}
	return id, err
}

// KeepProposal marks a claim as a stored proposal: it counts for good.
func (s *Store) KeepProposal(ctx context.Context, id int64) (err error) {
	defer s.observe(&err)
	_, err = s.db.ExecContext(ctx, rebind(s.d, `UPDATE score_now_claims SET expires_us = 0 WHERE id = ?`), id)
	return s.explainWrite(err)
}

// ReleaseProposal gives a claim back: no proposal was stored.
func (s *Store) ReleaseProposal(ctx context.Context, id int64) (err error) {
	defer s.observe(&err)
	_, err = s.db.ExecContext(ctx, rebind(s.d, `DELETE FROM score_now_claims WHERE id = ? AND expires_us <> 0`), id)
	return s.explainWrite(err)
}
