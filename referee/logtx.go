package referee

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// LogTx is one transaction over a few game (or tournament) logs, each
// locked for it: whoever else writes one of them, in this process or in
// another replica on the same database, waits until it commits or rolls
// back. What it reads is the logs as committed, and what it appends
// follows them, so two writers never both add entry n, and the chained
// digests never fork.
type LogTx struct {
	s      *Store
	ctx    context.Context
	tx     *sql.Tx
	locked map[string]bool
	logs   map[string]*GameLog
}

// UpdateLogs runs fn in one transaction holding the locks of the named
// logs (taken in name order, so two transactions never wait on each
// other), and commits what fn appended when it returns nil; an error
// from fn rolls everything back. On PostgreSQL the locks are transaction
// advisory locks on each log's name; on SQLite the transaction is BEGIN
// IMMEDIATE, which holds the database's one write lock from the start.
func (s *Store) UpdateLogs(ctx context.Context, logs []string, fn func(*LogTx) error) (err error) {
	defer s.observe(&err)
	names := append([]string(nil), logs...)
	sort.Strings(names)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.explainWrite(err)
	}
	defer tx.Rollback()
	l := &LogTx{s: s, ctx: ctx, tx: tx, locked: map[string]bool{}, logs: map[string]*GameLog{}}
	for _, name := range names {
		if l.locked[name] {
			continue
		}
		if err := CheckLogName(name); err != nil {
			return err
		}
		if s.d.logLock != "" {
			if _, err := tx.ExecContext(ctx, rebind(s.d, s.d.logLock), name); err != nil {
				return s.explainWrite(err)
			}
		}
		l.locked[name] = true
	}
	if err := fn(l); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		if isUnique(err) {
			return fmt.Errorf("game log entry not stored: %w", ErrSeqTaken)
		}
		return fmt.Errorf("game log entry not stored: %w", s.explainWrite(err))
	}
	return nil
}

// Log reads a locked log as committed (and as appended to in this
// transaction), each entry checked against its digest.
func (l *LogTx) Log(game string) (GameLog, error) {
	if !l.locked[game] {
		return GameLog{}, fmt.Errorf("game log %s was not locked for this transaction", game)
	}
	if g, ok := l.logs[game]; ok {
		return copyLog(g), nil
	}
	rows, err := l.tx.QueryContext(l.ctx, rebind(l.s.d, `SELECT game, seq, at_us, kind, by_whom, body, digest FROM game_events WHERE game = ? ORDER BY seq`), game)
	if err != nil {
		return GameLog{}, err
	}
	g := &GameLog{Game: game}
	if err := readGameLogs(rows, func(string) *GameLog { return g }); err != nil {
		return GameLog{}, err
	}
	l.logs[game] = g
	return copyLog(g), nil
}

// Peek reads a log inside the transaction without locking it: for logs
// that no longer change (a game added to a tournament was ended first),
// read through the transaction's own connection (SQLite has but one).
func (l *LogTx) Peek(game string) (GameLog, error) {
	if l.locked[game] {
		return l.Log(game)
	}
	rows, err := l.tx.QueryContext(l.ctx, rebind(l.s.d, `SELECT game, seq, at_us, kind, by_whom, body, digest FROM game_events WHERE game = ? ORDER BY seq`), game)
	if err != nil {
		return GameLog{}, err
	}
	g := GameLog{Game: game}
	if err := readGameLogs(rows, func(string) *GameLog { return &g }); err != nil {
		return GameLog{}, err
	}
	return g, nil
}

func copyLog(g *GameLog) GameLog {
	c := *g
	c.Events = append([]GameEvent(nil), g.Events...)
	return c
}

