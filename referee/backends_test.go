package referee

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// EnvTestPostgres names the PostgreSQL the tests also run against
// (scripts/postgres-test.sh prints one).
const EnvTestPostgres = "MJSCAN_TEST_POSTGRES_DSN"

// backend opens a fresh, empty record of one kind.
type backend struct {
	name string
	// config returns a config for a new empty record; calling open on the
	// same config again reopens the same record.
	config func(t *testing.T) Config
}

// backends are SQLite always, and PostgreSQL when MJSCAN_TEST_POSTGRES_DSN
// is set.
func backends(t *testing.T) []backend {
	out := []backend{{"sqlite", func(t *testing.T) Config {
		return Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
	}}}
	if dsn := os.Getenv(EnvTestPostgres); dsn != "" {
		out = append(out, backend{"postgres", func(t *testing.T) Config { return pgSchema(t, dsn) }})
	} else {
		t.Logf("%s is not set: PostgreSQL not tested here (scripts/postgres-test.sh starts one)", EnvTestPostgres)
	}
	return out
}

// pgSchema makes a schema of its own for one test, dropped at the end, and
// returns a DSN whose search_path points at it.
func pgSchema(t *testing.T, dsn string) Config {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "referee_test_" + hex.EncodeToString(b)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		db.Close()
		t.Fatalf("PostgreSQL at %s: %v", EnvTestPostgres, err)
	}
	t.Cleanup(func() {
		_, _ = db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		db.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	if !strings.Contains(dsn, "://") {
		return Config{PostgresDSN: dsn + " search_path=" + schema}
	}
	return Config{PostgresDSN: dsn + sep + "search_path=" + schema}
}

func open(t *testing.T, c Config) *Store {
	t.Helper()
	s, err := Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
