package referee

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// GameEvent is one entry of a game's log: the game started (its table,
// rules and players), a hand was reported, the organiser ended it. The
// game itself is rebuilt by replaying its log, so what was stored is all
// there is to trust; entries are only ever added, and each one's digest
// covers the entry before it, so an entry changed, removed or put out of
// order behind the store's back is noticed.
type GameEvent struct {
	Game string          `json:"game"`
	Seq  int             `json:"seq"`
	At   time.Time       `json:"at"`
	Kind string          `json:"kind"`
	By   string          `json:"by,omitempty"`
	Body json.RawMessage `json:"body"`
	// Digest is the hex SHA-256 of the entry and the digest of the entry
	// before it.
	Digest string `json:"digest"`
}

// ErrSeqTaken is returned when another writer added the same entry number
// first: reload the game and try again.
var ErrSeqTaken = errors.New("another entry was added to this game first")

// ErrTampered marks a game log or table setup that was changed behind the
// store's back; the error's text says which entry.
var ErrTampered = errors.New("changed after it was written")

type tamperedError struct{ msg string }

func (e *tamperedError) Error() string        { return e.msg }
func (e *tamperedError) Is(target error) bool { return target == ErrTampered }

// chainDigest is the digest of one entry of a log: the previous entry's
// digest and the entry's fields, each written with its length first so
// that no two different entries read alike.
func chainDigest(prev string, fields ...string) string {
	h := sha256.New()
	for _, f := range append([]string{prev}, fields...) {
		fmt.Fprintf(h, "%d:%s,", len(f), f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (e *GameEvent) digest(prev string) string {
	return chainDigest(prev, "game event", e.Game, strconv.Itoa(e.Seq), strconv.FormatInt(e.At.UnixMicro(), 10), e.Kind, e.By, string(e.Body))
}

// AppendGameEvent adds entry e.Seq to a game's log; entries are numbered
// from 1 without gaps, so two writers cannot both add entry n. A log that
// no longer matches its digests takes no more entries (ErrTampered).
func (s *Store) AppendGameEvent(ctx context.Context, e GameEvent) (stored GameEvent, err error) {
	if err := e.check(); err != nil {
		return GameEvent{}, err
	}
	err = s.UpdateLogs(ctx, []string{e.Game}, func(tx *LogTx) error {
		log, err := tx.Log(e.Game)
		if err != nil {
			return err
		}
		if log.Tampered != "" {
			return &tamperedError{msg: log.Tampered}
		}
		if last := len(log.Events); e.Seq != last+1 {
			return fmt.Errorf("game %s entry %d (the log has %d): %w", e.Game, e.Seq, last, ErrSeqTaken)
		}
		stored, err = tx.Append(e.Game, e.Kind, e.By, e.Body)
		return err
	})
	if err != nil {
		return GameEvent{}, err
	}
	return stored, nil
}

// GameLog is one game's log as read back.
type GameLog struct {
	Game string
	// Events are the entries that match their digests, in order: the
	// whole log, or the part of it before the first entry that does not.
	Events []GameEvent
	// Tampered, when set, says which entry was changed, removed or put out
	// of order after it was written, in a sentence for the organiser.
	// Events stop before it, and the log takes no more entries.
	Tampered string
}

// GameLogs reads every game's log, games in the order they were started,
// and checks each entry against its digest.
func (s *Store) GameLogs(ctx context.Context) (_ []GameLog, err error) {
	defer s.observe(&err)
	rows, err := s.db.QueryContext(ctx, `SELECT game, seq, at_us, kind, by_whom, body, digest FROM game_events ORDER BY id`)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	var out []*GameLog
	err = readGameLogs(rows, func(game string) *GameLog {
		i, ok := index[game]
		if !ok {
			i = len(out)
			index[game] = i
			out = append(out, &GameLog{Game: game})
		}
		return out[i]
	})
	if err != nil {
		return nil, err
	}
	logs := make([]GameLog, len(out))
	for i, l := range out {
		logs[i] = *l
	}
	return logs, nil
}

// readGameLogs adds each entry to its game's log (entries of one game in
// the order they were written) and checks it.
func readGameLogs(rows *sql.Rows, logOf func(game string) *GameLog) error {
	defer rows.Close()
	for rows.Next() {
		var e GameEvent
		var at int64
		var body string
		if err := rows.Scan(&e.Game, &e.Seq, &at, &e.Kind, &e.By, &body, &e.Digest); err != nil {
			if e.Game == "" {
				return fmt.Errorf("a game log entry cannot be read back: %w", err)
			}
			if l := logOf(e.Game); l.Tampered == "" {
				l.Game = e.Game
				l.Tampered = l.stop(fmt.Sprintf("entry %d of its log cannot be read back (the database holds a damaged copy)", len(l.Events)+1))
			}
			continue
		}
		e.At, e.Body = time.UnixMicro(at).UTC(), json.RawMessage(body)
		l := logOf(e.Game)
		if l.Game == "" {
			l.Game = e.Game
		}
		if l.Tampered != "" {
			continue
		}
		n := len(l.Events)
		prev := ""
		if n > 0 {
			prev = l.Events[n-1].Digest
		}
		switch {
		case e.Seq != n+1:
			l.Tampered = l.stop(fmt.Sprintf("its log goes from entry %d to entry %d (entries were removed or renumbered after they were written)", n, e.Seq))
		case e.Digest != e.digest(prev):
			l.Tampered = l.stop(fmt.Sprintf("entry %d of its log was changed after it was written (it no longer matches its digest)", e.Seq))
		default:
			l.Events = append(l.Events, e)
		}
	}
	return rows.Err()
}

// stop says what became of a log that cannot be trusted past its Events.
func (l *GameLog) stop(what string) string {
	if len(l.Events) == 0 {
		return fmt.Sprintf("game %s: %s: it cannot be rebuilt, so it is not loaded; tell the head referee", l.Game, what)
	}
	return fmt.Sprintf("game %s: %s: it is rebuilt from the %d entries before and takes no more; tell the head referee", l.Game, what, len(l.Events))
}
