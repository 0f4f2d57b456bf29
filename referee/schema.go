package referee

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"
)

// dialect holds the few places where SQLite and PostgreSQL differ.
type dialect struct {
	name string
	// id is the column type of an auto-numbered primary key; blob a byte
	// column.
	id, blob string
	// appendOnly are the statements that make the table refuse UPDATE and
	// DELETE.
	appendOnly []string
	// gameLogAppendOnly does the same for game_events.
	gameLogAppendOnly []string
	// setupAppendOnly does the same for table_setups, photosAppendOnly
	// for referee_photos.
	setupAppendOnly, photosAppendOnly []string
	// tileSetsAppendOnly does the same for tile_sets, notesAppendOnly
	// for tile_set_notes.
	tileSetsAppendOnly, notesAppendOnly []string
	// byTable makes a query read ids from the index by table.
	byTable string
	// lock and unlock hold a lock for a session that serialises
	// migrations between processes ("" when the database does it by
	// itself); setupLock, taken inside a transaction, does the same for
	// appending a table setup.
	lock, unlock, setupLock string
	// logLock, taken inside a transaction with a log's name, serialises
	// the writers of one game's (or tournament's) log across processes
	// ("" where the transaction itself holds the database's only write
	// lock: SQLite's BEGIN IMMEDIATE).
	logLock string
	// allowUpdates and forbidUpdates lift and restore a table's refusal
	// of UPDATE, for the one migration that seals what older versions
	// wrote (inside its transaction).
	allowUpdates, forbidUpdates func(table string) []string
}

var sqliteDialect = dialect{
	name: "sqlite", id: "INTEGER PRIMARY KEY AUTOINCREMENT", blob: "BLOB", byTable: " INDEXED BY referee_records_by_table",
	appendOnly: []string{
		`CREATE TRIGGER referee_records_no_update BEFORE UPDATE ON referee_records
		 BEGIN SELECT RAISE(ABORT, 'referee records are append-only'); END`,
		`CREATE TRIGGER referee_records_no_delete BEFORE DELETE ON referee_records
		 BEGIN SELECT RAISE(ABORT, 'referee records are append-only'); END`,
	},
	gameLogAppendOnly: []string{
		`CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
		 BEGIN SELECT RAISE(ABORT, 'game logs are append-only'); END`,
		`CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
		 BEGIN SELECT RAISE(ABORT, 'game logs are append-only'); END`,
	},
	setupAppendOnly: []string{
		`CREATE TRIGGER table_setups_no_update BEFORE UPDATE ON table_setups
		 BEGIN SELECT RAISE(ABORT, 'table setups are append-only: add a new one'); END`,
		`CREATE TRIGGER table_setups_no_delete BEFORE DELETE ON table_setups
		 BEGIN SELECT RAISE(ABORT, 'table setups are append-only: add a new one'); END`,
	},
	photosAppendOnly: []string{
		`CREATE TRIGGER referee_photos_no_update BEFORE UPDATE ON referee_photos
		 BEGIN SELECT RAISE(ABORT, 'referee records are append-only'); END`,
		`CREATE TRIGGER referee_photos_no_delete BEFORE DELETE ON referee_photos
		 BEGIN SELECT RAISE(ABORT, 'referee records are append-only'); END`,
	},
	tileSetsAppendOnly: []string{
		`CREATE TRIGGER tile_sets_no_update BEFORE UPDATE ON tile_sets
		 BEGIN SELECT RAISE(ABORT, 'tile sets are append-only: add a new version'); END`,
		`CREATE TRIGGER tile_sets_no_delete BEFORE DELETE ON tile_sets
		 BEGIN SELECT RAISE(ABORT, 'tile sets are append-only: add a new version'); END`,
	},
	notesAppendOnly: []string{
		`CREATE TRIGGER tile_set_notes_no_update BEFORE UPDATE ON tile_set_notes
		 BEGIN SELECT RAISE(ABORT, 'tile sets are append-only: add a new version'); END`,
		`CREATE TRIGGER tile_set_notes_no_delete BEFORE DELETE ON tile_set_notes
		 BEGIN SELECT RAISE(ABORT, 'tile sets are append-only: add a new version'); END`,
	},
	allowUpdates: func(table string) []string { return []string{`DROP TRIGGER ` + table + `_no_update`} },
	forbidUpdates: func(table string) []string {
		what := map[string]string{
			"referee_records": "referee records are append-only",
			"referee_photos":  "referee records are append-only",
			"game_events":     "game logs are append-only",
			"table_setups":    "table setups are append-only: add a new one",
		}[table]
		return []string{`CREATE TRIGGER ` + table + `_no_update BEFORE UPDATE ON ` + table + `
		 BEGIN SELECT RAISE(ABORT, '` + what + `'); END`}
	},
}

