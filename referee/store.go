package referee

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	_ "modernc.org/sqlite"             // pure-Go SQLite driver "sqlite"
)

// Store is the referee record. It only appends and reads: there is no
// method that changes or removes a record, and the schema's triggers refuse
// it too.
type Store struct {
	db *sql.DB
	d  dialect
}

// Open opens (and migrates) the record the config names.
func Open(ctx context.Context, c Config) (*Store, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	var s *Store
	if c.PostgresDSN != "" {
		db, err := sql.Open("pgx", c.PostgresDSN)
		if err != nil {
			return nil, fmt.Errorf("referee record (PostgreSQL): %w", err)
		}
		db.SetMaxOpenConns(8)
		s = &Store{db: db, d: postgresDialect}
	} else {
		if dir := filepath.Dir(c.SQLitePath); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, mkdirError(dir, err)
			}
		}
		if err := checkSQLiteWritable(c.SQLitePath); err != nil {
			return nil, err
		}
		// WAL lets readers work while a record is written; synchronous
		// FULL makes a commit durable before Append returns; IMMEDIATE
		// transactions take the write lock up front so two writers wait
		// for each other (busy_timeout) instead of failing.
		q := url.Values{}
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "foreign_keys(ON)")
		q.Set("_txlock", "immediate")
		db, err := sql.Open("sqlite", "file:"+c.SQLitePath+"?"+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("referee record (SQLite): %w", err)
		}
		// One writer at a time is all SQLite offers; a single connection
		// keeps the Go side from queueing on the file lock.
		db.SetMaxOpenConns(1)
		s = &Store{db: db, d: sqliteDialect}
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("referee record (%s): %w", s.d.name, err)
	}
	if err := migrate(ctx, s.db, s.d); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// Backend names the database in use: "sqlite" or "postgres".
func (s *Store) Backend() string { return s.d.name }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// ErrNotFound is returned for an unknown record id.
var ErrNotFound = errors.New("no such referee record")

// ErrAlreadyOverturned is returned when a record that was already
// overturned is overturned again: overturn the newer record instead.
var ErrAlreadyOverturned = errors.New("that ruling was already overturned: overturn the record that replaced it")

const columns = `id, at_us, table_name, game, hand, asked_by, photo_sha256, photo, model_version,
	engine_version, rule_set, recognized, corrections, request, claimed, computed, ruling, referee,
	overturns, digest`

// Append stores a new record and returns it as stored (ID, time, digest).
// When it returns without error the record is committed.
func (s *Store) Append(ctx context.Context, r Record) (Record, error) {
	r.ID, r.Digest = 0, ""
	if err := r.validate(); err != nil {
		return Record{}, err
	}
	if r.Overturns != 0 {
		old, err := s.Get(ctx, r.Overturns)
		if err != nil {
			return Record{}, fmt.Errorf("overturns %d: %w", r.Overturns, err)
		}
		if next, err := s.overturnedBy(ctx, old.ID); err == nil && next != 0 {
			return Record{}, fmt.Errorf("record %d (overturned by %d): %w", old.ID, next, ErrAlreadyOverturned)
		}
	}
	r.At = time.Now().UTC().Truncate(time.Microsecond)
	r.Digest = r.ComputeDigest()
	corr, _ := json.Marshal(r.Corrections)
	if r.Corrections == nil {
		corr = []byte("[]")
	}
	var overturns any
	if r.Overturns != 0 {
		overturns = r.Overturns
	}
	var photo any
	if r.Photo != nil {
		photo = r.Photo
	}
	q := rebind(s.d, `INSERT INTO referee_records (at_us, table_name, game, hand, asked_by, photo_sha256, photo,
		model_version, engine_version, rule_set, recognized, corrections, request, claimed, computed, ruling,
		referee, overturns, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	err := s.db.QueryRowContext(ctx, q, r.At.UnixMicro(), r.Table, r.Game, r.Hand, r.AskedBy, r.PhotoSHA256, photo,
		r.ModelVersion, r.EngineVersion, r.RuleSet, r.Recognized, string(corr), string(r.Request), r.Claimed,
		string(r.Computed), r.Ruling, r.Referee, overturns, r.Digest).Scan(&r.ID)
	if err != nil {
		if r.Overturns != 0 && isUnique(err) {
			return Record{}, fmt.Errorf("record %d: %w", r.Overturns, ErrAlreadyOverturned)
		}
		return Record{}, fmt.Errorf("referee record not stored: %w", err)
	}
	return r, nil
}

func isUnique(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "unique") || strings.Contains(m, "duplicate key")
}

// Get reads one record and checks its digest.
func (s *Store) Get(ctx context.Context, id int64) (Record, error) {
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT `+columns+` FROM referee_records WHERE id = ?`), id)
	if err != nil {
		return Record{}, err
	}
	list, err := scan(rows)
	if err != nil {
		return Record{}, err
	}
	if len(list) == 0 {
		return Record{}, fmt.Errorf("record %d: %w", id, ErrNotFound)
	}
	return list[0], nil
}

