package referee

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentOpensMigrateOnce starts several replicas' Opens at the
// same instant on one fresh PostgreSQL database, the way a Deployment's
// pods start together: every Open succeeds and each schema step is
// applied exactly once.
func TestConcurrentOpensMigrateOnce(t *testing.T) {
	dsn := os.Getenv(EnvTestPostgres)
	if dsn == "" {
		t.Skipf("%s is not set: scripts/postgres-test.sh starts a PostgreSQL", EnvTestPostgres)
	}
	const replicas = 6
	for round := 0; round < 3; round++ {
		c := freshDatabase(t, dsn)
		stores := make([]*Store, replicas)
		errs := make([]error, replicas)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range stores {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				stores[i], errs[i] = Open(context.Background(), c)
			}(i)
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: replica %d of %d did not open: %v", round, i, replicas, err)
			}
			defer stores[i].Close()
		}
		db := stores[0].db
		var steps, distinct int
		if err := db.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT version) FROM referee_schema`).Scan(&steps, &distinct); err != nil {
			t.Fatal(err)
		}
		if steps != len(migrations) || distinct != len(migrations) {
			t.Fatalf("round %d: %d schema steps recorded (%d distinct), want %d once each", round, steps, distinct, len(migrations))
		}
		// A step run twice would have failed on its CREATE; the triggers
		// are counted too, so a step recorded without its statements shows.
		var triggers int
		if err := db.QueryRow(`SELECT COUNT(*) FROM pg_trigger WHERE NOT tgisinternal`).Scan(&triggers); err != nil {
			t.Fatal(err)
		}
		if want := createdTriggers(postgresDialect); triggers != want {
			t.Fatalf("round %d: %d append-only triggers, want %d", round, triggers, want)
		}
		// Every replica can write.
		for i, s := range stores {
			if _, err := s.Append(context.Background(), sample("table")); err != nil {
				t.Fatalf("round %d: replica %d cannot append: %v", round, i, err)
			}
		}
	}
}

// createdTriggers counts the triggers the schema steps create.
func createdTriggers(d dialect) int {
	n := 0
	for _, m := range migrations {
		for _, s := range m.stmts(d) {
			if strings.HasPrefix(strings.TrimSpace(s), "CREATE TRIGGER") {
				n++
			}
		}
	}
	return n
}

// freshDatabase creates an empty database for one test, dropped at the
// end, and returns its config.
func freshDatabase(t *testing.T, dsn string) Config {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		t.Skipf("%s is not a postgres:// URL: a fresh database cannot be named in it", EnvTestPostgres)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "referee_fresh_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL at %s: %v", EnvTestPostgres, err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
		admin.Close()
	})
	u.Path = "/" + name
	return Config{PostgresDSN: u.String()}
}
