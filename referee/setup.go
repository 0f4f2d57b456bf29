package referee

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// TableSetup is one version of a table's camera setup (its snapshot
// address, calibration, photo policy). A new setup is added to change or
// redo it; the newest one is in force, and the old ones stay to show what
// the camera was set to when an earlier photo was taken.
type TableSetup struct {
	Table string          `json:"table"`
	At    time.Time       `json:"at"`
	By    string          `json:"by,omitempty"`
	Body  json.RawMessage `json:"body"`
}

// AppendTableSetup stores a new setup for a table.
func (s *Store) AppendTableSetup(ctx context.Context, t TableSetup) (TableSetup, error) {
	if t.Table == "" || !json.Valid(t.Body) {
		return TableSetup{}, errors.New("a table setup needs a table and a JSON body")
	}
	t.At = time.Now().UTC().Truncate(time.Microsecond)
	_, err := s.db.ExecContext(ctx, rebind(s.d, `INSERT INTO table_setups (table_name, at_us, by_whom, body) VALUES (?, ?, ?, ?)`),
		t.Table, t.At.UnixMicro(), t.By, string(t.Body))
	if err != nil {
		return TableSetup{}, err
	}
	return t, nil
}

// TableSetups returns the setup in force for each table.
func (s *Store) TableSetups(ctx context.Context) (map[string]TableSetup, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT table_name, at_us, by_whom, body FROM table_setups ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]TableSetup{}
	for rows.Next() {
		var t TableSetup
		var at int64
		var body string
		if err := rows.Scan(&t.Table, &at, &t.By, &body); err != nil {
			return nil, err
		}
		t.At, t.Body = time.UnixMicro(at).UTC(), json.RawMessage(body)
		out[t.Table] = t
	}
	return out, rows.Err()
}
