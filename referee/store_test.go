package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
)

func sample(table string) Record {
	photo := []byte("\xff\xd8\xff\xe0 not really a jpeg")
	return Record{
		Table: table, Game: "Q1", Hand: 3, AskedBy: "player:Aiko",
		Photo: photo, PhotoSHA256: PhotoHash(photo),
		ModelVersion: "tiles-v1", EngineVersion: "mjscan 0.1", RuleSet: "riichi/msmc-2016",
		Recognized:  "234m234p234s678s55p",
		Corrections: []Correction{{By: "referee:Kim", From: "5p", To: "5s", Reason: "tile misread under glare"}},
		Request:     json.RawMessage(`{"rules":"riichi","preset":"msmc-2016","hand":"234m234p234s678s55p","win_tile":"8s"}`),
		Claimed:     "8000",
		Computed:    json.RawMessage(`{"ok":true,"han":5,"fu":30,"limit":"mangan","points":{"total":8000}}`),
		Ruling:      "8,000 to Aiko from Chloe", Referee: "referee:Kim",
	}
}

func TestAppendAndRead(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			if s.d.name != b.name {
				t.Fatalf("backend %s, want %s", s.d.name, b.name)
			}
			in := sample("table 1")
			got, err := s.Append(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if got.ID == 0 || got.Digest == "" || got.At.IsZero() {
				t.Fatalf("stored record lacks id, digest or time: %+v", got)
			}
			back, err := s.Get(ctx, got.ID)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(got)
			c, _ := json.Marshal(back)
			if !bytes.Equal(a, c) {
				t.Fatalf("read back\n%s\nstored\n%s", c, a)
			}
			if back.Corrections[0].Reason != "tile misread under glare" || back.Photo != nil || back.PhotoSize != int64(len(in.Photo)) {
				t.Fatalf("record changed on the way: %+v", back)
			}
			if _, photo, err := s.Photo(ctx, got.ID); err != nil || !bytes.Equal(photo, in.Photo) {
				t.Fatalf("photo read back: %v %q", err, photo)
			}
			// Opted-out photo: only the hash is kept.
			noPhoto := sample("table 2")
			noPhoto.Photo = nil
			if _, err := s.Append(ctx, noPhoto); err != nil {
				t.Fatal(err)
			}
			list, more, err := s.List(ctx, Query{Table: "table 2"})
			if err != nil || more || len(list) != 1 || list[0].Photo != nil || list[0].PhotoSize != 0 || list[0].PhotoSHA256 == "" {
				t.Fatalf("table 2: %v %+v", err, list)
			}
			if _, _, err := s.Photo(ctx, list[0].ID); !errors.Is(err, ErrNoPhoto) {
				t.Fatalf("the photo of a record that keeps none: %v", err)
			}
			if _, err := s.Get(ctx, 999); !errors.Is(err, ErrNotFound) {
				t.Fatalf("unknown id: %v", err)
			}
		})
	}
}

func TestRecordNeedsItsFields(t *testing.T) {
	s := open(t, Config{SQLitePath: t.TempDir() + "/r.db"})
	r := sample("t")
	r.Ruling, r.AskedBy = "", ""
	if _, err := s.Append(context.Background(), r); err == nil || err.Error() != "a referee record needs asked_by, ruling" {
		t.Fatalf("missing fields: %v", err)
	}
	r = sample("t")
	r.PhotoSHA256 = PhotoHash([]byte("another photo"))
	if _, err := s.Append(context.Background(), r); err == nil {
		t.Fatal("a photo with a wrong hash was stored")
	}
}

// TestOverturn: a ruling is replaced only by a new record that points at
// it; each record is overturned at most once; the chain shows the ruling
// in force.
func TestOverturn(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			first, err := s.Append(ctx, sample("t"))
			if err != nil {
				t.Fatal(err)
			}
			second := sample("t")
			second.Ruling, second.Overturns, second.AskedBy = "chombo: no yaku after the correction", first.ID, "player:Chloe"
			two, err := s.Append(ctx, second)
			if err != nil {
				t.Fatal(err)
			}
			again := sample("t")
			again.Overturns = first.ID
			if _, err := s.Append(ctx, again); !errors.Is(err, ErrAlreadyOverturned) {
				t.Fatalf("second overturn of record %d: %v", first.ID, err)
			}
			missing := sample("t")
			missing.Overturns = 12345
			if _, err := s.Append(ctx, missing); !errors.Is(err, ErrNotFound) {
				t.Fatalf("overturning a record that does not exist: %v", err)
			}
			third := sample("t")
			third.Ruling, third.Overturns = "8,000 stands: the head referee's review", two.ID
			three, err := s.Append(ctx, third)
			if err != nil {
				t.Fatal(err)
			}
			chain, err := s.InForce(ctx, first.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(chain) != 3 || chain[2].ID != three.ID || chain[2].Ruling != third.Ruling {
				t.Fatalf("chain %+v", chain)
			}
			// The first record is unchanged: nothing was edited in place.
			old, _ := s.Get(ctx, first.ID)
			if old.Ruling != first.Ruling || old.Digest != first.Digest {
				t.Fatalf("the overturned record changed: %+v", old)
			}
		})
	}
}