var postgresDialect = dialect{
	name: "postgres", id: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", blob: "BYTEA",
	appendOnly: []string{
		`CREATE FUNCTION referee_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN RAISE EXCEPTION 'referee records are append-only'; END $$`,
		`CREATE TRIGGER referee_records_no_change BEFORE UPDATE OR DELETE ON referee_records
		 FOR EACH ROW EXECUTE FUNCTION referee_append_only()`,
		`CREATE TRIGGER referee_records_no_truncate BEFORE TRUNCATE ON referee_records
		 FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only()`,
	},
	gameLogAppendOnly: []string{
		`CREATE TRIGGER game_events_no_change BEFORE UPDATE OR DELETE ON game_events
		 FOR EACH ROW EXECUTE FUNCTION referee_append_only()`,
		`CREATE TRIGGER game_events_no_truncate BEFORE TRUNCATE ON game_events
		 FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only()`,
	},
	setupAppendOnly: []string{
		`CREATE TRIGGER table_setups_no_change BEFORE UPDATE OR DELETE ON table_setups
		 FOR EACH ROW EXECUTE FUNCTION referee_append_only()`,
	},
	photosAppendOnly: []string{
		`CREATE TRIGGER referee_photos_no_change BEFORE UPDATE OR DELETE ON referee_photos
		 FOR EACH ROW EXECUTE FUNCTION referee_append_only()`,
		`CREATE TRIGGER referee_photos_no_truncate BEFORE TRUNCATE ON referee_photos
		 FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only()`,
	},
	tileSetsAppendOnly: []string{
		`CREATE FUNCTION tile_sets_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN RAISE EXCEPTION 'tile sets are append-only: add a new version'; END $$`,
		`CREATE TRIGGER tile_sets_no_change BEFORE UPDATE OR DELETE ON tile_sets
		 FOR EACH ROW EXECUTE FUNCTION tile_sets_append_only()`,
		`CREATE TRIGGER tile_sets_no_truncate BEFORE TRUNCATE ON tile_sets
		 FOR EACH STATEMENT EXECUTE FUNCTION tile_sets_append_only()`,
	},
	notesAppendOnly: []string{
		`CREATE TRIGGER tile_set_notes_no_change BEFORE UPDATE OR DELETE ON tile_set_notes
		 FOR EACH ROW EXECUTE FUNCTION tile_sets_append_only()`,
		`CREATE TRIGGER tile_set_notes_no_truncate BEFORE TRUNCATE ON tile_set_notes
		 FOR EACH STATEMENT EXECUTE FUNCTION tile_sets_append_only()`,
	},
	lock:      `SELECT pg_advisory_lock(7274726566)`,
	unlock:    `SELECT pg_advisory_unlock(7274726566)`,
	setupLock: `SELECT pg_advisory_xact_lock(7274726567)`,
	logLock:   `SELECT pg_advisory_xact_lock(hashtextextended(?, 7274726568))`,
	allowUpdates: func(table string) []string {
		return []string{`ALTER TABLE ` + table + ` DISABLE TRIGGER ` + table + `_no_change`}
	},
	forbidUpdates: func(table string) []string {
		return []string{`ALTER TABLE ` + table + ` ENABLE TRIGGER ` + table + `_no_change`}
	},
}

// migration is one numbered step of the schema; its statements are built
// for the dialect. Steps are never edited once released: a change is a new
// step.
type migration struct {
	version int
	what    string
	stmts   func(d dialect) []string
	// run, when set, is Go work done after the statements, in the same
	// transaction.
	run func(ctx context.Context, tx *sql.Tx, d dialect) error
}

