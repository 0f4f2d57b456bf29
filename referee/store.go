package referee

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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
	// where names the database for messages (never the DSN, which may
	// hold a password).
	where string
	// failures counts the operations the database failed (DatabaseErrors).
	failures atomic.Uint64
}

// Open opens (and migrates) the record the config names, and checks that
// it can be written: a record that cannot take the next decision is an
// error at start, not at the first ruling.
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
		s = &Store{db: db, d: postgresDialect, where: "PostgreSQL (" + EnvPostgresDSN + ")"}
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
		s = &Store{db: db, d: sqliteDialect, where: "SQLite " + c.SQLitePath}
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, s.explain(err)
	}
	if err := migrate(ctx, s.db, s.d); err != nil {
		s.db.Close()
		return nil, s.explain(err)
	}
	if err := s.Check(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// ErrReadOnly marks a record that can be read but not written: every
// decision is appended to it, so the service does not start on one.
var ErrReadOnly = errors.New("the referee record cannot be written")

// ErrUnavailable marks a record that does not answer.
var ErrUnavailable = errors.New("the referee record does not answer")

// Check runs a tiny real write (rolled back) and reports whether the
// record answers and can be written.
func (s *Store) Check(ctx context.Context) (err error) {
	defer s.observe(&err)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.explain(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, rebind(s.d, `INSERT INTO referee_schema (version, what, applied_us) VALUES (?, ?, ?)`),
		-1, "write check, rolled back", 0); err != nil {
		return s.explain(err)
	}
	return nil
}

// explainWrite says so when a write failed because the record is
// read-only; other failures are returned as they are.
func (s *Store) explainWrite(err error) error {
	if e := s.explain(err); errors.Is(e, ErrReadOnly) {
		return e
	}
	return err
}

// explain turns a driver's failure to open or write the database into a
// sentence an operator can act on, keeping the cause.
func (s *Store) explain(err error) error {
	var lite interface{ Code() int }
	var pg interface{ SQLState() string }
	switch {
	case errors.As(err, &lite) && lite.Code()&0xff == 8: // SQLITE_READONLY
		return fmt.Errorf("%w: %s is read-only (%v); make the file and its folder writable by this user, or point %s at another file",
			ErrReadOnly, s.where, err, EnvSQLitePath)
	case errors.As(err, &lite) && lite.Code()&0xff == 14: // SQLITE_CANTOPEN
		return fmt.Errorf("%w: %s cannot be opened or created (%v); check that its folder exists and is writable by this user",
			ErrUnavailable, s.where, err)
	case errors.As(err, &pg) && (pg.SQLState() == "25006" || pg.SQLState() == "42501"):
		// read_only_sql_transaction (a standby, default_transaction_read_only)
		// or insufficient_privilege.
		return fmt.Errorf("%w: %s takes no writes (%v); connect to the primary with a user that may write its tables",
			ErrReadOnly, s.where, err)
	case errors.As(err, &pg):
		return fmt.Errorf("%s: %w", s.where, err)
	case errors.As(err, &lite):
		return fmt.Errorf("%s: %w", s.where, err)
	}
	return fmt.Errorf("%w: %s: %v", ErrUnavailable, s.where, err)
}

// DatabaseErrors is how many of the store's operations the database
// failed since it was opened: it did not answer, refused a write or a
// statement, or lost its connection. What the store refuses (ErrInvalid,
// ErrAlreadyOverturned), does not find (ErrNotFound), finds tampered, and
// what a client gave up on (a cancelled context) are not counted.
func (s *Store) DatabaseErrors() uint64 { return s.failures.Load() }

// observe counts *err when the database caused it; every exported method
// defers it.
func (s *Store) observe(err *error) {
	if *err != nil && databaseFailure(*err) {
		s.failures.Add(1)
	}
}

// databaseFailure says whether err came from the database or the way to
// it, by the errors' types: a driver's error (SQLite's code, PostgreSQL's
// SQLSTATE), a network error, a lost connection, or the record found
// unwritable or unreachable.
func databaseFailure(err error) bool {
	var lite interface{ Code() int }
	var pg interface{ SQLState() string }
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return false
	case errors.Is(err, ErrReadOnly), errors.Is(err, ErrUnavailable),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone), errors.Is(err, sql.ErrTxDone),
		errors.As(err, &lite), errors.As(err, &pg), errors.As(err, &netErr):
		return true
	}
	return false
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// ErrNotFound is returned for an unknown record id.
var ErrNotFound = errors.New("no such referee record")

