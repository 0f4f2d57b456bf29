package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"
)

// TableSetup is one version of a table's camera setup (its snapshot
// address, calibration, photo policy). A new setup is added to change or
// redo it; the newest one is in force, and the old ones stay to show what
// the camera was set to when an earlier photo was taken. Each version's
// digest covers the version before it, as a game log's entries do.
type TableSetup struct {
	Table  string          `json:"table"`
	At     time.Time       `json:"at"`
	By     string          `json:"by,omitempty"`
	Body   json.RawMessage `json:"body"`
	Digest string          `json:"digest"`
}

func (t *TableSetup) digest(prev string) string {
	return chainDigest(prev, "table setup", t.Table, strconv.FormatInt(t.At.UnixMicro(), 10), t.By, string(t.Body))
}

// AppendTableSetup stores a new setup for a table. It follows the newest
// one even when an older one was tampered with: a new setup is how the
// organiser puts a table right.
func (s *Store) AppendTableSetup(ctx context.Context, t TableSetup) (_ TableSetup, err error) {
	defer s.observe(&err)
	if t.Table == "" || !json.Valid(t.Body) {
		return TableSetup{}, invalid("a table setup needs a table and a JSON body")
	}
	for _, f := range []struct{ name, v string }{{"the table's name", t.Table}, {"who set the table up", t.By}} {
		if err := checkName(f.name, f.v); err != nil {
			return TableSetup{}, err
		}
	}
	if err := checkJSON("the table setup", t.Body); err != nil {
		return TableSetup{}, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return TableSetup{}, err
	}
	defer tx.Rollback()
	if s.d.setupLock != "" {
		// Two setups of one table must not both follow the same one.
		if _, err := tx.ExecContext(ctx, s.d.setupLock); err != nil {
			return TableSetup{}, err
		}
	}
	var prev string
	err = tx.QueryRowContext(ctx, rebind(s.d, `SELECT COALESCE(MAX(digest), '') FROM table_setups WHERE id = (SELECT MAX(id) FROM table_setups WHERE table_name = ?)`), t.Table).Scan(&prev)
	if err != nil {
		return TableSetup{}, err
	}
	t.At = time.Now().UTC().Truncate(time.Microsecond)
	t.Digest = t.digest(prev)
	if _, err := tx.ExecContext(ctx, rebind(s.d, `INSERT INTO table_setups (table_name, at_us, by_whom, body, digest) VALUES (?, ?, ?, ?, ?)`),
		t.Table, t.At.UnixMicro(), t.By, string(t.Body), t.Digest); err != nil {
		return TableSetup{}, fmt.Errorf("table setup not stored: %w", s.explainWrite(err))
	}
	if err := tx.Commit(); err != nil {
		return TableSetup{}, fmt.Errorf("table setup not stored: %w", s.explainWrite(err))
	}
	return t, nil
}

// TableSetups returns the setup in force for each table, and a sentence
// for each setup that no longer matches its digest. A table whose setup
// in force fails is left out (the organiser registers it again); an older
// setup that fails is reported, and the one in force still used.
func (s *Store) TableSetups(ctx context.Context) (_ map[string]TableSetup, _ []string, err error) {
	defer s.observe(&err)
	return s.tableSetups(ctx, `SELECT table_name, at_us, by_whom, body, digest FROM table_setups ORDER BY id`)
}

// TableSetupOf is TableSetups for one table, read on its own: found is
// false when the table has no setup in force (none was stored, or the one
// in force fails its digest, which problems then says).
func (s *Store) TableSetupOf(ctx context.Context, table string) (_ TableSetup, found bool, problems []string, err error) {
	defer s.observe(&err)
	if !CouldHold(table) {
		return TableSetup{}, false, nil, nil
	}
	setups, problems, err := s.tableSetups(ctx, rebind(s.d, `SELECT table_name, at_us, by_whom, body, digest FROM table_setups WHERE table_name = ? ORDER BY id`), table)
	if err != nil {
		return TableSetup{}, false, nil, err
	}
	t, found := setups[table]
	return t, found, problems, nil
}

func (s *Store) tableSetups(ctx context.Context, query string, args ...any) (map[string]TableSetup, []string, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	newest := map[string]TableSetup{}
	intact := map[string]bool{}
	var problems []string
	for rows.Next() {
		var t TableSetup
		var at int64
		var body string
		if err := rows.Scan(&t.Table, &at, &t.By, &body, &t.Digest); err != nil {
			if t.Table == "" {
				return nil, nil, fmt.Errorf("a table setup cannot be read back: %w", err)
			}
			problems = append(problems, fmt.Sprintf("table %s: a setup cannot be read back (the database holds a damaged copy)", t.Table))
			intact[t.Table] = false
			continue
		}
		t.At, t.Body = time.UnixMicro(at).UTC(), json.RawMessage(body)
		// The chain follows the digests as stored, so one changed setup
		// fails alone and the setups after it still check.
		ok := t.Digest == t.digest(newest[t.Table].Digest)
		if !ok {
			problems = append(problems, fmt.Sprintf("table %s: its setup of %s was changed after it was written (it no longer matches its digest)",
				t.Table, t.At.Format(time.RFC3339)))
		}
		newest[t.Table], intact[t.Table] = t, ok
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	out := map[string]TableSetup{}
	for name, t := range newest {
		if intact[name] {
			out[name] = t
		} else {
			problems = append(problems, fmt.Sprintf("table %s: its setup in force cannot be trusted, so the table is not loaded: the organiser registers it again", name))
		}
	}
	sort.Strings(problems)
	return out, problems, nil
}