var migrations = []migration{
	{1, "referee records", func(d dialect) []string {
		return []string{
			`CREATE TABLE referee_records (
				id ` + d.id + `,
				at_us BIGINT NOT NULL,
				table_name TEXT NOT NULL,
				game TEXT NOT NULL DEFAULT '',
				hand INTEGER NOT NULL DEFAULT 0,
				asked_by TEXT NOT NULL,
				photo_sha256 TEXT NOT NULL DEFAULT '',
				photo ` + d.blob + `,
				model_version TEXT NOT NULL DEFAULT '',
				engine_version TEXT NOT NULL,
				rule_set TEXT NOT NULL,
				recognized TEXT NOT NULL DEFAULT '',
				corrections TEXT NOT NULL DEFAULT '[]',
				request TEXT NOT NULL DEFAULT '',
				claimed TEXT NOT NULL DEFAULT '',
				computed TEXT NOT NULL DEFAULT '',
				ruling TEXT NOT NULL,
				referee TEXT NOT NULL DEFAULT '',
				-- A ruling is overturned at most once; a later change of
				-- mind overturns the record that overturned it.
				overturns BIGINT UNIQUE REFERENCES referee_records(id),
				digest TEXT NOT NULL
			)`,
			`CREATE INDEX referee_records_by_table ON referee_records (table_name, id)`,
			`CREATE INDEX referee_records_by_game ON referee_records (game, id)`,
		}
	}, nil},
	{2, "append-only triggers", func(d dialect) []string { return d.appendOnly }, nil},
	{3, "game logs", func(d dialect) []string {
		return append([]string{
			`CREATE TABLE game_events (
				id ` + d.id + `,
				game TEXT NOT NULL,
				seq INTEGER NOT NULL,
				at_us BIGINT NOT NULL,
				kind TEXT NOT NULL,
				by_whom TEXT NOT NULL DEFAULT '',
				body TEXT NOT NULL,
				UNIQUE (game, seq)
			)`,
		}, d.gameLogAppendOnly...)
	}, nil},
	{4, "table cameras", func(d dialect) []string {
		return append([]string{
			`CREATE TABLE table_setups (
				id ` + d.id + `,
				table_name TEXT NOT NULL,
				at_us BIGINT NOT NULL,
				by_whom TEXT NOT NULL DEFAULT '',
				body TEXT NOT NULL
			)`,
			`CREATE INDEX table_setups_by_table ON table_setups (table_name, id)`,
		}, d.setupAppendOnly...)
	}, nil},
	{5, "digests for game logs and table setups; record digests without the photo's bytes; photos in a table of their own", func(d dialect) []string {
		return append([]string{
			`ALTER TABLE referee_records ADD COLUMN digest_scheme INTEGER NOT NULL DEFAULT 1`,
			`ALTER TABLE referee_records ADD COLUMN legacy_digest TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE game_events ADD COLUMN digest TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE table_setups ADD COLUMN digest TEXT NOT NULL DEFAULT ''`,
			// Photos leave referee_records (whose photo column stays, empty):
			// a SQLite row is read front to back, so a photo in the middle
			// of a record's row is read through whenever a column after it
			// is, listing or not.
			`CREATE TABLE referee_photos (
				record_id BIGINT PRIMARY KEY REFERENCES referee_records(id),
				photo ` + d.blob + ` NOT NULL
			)`,
		}, d.photosAppendOnly...)
	}, seal},
	{6, "players' tile sets", func(d dialect) []string {
		return append([]string{
			// One row per version of a set; the newest is in force. The
			// bank comes last in its row, so reading a set's summary never
			// reads through the bank's bytes (see step 5).
			`CREATE TABLE tile_sets (
				id ` + d.id + `,
				set_id TEXT NOT NULL,
				version INTEGER NOT NULL,
				at_us BIGINT NOT NULL,
				name TEXT NOT NULL DEFAULT '',
				codes TEXT NOT NULL DEFAULT '',
				tiles INTEGER NOT NULL DEFAULT 0,
				photos INTEGER NOT NULL DEFAULT 0,
				engine_version TEXT NOT NULL DEFAULT '',
				model_version TEXT NOT NULL DEFAULT '',
				bank_sha256 TEXT NOT NULL,
				bank_size BIGINT NOT NULL,
				digest TEXT NOT NULL,
				bank ` + d.blob + ` NOT NULL,
				UNIQUE (set_id, version)
			)`,
		}, d.tileSetsAppendOnly...)
	}, nil},
	{7, "shared state of replicas: Idempotency-Key answers and score-now claims", func(d dialect) []string {
		return []string{
			// An upload's answer under its Idempotency-Key (the key is kept
			// as its SHA-256): claimed first (done 0, expiring when the
			// request would have timed out), then its answer kept until
			// expires_us. Neither a record nor append-only: rows expire.
			`CREATE TABLE idempotency_keys (
				key_sha256 TEXT PRIMARY KEY,
				upload_sha256 TEXT NOT NULL,
				created_us BIGINT NOT NULL,
				expires_us BIGINT NOT NULL,
				done INTEGER NOT NULL DEFAULT 0,
				status INTEGER NOT NULL DEFAULT 0,
				content_type TEXT NOT NULL DEFAULT '',
				size BIGINT NOT NULL DEFAULT 0,
				body ` + d.blob + `
			)`,
			`CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_us)`,
			// The camera's proposals of one hand: a row per proposal, in
			// flight until expires_us (0 once its record is stored).
			`CREATE TABLE score_now_claims (
				id ` + d.id + `,
				game TEXT NOT NULL,
				hand INTEGER NOT NULL,
				expires_us BIGINT NOT NULL
			)`,
			`CREATE INDEX score_now_claims_by_hand ON score_now_claims (game, hand)`,
		}
	}, nil},
	{8, "a record's Idempotency-Key, so that a retry finds a record written but never answered", func(d dialect) []string {
		return []string{
			// The SHA-256 of the request's scoped key; not part of the
			// record's digest (it says how the record came, not what it is).
			`ALTER TABLE referee_records ADD COLUMN idempotency_key TEXT`,
			`CREATE UNIQUE INDEX referee_records_by_key ON referee_records (idempotency_key) WHERE idempotency_key IS NOT NULL`,
		}
	}, nil},
	{9, "what teaching noted of each version of a tile set: the codes it saw only blurred, and whether the models already read the set", func(d dialect) []string {
		return append([]string{
			// A row for each version with something noted, with a digest
			// chained to the version's. Kept beside tile_sets rather than
			// in columns of it: a column added to tile_sets comes after
			// the bank, and SQLite would read through the bank to reach it
			// (see step 6).
			`CREATE TABLE tile_set_notes (
				set_id TEXT NOT NULL,
				version INTEGER NOT NULL,
				blurred TEXT NOT NULL DEFAULT '',
				known INTEGER NOT NULL DEFAULT 0,
				digest TEXT NOT NULL,
				PRIMARY KEY (set_id, version)
			)`,
		}, d.notesAppendOnly...)
	}, nil},
}