// ErrAlreadyOverturned is returned when a record that was already
// overturned is overturned again: overturn the newer record instead.
var ErrAlreadyOverturned = errors.New("that ruling was already overturned: overturn the record that replaced it")

// columns are what reading a record selects: everything but the photo's
// bytes, which live in referee_photos and of which only the length is
// asked for (neither store reads a blob's content to say how long it is).
const columns = `id, at_us, table_name, game, hand, asked_by, photo_sha256,
	COALESCE((SELECT length(p.photo) FROM referee_photos p WHERE p.record_id = referee_records.id), 0), model_version,
	engine_version, rule_set, recognized, corrections, request, claimed, computed, ruling, referee,
	overturns, digest, digest_scheme, legacy_digest`

// Append stores a new record and returns it as stored (ID, time, digest),
// as reading it would: its photo's size, not the photo. When it returns
// without error the record is committed.
func (s *Store) Append(ctx context.Context, r Record) (_ Record, err error) {
	defer s.observe(&err)
	r.ID, r.Digest, r.LegacyDigest, r.Tampered, r.PhotoSize = 0, "", "", "", 0
	if err := r.validate(); err != nil {
		return Record{}, err
	}
	if r.IdempotencyKey != "" {
		if id, err := s.keyedRecord(ctx, r.IdempotencyKey); err == nil {
			return s.get(ctx, id) // written before under this key, never answered
		}
	}
	if r.Overturns != 0 {
		old, err := s.get(ctx, r.Overturns)
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
	if len(r.Corrections) == 0 {
		corr = []byte("[]")
	}
	var overturns any
	if r.Overturns != 0 {
		overturns = r.Overturns
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		q := rebind(s.d, `INSERT INTO referee_records (at_us, table_name, game, hand, asked_by, photo_sha256,
			model_version, engine_version, rule_set, recognized, corrections, request, claimed, computed, ruling,
			referee, overturns, digest, digest_scheme, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		var key any
		if r.IdempotencyKey != "" {
			key = r.IdempotencyKey
		}
		err := tx.QueryRowContext(ctx, q, r.At.UnixMicro(), r.Table, r.Game, r.Hand, r.AskedBy, r.PhotoSHA256,
			r.ModelVersion, r.EngineVersion, r.RuleSet, r.Recognized, string(corr), string(r.Request), r.Claimed,
			string(r.Computed), r.Ruling, r.Referee, overturns, r.Digest, digestScheme, key).Scan(&r.ID)
		if err != nil || r.Photo == nil {
			return err
		}
		_, err = tx.ExecContext(ctx, rebind(s.d, `INSERT INTO referee_photos (record_id, photo) VALUES (?, ?)`), r.ID, r.Photo)
		return err
	})
	if err != nil && r.IdempotencyKey != "" && isUnique(err) {
		// Written before under this key, and never answered (the replica
		// that wrote it died): the retry gets that record.
		if id, ferr := s.keyedRecord(ctx, r.IdempotencyKey); ferr == nil {
			return s.get(ctx, id)
		}
	}
	if err != nil {
		if r.Overturns != 0 && isUnique(err) {
			return Record{}, fmt.Errorf("record %d: %w", r.Overturns, ErrAlreadyOverturned)
		}
		return Record{}, fmt.Errorf("referee record not stored: %w", s.explainWrite(err))
	}
	r.PhotoSize, r.Photo = int64(len(r.Photo)), nil
	return r, nil
}

// keyedRecord is the id of the record appended under an Idempotency-Key.
func (s *Store) keyedRecord(ctx context.Context, key string) (id int64, err error) {
	err = s.db.QueryRowContext(ctx, rebind(s.d, `SELECT id FROM referee_records WHERE idempotency_key = ?`), key).Scan(&id)
	return id, err
}

// isDamaged says whether the database reported a damaged file or page
// (SQLITE_CORRUPT, SQLITE_NOTADB; PostgreSQL's data_corrupted and
// index_corrupted), rather than a failure to answer at all.
func isDamaged(err error) bool {
	var lite interface{ Code() int }
	var pg interface{ SQLState() string }
	switch {
	case errors.As(err, &lite):
		return lite.Code()&0xff == 11 || lite.Code()&0xff == 26
	case errors.As(err, &pg):
		return strings.HasPrefix(pg.SQLState(), "XX00")
	}
	return false
}

// inTx runs fn in a transaction and commits it when fn succeeds.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func isUnique(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "unique") || strings.Contains(m, "duplicate key")
}

// Get reads one record and checks its digest. The photo's bytes are not
// read (Photo does). A record that fails its check comes back marked
// Tampered, with an error that wraps ErrCorrupt.
func (s *Store) Get(ctx context.Context, id int64) (_ Record, err error) {
	defer s.observe(&err)
	return s.getChecked(ctx, id)
}

// getChecked is Get, uncounted, for the methods that read a record first.
func (s *Store) getChecked(ctx context.Context, id int64) (Record, error) {
	r, err := s.get(ctx, id)
	if err == nil && r.Tampered != "" {
		err = fmt.Errorf("record %d: %w", id, ErrCorrupt)
	}
	return r, err
}

// get reads one record, marked Tampered when it fails its check.
func (s *Store) get(ctx context.Context, id int64) (Record, error) {
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT `+columns+` FROM referee_records WHERE id = ?`), id)
	if err != nil && isDamaged(err) {
		return Record{ID: id, Tampered: damagedRecord}, nil
	}
	if err != nil {
		return Record{}, err
	}
	list, err := scan(rows)
	if err != nil && isDamaged(err) {
		// The database could not give the row back at all.
		return Record{ID: id, Tampered: damagedRecord}, nil
	}
	if err != nil {
		return Record{}, err
	}
	if len(list) == 0 {
		return Record{}, fmt.Errorf("record %d: %w", id, ErrNotFound)
	}
	return list[0], nil
}

// ErrNoPhoto is returned for a record that keeps no photo.
var ErrNoPhoto = errors.New("this record keeps no photo")

// Photo reads a record's photo and checks it against the record: the
// record against its digest, the photo against the hash the record holds.
func (s *Store) Photo(ctx context.Context, id int64) (_ Record, _ []byte, err error) {
	defer s.observe(&err)
	r, err := s.getChecked(ctx, id)
	if err != nil {
		return r, nil, err
	}
	if r.PhotoSize == 0 {
		return r, nil, fmt.Errorf("record %d: %w", id, ErrNoPhoto)
	}
	var photo []byte
	if err := s.db.QueryRowContext(ctx, rebind(s.d, `SELECT photo FROM referee_photos WHERE record_id = ?`), id).Scan(&photo); err != nil {
		return r, nil, err
	}
	if PhotoHash(photo) != r.PhotoSHA256 {
		r.Tampered = "this record's photo was changed after it was stored (it no longer matches the photo's hash): do not rely on it, and tell the head referee"
		return r, nil, fmt.Errorf("record %d photo: %w", id, ErrCorrupt)
	}
	return r, photo, nil
}

// Query selects records; empty fields match everything.
type Query struct {
	Table string
	Game  string
	// After returns only records with a larger id (paging).
	After int64
	// Limit caps the number returned (0: DefaultLimit; at most MaxLimit).
	Limit int
}

// Page sizes of List.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// List reads one page of records in the order they were appended, without
// their photos; more says whether records follow the page (ask again with
// After set to the last ID). Each record is checked: one that fails comes
// back marked Tampered, and the others are given all the same.
func (s *Store) List(ctx context.Context, q Query) (page []Record, more bool, err error) {
	defer s.observe(&err)
	if err := checkName("table", q.Table); err != nil {
		return nil, false, err
	}
	if err := checkName("game", q.Game); err != nil {
		return nil, false, err
	}
	where := []string{"id > ?"}
	args := []any{q.After}
	if q.Table != "" {
		where, args = append(where, "table_name = ?"), append(args, q.Table)
	}
	if q.Game != "" {
		where, args = append(where, "game = ?"), append(args, q.Game)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT `+columns+` FROM referee_records WHERE `+
		strings.Join(where, " AND ")+` ORDER BY id LIMIT ?`), append(args, limit+1)...)
	if err == nil {
		page, err = scan(rows)
	}
	if err != nil && isDamaged(err) {
		// The database stopped part-way (a damaged page): find the ids
		// through the table's index, which lives elsewhere in the file,
		// and read them one by one, so one damaged record does not hide
		// the others.
		page, err = s.oneByOne(ctx, where, args, limit+1)
	}
	if err != nil {
		return nil, false, err
	}
	if len(page) > limit {
		return page[:limit], true, nil
	}
	return page, false, nil
}

func (s *Store) oneByOne(ctx context.Context, where []string, args []any, limit int) ([]Record, error) {
	// The ids come from the index by table, which holds every id, rather
	// than from the table's own pages ("+id" keeps the planner off them).
	where = append([]string{"table_name >= ''", "+" + where[0]}, where[1:]...)
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT id FROM referee_records`+s.d.byTable+` WHERE `+
		strings.Join(where, " AND ")+` ORDER BY id LIMIT ?`), append(args, limit)...)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]Record, 0, len(ids))
	for _, id := range ids {
		r, err := s.get(ctx, id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
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
// overturned it and returns the chain, the ruling in force last. A record
// of the chain that fails its check is in it, marked Tampered.
func (s *Store) InForce(ctx context.Context, id int64) (_ []Record, err error) {
	defer s.observe(&err)
	r, err := s.get(ctx, id)
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
		r, err := s.get(ctx, next)
		if err != nil {
			return nil, err
		}
		chain = append(chain, r)
	}
}

// scan reads records and checks each against its digest. A row whose
// values cannot be read, or that fails its digest, is marked Tampered
// and kept; an error is returned only when the rows stop coming.
func scan(rows *sql.Rows) ([]Record, error) {
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		var at int64
		var corr, request, computed string
		var overturns sql.NullInt64
		var scheme int
		if err := rows.Scan(&r.ID, &at, &r.Table, &r.Game, &r.Hand, &r.AskedBy, &r.PhotoSHA256, &r.PhotoSize,
			&r.ModelVersion, &r.EngineVersion, &r.RuleSet, &r.Recognized, &corr, &request, &r.Claimed, &computed,
			&r.Ruling, &r.Referee, &overturns, &r.Digest, &scheme, &r.LegacyDigest); err != nil {
			out = append(out, Record{ID: r.ID, Tampered: damagedRecord})
			continue
		}
		r.At = time.UnixMicro(at).UTC()
		r.Overturns = overturns.Int64
		if request != "" {
			r.Request = json.RawMessage(request)
		}
		if computed != "" {
			r.Computed = json.RawMessage(computed)
		}
		switch {
		case corr != "[]" && json.Unmarshal([]byte(corr), &r.Corrections) != nil:
			r.Corrections, r.Tampered = nil, tamperedRecord
		case scheme != digestScheme:
			r.Tampered = unsealedRecord
		case r.Verify() != nil:
			r.Tampered = tamperedRecord
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
