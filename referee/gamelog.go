package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// GameEvent is one entry of a game's log: the game started (its table,
// rules and players), a hand was reported, the organiser ended it. The
// game itself is rebuilt by replaying its log, so what was stored is all
// there is to trust; entries are only ever added.
type GameEvent struct {
	Game string          `json:"game"`
	Seq  int             `json:"seq"`
	At   time.Time       `json:"at"`
	Kind string          `json:"kind"`
	By   string          `json:"by,omitempty"`
	Body json.RawMessage `json:"body"`
}

// ErrSeqTaken is returned when another writer added the same entry number
// first: reload the game and try again.
var ErrSeqTaken = errors.New("another entry was added to this game first")

// AppendGameEvent adds entry e.Seq to a game's log; entries are numbered
// from 1 without gaps, so two writers cannot both add entry n.
func (s *Store) AppendGameEvent(ctx context.Context, e GameEvent) (GameEvent, error) {
	if e.Game == "" || e.Kind == "" || e.Seq < 1 {
		return GameEvent{}, errors.New("a game log entry needs a game, a kind and a number from 1")
	}
	if !json.Valid(e.Body) {
		return GameEvent{}, errors.New("a game log entry's body must be JSON")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return GameEvent{}, err
	}
	defer tx.Rollback()
	var last int
	if err := tx.QueryRowContext(ctx, rebind(s.d, `SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game = ?`), e.Game).Scan(&last); err != nil {
		return GameEvent{}, err
	}
	if e.Seq != last+1 {
		return GameEvent{}, fmt.Errorf("game %s entry %d (the log has %d): %w", e.Game, e.Seq, last, ErrSeqTaken)
	}
	e.At = time.Now().UTC().Truncate(time.Microsecond)
	_, err = tx.ExecContext(ctx, rebind(s.d, `INSERT INTO game_events (game, seq, at_us, kind, by_whom, body) VALUES (?, ?, ?, ?, ?, ?)`),
		e.Game, e.Seq, e.At.UnixMicro(), e.Kind, e.By, string(e.Body))
	if err != nil {
		if isUnique(err) {
			return GameEvent{}, fmt.Errorf("game %s entry %d: %w", e.Game, e.Seq, ErrSeqTaken)
		}
		return GameEvent{}, fmt.Errorf("game log entry not stored: %w", err)
	}
	if err := tx.Commit(); err != nil {
		if isUnique(err) {
			return GameEvent{}, fmt.Errorf("game %s entry %d: %w", e.Game, e.Seq, ErrSeqTaken)
		}
		return GameEvent{}, fmt.Errorf("game log entry not stored: %w", err)
	}
	return e, nil
}

// GameLogs reads every game's log, games in the order they were started.
func (s *Store) GameLogs(ctx context.Context) ([][]GameEvent, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT game, seq, at_us, kind, by_whom, body FROM game_events ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	index := map[string]int{}
	var out [][]GameEvent
	for rows.Next() {
		var e GameEvent
		var at int64
		var body string
		if err := rows.Scan(&e.Game, &e.Seq, &at, &e.Kind, &e.By, &body); err != nil {
			return nil, err
		}
		e.At, e.Body = time.UnixMicro(at).UTC(), json.RawMessage(body)
		i, ok := index[e.Game]
		if !ok {
			i = len(out)
			index[e.Game] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], e)
	}
	return out, rows.Err()
}