// migrate brings the schema up to date, each step in its own transaction.
// Replicas starting together on one PostgreSQL take turns: the first holds
// an advisory lock from before the schema table exists until its last
// step, and the others, waiting on it, find every step applied. (A lock
// per step would leave the schema table's own CREATE to race: PostgreSQL's
// CREATE TABLE IF NOT EXISTS fails in one of two sessions that run it at
// once.)
func migrate(ctx context.Context, db *sql.DB, d dialect) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if d.lock != "" {
		if _, err := conn.ExecContext(ctx, d.lock); err != nil {
			return fmt.Errorf("referee schema lock: %w", err)
		}
		defer func() {
			uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if _, err := conn.ExecContext(uctx, d.unlock); err != nil {
				// A connection still holding the lock must not go back
				// to the pool: drop it, which ends its session and the lock.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS referee_schema (
		version INTEGER PRIMARY KEY, what TEXT NOT NULL, applied_us BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("referee schema table: %w", err)
	}
	for _, m := range migrations {
		if err := apply(ctx, conn, d, m); err != nil {
			return fmt.Errorf("referee schema step %d (%s): %w", m.version, m.what, err)
		}
	}
	return nil
}

func apply(ctx context.Context, conn *sql.Conn, d dialect, m migration) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, rebind(d, `SELECT COUNT(*) FROM referee_schema WHERE version = ?`), m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	for _, s := range m.stmts(d) {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	if m.run != nil {
		if err := m.run(ctx, tx, d); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, rebind(d, `INSERT INTO referee_schema (version, what, applied_us) VALUES (?, ?, ?)`),
		m.version, m.what, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}

// rebind turns ? placeholders into PostgreSQL's $1, $2, … (the queries
// here hold no literal question marks).
func rebind(d dialect, q string) string {
	if d.name != "postgres" {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