// TestAppendOnly: the database itself refuses to change or delete a
// record, and a record altered behind the store's back fails its digest.
func TestAppendOnly(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			r, err := s.Append(ctx, sample("t"))
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`UPDATE referee_records SET ruling = 'nothing happened' WHERE id = ?`,
				`DELETE FROM referee_records WHERE id = ?`,
			} {
				if _, err := s.db.ExecContext(ctx, rebind(s.d, q), r.ID); err == nil {
					t.Errorf("%q was allowed", q)
				}
			}
			// Tamper below the triggers (SQLite can drop them; PostgreSQL
			// can disable them) to show the digest catches it.
			tamper(t, s)
			if _, err := s.db.ExecContext(ctx, rebind(s.d, `UPDATE referee_records SET claimed = '12000' WHERE id = ?`), r.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, r.ID); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("a tampered record read back without complaint: %v", err)
			}
		})
	}
}

func tamper(t *testing.T, s *Store) {
	t.Helper()
	var stmts []string
	if s.d.name == "sqlite" {
		stmts = []string{`DROP TRIGGER referee_records_no_update`}
	} else {
		stmts = []string{`ALTER TABLE referee_records DISABLE TRIGGER referee_records_no_change`}
	}
	for _, q := range stmts {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMigrationsOnce: reopening runs no step twice.
func TestMigrationsOnce(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			c := b.config(t)
			s := open(t, c)
			s.Close()
			s = open(t, c)
			var n int
			if err := s.db.QueryRow(`SELECT COUNT(*) FROM referee_schema`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != len(migrations) {
				t.Fatalf("%d schema steps recorded, want %d", n, len(migrations))
			}
		})
	}
}

func TestConfig(t *testing.T) {
	c, err := LoadConfig(func(string) string { return "" })
	if err != nil || c.SQLitePath != DefaultSQLitePath {
		t.Fatalf("default config %+v %v", c, err)
	}
	err = Config{PostgresDSN: "mysql://x", SQLitePath: "a?b"}.Validate()
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(EnvPostgresDSN)) || !bytes.Contains([]byte(err.Error()), []byte(EnvSQLitePath)) {
		t.Fatalf("both problems should be reported together: %v", err)
	}
}

// BenchmarkAppend measures one durable append (SQLite, WAL, synchronous
// FULL) with a 2 KiB photo.
func BenchmarkAppend(b *testing.B) {
	s, err := Open(context.Background(), Config{SQLitePath: b.TempDir() + "/bench.db"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := sample("bench")
	r.Photo = bytes.Repeat([]byte{7}, 2048)
	r.PhotoSHA256 = ""
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Append(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDatabaseErrorsCounted: a failure of the database itself (here a
// table gone behind the store's back) is counted; what the store refuses
// or does not find is not.
func TestDatabaseErrorsCounted(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			s := open(t, c)
			if _, err := s.Append(ctx, sample("t")); err != nil {
				t.Fatal(err)
			}
			bad := sample("t")
			bad.Ruling = ""
			if _, err := s.Append(ctx, bad); !errors.Is(err, ErrInvalid) {
				t.Fatalf("a record without a ruling: %v", err)
			}
			if _, err := s.Get(ctx, 999); !errors.Is(err, ErrNotFound) {
				t.Fatalf("unknown id: %v", err)
			}
			if _, err := s.TileSet(ctx, "ts_none"); err == nil {
				t.Fatal("an unknown tile set was found")
			}
			if n := s.DatabaseErrors(); n != 0 {
				t.Fatalf("%d database errors counted for refusals and misses", n)
			}
			other, err := Open(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := other.db.Exec(`ALTER TABLE referee_records RENAME TO referee_records_gone`); err != nil {
				t.Fatal(err)
			}
			other.Close()
			if _, err := s.Append(ctx, sample("t")); err == nil {
				t.Fatal("appended to a table that is gone")
			}
			if _, _, err := s.List(ctx, Query{Table: "t"}); err == nil {
				t.Fatal("listed a table that is gone")
			}
			if n := s.DatabaseErrors(); n != 2 {
				t.Errorf("%d database errors counted, want 2 (the append and the list)", n)
			}
		})
	}
}