// Query selects records; empty fields match everything.
type Query struct {
	Table string
	Game  string
	// After returns only records with a larger id (paging).
	After int64
	// Limit caps the number returned (0: 1000).
	Limit int
}

// List reads records in the order they were appended.
func (s *Store) List(ctx context.Context, q Query) ([]Record, error) {
	where := []string{"id > ?"}
	args := []any{q.After}
	if q.Table != "" {
		where, args = append(where, "table_name = ?"), append(args, q.Table)
	}
	if q.Game != "" {
		where, args = append(where, "game = ?"), append(args, q.Game)
	}
	limit := q.Limit
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT `+columns+` FROM referee_records WHERE `+
		strings.Join(where, " AND ")+` ORDER BY id LIMIT ?`), args...)
	if err != nil {
		return nil, err
	}
	return scan(rows)
}

// overturnedBy is the id of the record that overturned id, 0 if none.
func (s *Store) overturnedBy(ctx context.Context, id int64) (int64, error) {
	var next int64
	err := s.db.QueryRowContext(ctx, rebind(s.d, `SELECT id FROM referee_records WHERE overturns = ?`), id).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return next, err
}

// InForce follows a decision from record id through every record that
// overturned it and returns the chain, the ruling in force last.
func (s *Store) InForce(ctx context.Context, id int64) ([]Record, error) {
	r, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	chain := []Record{r}
	for {
		next, err := s.overturnedBy(ctx, chain[len(chain)-1].ID)
		if err != nil {
			return nil, err
		}
		if next == 0 {
			return chain, nil
		}
		r, err := s.Get(ctx, next)
		if err != nil {
			return nil, err
		}
		chain = append(chain, r)
	}
}

func scan(rows *sql.Rows) ([]Record, error) {
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		var at int64
		var corr, request, computed string
		var overturns sql.NullInt64
		if err := rows.Scan(&r.ID, &at, &r.Table, &r.Game, &r.Hand, &r.AskedBy, &r.PhotoSHA256, &r.Photo,
			&r.ModelVersion, &r.EngineVersion, &r.RuleSet, &r.Recognized, &corr, &request, &r.Claimed, &computed,
			&r.Ruling, &r.Referee, &overturns, &r.Digest); err != nil {
			return nil, err
		}
		r.At = time.UnixMicro(at).UTC()
		if corr != "[]" {
			if err := json.Unmarshal([]byte(corr), &r.Corrections); err != nil {
				return nil, fmt.Errorf("record %d corrections: %w", r.ID, err)
			}
		}
		if request != "" {
			r.Request = json.RawMessage(request)
		}
		if computed != "" {
			r.Computed = json.RawMessage(computed)
		}
		r.Overturns = overturns.Int64
		if err := r.Verify(); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