// Append adds the next entry to a locked log and returns it as stored
// (number, time, digest). A log that no longer matches its digests takes
// no more entries (ErrTampered).
func (l *LogTx) Append(game, kind, by string, body json.RawMessage) (GameEvent, error) {
	log, err := l.Log(game)
	if err != nil {
		return GameEvent{}, err
	}
	if log.Tampered != "" {
		return GameEvent{}, &tamperedError{msg: log.Tampered}
	}
	e := GameEvent{Game: game, Seq: len(log.Events) + 1, Kind: kind, By: by, Body: body}
	if err := e.check(); err != nil {
		return GameEvent{}, err
	}
	prev := ""
	if n := len(log.Events); n > 0 {
		prev = log.Events[n-1].Digest
	}
	e.At = time.Now().UTC().Truncate(time.Microsecond)
	e.Digest = e.digest(prev)
	_, err = l.tx.ExecContext(l.ctx, rebind(l.s.d, `INSERT INTO game_events (game, seq, at_us, kind, by_whom, body, digest) VALUES (?, ?, ?, ?, ?, ?, ?)`),
		e.Game, e.Seq, e.At.UnixMicro(), e.Kind, e.By, string(e.Body), e.Digest)
	if err != nil {
		if isUnique(err) {
			return GameEvent{}, fmt.Errorf("game %s entry %d: %w", e.Game, e.Seq, ErrSeqTaken)
		}
		return GameEvent{}, fmt.Errorf("game log entry not stored: %w", l.s.explainWrite(err))
	}
	g := l.logs[game]
	g.Events = append(g.Events, e)
	return e, nil
}

// check refuses an entry that no log should hold.
func (e *GameEvent) check() error {
	if e.Game == "" || e.Kind == "" || e.Seq < 1 {
		return invalid("a game log entry needs a game, a kind and a number from 1")
	}
	if !json.Valid(e.Body) {
		return invalid("a game log entry's body must be JSON")
	}
	for _, f := range []struct{ name, v string }{{"the game's id", e.Game}, {"the entry's kind", e.Kind}, {"who made the entry", e.By}} {
		if err := checkName(f.name, f.v); err != nil {
			return err
		}
	}
	return checkJSON("the request", e.Body) // an entry's body is what a request sent
}

// GameLog reads one game's (or tournament's) log and checks each entry
// against its digest; a log never written comes back with no Events.
func (s *Store) GameLog(ctx context.Context, game string) (_ GameLog, err error) {
	defer s.observe(&err)
	if !CouldHold(game) {
		return GameLog{Game: game}, nil
	}
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT game, seq, at_us, kind, by_whom, body, digest FROM game_events WHERE game = ? ORDER BY seq`), game)
	if err != nil {
		return GameLog{}, err
	}
	g := GameLog{Game: game}
	if err := readGameLogs(rows, func(string) *GameLog { return &g }); err != nil {
		return GameLog{}, err
	}
	return g, nil
}

// LogHead is what a log's newest entry says of it: how many entries it
// has and the digest of the last, which together name its version (a
// log that changes gets a new head), and its first entry.
type LogHead struct {
	Game   string
	Seq    int
	Digest string
	First  GameEvent
}

// LogVersion is the head of one log: Seq 0 when it was never written.
func (s *Store) LogVersion(ctx context.Context, game string) (seq int, digest string, err error) {
	defer s.observe(&err)
	if !CouldHold(game) {
		return 0, "", nil
	}
	err = s.db.QueryRowContext(ctx, rebind(s.d, `SELECT seq, digest FROM game_events WHERE game = ? ORDER BY seq DESC LIMIT 1`), game).Scan(&seq, &digest)
	if err == sql.ErrNoRows {
		return 0, "", nil
	}
	return seq, digest, err
}

// LogHeads lists every log, in the order they were started, with its
// head and its first entry (checked alone; GameLog checks a whole
// log). A log whose first entry fails its digest is left out.
func (s *Store) LogHeads(ctx context.Context) (_ []LogHead, err error) {
	defer s.observe(&err)
	rows, err := s.db.QueryContext(ctx, `SELECT f.game, f.at_us, f.kind, f.by_whom, f.body, f.digest, h.seq, h.digest
		FROM game_events f
		JOIN (SELECT game, MAX(seq) AS seq FROM game_events GROUP BY game) m ON m.game = f.game
		JOIN game_events h ON h.game = m.game AND h.seq = m.seq
		WHERE f.seq = 1 ORDER BY f.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LogHead
	for rows.Next() {
		var h LogHead
		var at int64
		var body string
		if err := rows.Scan(&h.Game, &at, &h.First.Kind, &h.First.By, &body, &h.First.Digest, &h.Seq, &h.Digest); err != nil {
			return nil, err
		}
		h.First.Game, h.First.Seq, h.First.At, h.First.Body = h.Game, 1, time.UnixMicro(at).UTC(), json.RawMessage(body)
		if h.First.Digest != h.First.digest("") {
			continue // changed behind the store's back: GameLog says so
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
