package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// unguard lets UPDATE through on a table (below the triggers), as someone
// with the database's password could.
func unguard(t *testing.T, s *Store, table string) {
	t.Helper()
	for _, q := range s.d.allowUpdates(table) {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

func mustExec(t *testing.T, s *Store, q string, args ...any) {
	t.Helper()
	if _, err := s.db.Exec(rebind(s.d, q), args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestListReadsNoPhotos: listing twenty records with 1 MiB photos moves
// none of the photos' bytes (it costs less than one photo); each record
// says how large its photo is.
func TestListReadsNoPhotos(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			const size = 1 << 20
			for i := 0; i < 20; i++ {
				r := sample("t")
				r.Photo, r.PhotoSHA256 = bytes.Repeat([]byte{byte(i)}, size), ""
				if _, err := s.Append(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			if _, _, err := s.List(ctx, Query{Limit: 1}); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			list, more, err := s.List(ctx, Query{})
			runtime.ReadMemStats(&after)
			if err != nil || more || len(list) != 20 {
				t.Fatalf("list: %d records, more %v, %v", len(list), more, err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size {
				t.Errorf("listing allocated %d bytes, more than one photo", alloc)
			}
			for _, r := range list {
				if r.Photo != nil || r.PhotoSize != size || r.Tampered != "" {
					t.Fatalf("listed %d: photo %d bytes, size %d, tampered %q", r.ID, len(r.Photo), r.PhotoSize, r.Tampered)
				}
			}
		})
	}
}

// TestListPages: pages of a given size, a default of 100, at most 1000.
func TestListPages(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			for i := 0; i < DefaultLimit+5; i++ {
				if _, err := s.Append(ctx, sample(fmt.Sprintf("table %d", i%2))); err != nil {
					t.Fatal(err)
				}
			}
			page, more, err := s.List(ctx, Query{})
			if err != nil || len(page) != DefaultLimit || !more {
				t.Fatalf("default page: %d records, more %v, %v", len(page), more, err)
			}
			page, more, err = s.List(ctx, Query{After: page[len(page)-1].ID})
			if err != nil || len(page) != 5 || more {
				t.Fatalf("last page: %d records, more %v, %v", len(page), more, err)
			}
			var seen []int64
			after := int64(0)
			for {
				page, more, err := s.List(ctx, Query{Table: "table 1", After: after, Limit: 20})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range page {
					if r.Table != "table 1" {
						t.Fatalf("table 1's pages hold %q", r.Table)
					}
					seen = append(seen, r.ID)
				}
				if !more {
					break
				}
				after = page[len(page)-1].ID
			}
			if len(seen) != (DefaultLimit+5)/2 {
				t.Fatalf("table 1 has %d records in pages, want %d", len(seen), (DefaultLimit+5)/2)
			}
			if page, _, _ := s.List(ctx, Query{Limit: 5000}); len(page) != DefaultLimit+5 {
				t.Fatalf("a limit over %d gave %d records", MaxLimit, len(page))
			}
		})
	}
}

// TestTamperedRecordMarked: a record changed behind the store's back is
// read back marked (and Get says ErrCorrupt), without hiding the others;
// a changed photo is refused when the photo is read.
func TestTamperedRecordMarked(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			var ids []int64
			for i := 0; i < 4; i++ {
				r, err := s.Append(ctx, sample("t"))
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, r.ID)
			}
			unguard(t, s, "referee_records")
			unguard(t, s, "referee_photos")
			mustExec(t, s, `UPDATE referee_records SET ruling = 'nothing happened' WHERE id = ?`, ids[1])
			mustExec(t, s, `UPDATE referee_records SET corrections = '[{' WHERE id = ?`, ids[2])
			mustExec(t, s, `UPDATE referee_photos SET photo = ? WHERE record_id = ?`, []byte("another photo"), ids[3])
			list, _, err := s.List(ctx, Query{})
			if err != nil || len(list) != 4 {
				t.Fatalf("list: %d, %v", len(list), err)
			}
			for i, want := range []bool{false, true, true, false} {
				if (list[i].Tampered != "") != want {
					t.Errorf("record %d: tampered %q", list[i].ID, list[i].Tampered)
				}
			}
			if r, err := s.Get(ctx, ids[1]); !errors.Is(err, ErrCorrupt) || r.Tampered == "" || r.Ruling != "nothing happened" {
				t.Fatalf("Get of the changed record: %v %+v", err, r)
			}
			if _, _, err := s.Photo(ctx, ids[0]); err != nil {
				t.Fatalf("an intact photo: %v", err)
			}
			if r, _, err := s.Photo(ctx, ids[3]); !errors.Is(err, ErrCorrupt) || !strings.Contains(r.Tampered, "photo") {
				t.Fatalf("a changed photo: %v %q", err, r.Tampered)
			}
			chain, err := s.InForce(ctx, ids[1])
			if err != nil || len(chain) != 1 || chain[0].Tampered == "" {
				t.Fatalf("InForce of the changed record: %v %+v", err, chain)
			}
		})
	}
}

// TestDamagedPage: a page of the SQLite file overwritten with garbage
// makes the records on it unreadable; listing gives them marked and every
// other record as it is.
func TestDamagedPage(t *testing.T) {
	ctx := context.Background()
	c := Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
	s := open(t, c)
	var pageSize int64
	if err := s.db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	// Records of about a page each, so that one page holds one record.
	for i := 0; i < 30; i++ {
		r := sample("t")
		r.Photo, r.PhotoSHA256 = nil, ""
		r.Ruling = fmt.Sprintf("RULING-%02d ", i) + strings.Repeat("x", int(pageSize)*2/3)
		if _, err := s.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	data, err := os.ReadFile(c.SQLitePath)
	if err != nil {
		t.Fatal(err)
	}
	at := int64(bytes.Index(data, []byte("RULING-17 ")))
	if at < 0 {
		t.Fatal("record 18 is not in the file")
	}
	page := at / pageSize * pageSize
	for i := page; i < page+16; i++ {
		data[i] = 0xee // the page's b-tree header
	}
	if err := os.WriteFile(c.SQLitePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s = open(t, c)
	list, more, err := s.List(ctx, Query{})
	if err != nil || more {
		t.Fatalf("one damaged page: %v", err)
	}
	var damaged, intact int
	for _, r := range list {
		switch {
		case r.Tampered != "":
			damaged++
		case r.Verify() == nil:
			intact++
		}
	}
	if damaged == 0 || damaged+intact != 30 || intact < 25 {
		t.Fatalf("%d records: %d damaged, %d intact", len(list), damaged, intact)
	}
}

// TestOpenRefusesReadOnly: a record that can be read but not written is
// an error at Open, naming the record and saying what to do; Check says
// so later too.
func TestOpenRefusesReadOnly(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		c := Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
		s := open(t, c)
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
		s.Close()
		// A file format write version above 2 makes SQLite open the file
		// read-only whoever runs it (file modes do not stop root).
		f, err := os.OpenFile(c.SQLitePath, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte{3}, 18); err != nil {
			t.Fatal(err)
		}
		f.Close()
		_, err = Open(ctx, c)
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), c.SQLitePath) || !strings.Contains(err.Error(), "writable") {
			t.Fatalf("a read-only SQLite file: %v", err)
		}
	})
	if dsn := os.Getenv(EnvTestPostgres); dsn != "" {
		t.Run("postgres", func(t *testing.T) {
			c := pgSchema(t, dsn)
			open(t, c).Close()
			c.PostgresDSN += "&default_transaction_read_only=on"
			_, err := Open(ctx, c)
			if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), EnvPostgresDSN) {
				t.Fatalf("a read-only PostgreSQL: %v", err)
			}
		})
	}
	t.Run("closed", func(t *testing.T) {
		s := open(t, Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")})
		s.Close()
		if err := s.Check(ctx); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Check of a closed record: %v", err)
		}
	})
}

// TestControlCharacters: both stores refuse the same text: control
// characters in names and ids, control characters other than tabs and
// line breaks in free text and in JSON, and text that is not UTF-8.
func TestControlCharacters(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			for what, change := range map[string]func(r *Record){
				"NUL in table":         func(r *Record) { r.Table = "t\x00" },
				"NUL in game":          func(r *Record) { r.Game = "\x00" },
				"newline in asked_by":  func(r *Record) { r.AskedBy = "player:\nAiko" },
				"DEL in referee":       func(r *Record) { r.Referee = "referee\x7f" },
				"C1 in rule_set":       func(r *Record) { r.RuleSet = "riichi\u0085" },
				"not UTF-8 in claimed": func(r *Record) { r.Claimed = "8000\xff" },
				"NUL in ruling":        func(r *Record) { r.Ruling = "8,000\x00" },
				"NUL in a correction":  func(r *Record) { r.Corrections[0].Reason = "glare\x00" },
				"escape in the JSON":   func(r *Record) { r.Request = json.RawMessage(`{"hand":"\u0000"}`) },
				"bell in the result":   func(r *Record) { r.Computed = json.RawMessage(`{"note":"\u0007"}`) },
			} {
				r := sample("t")
				change(&r)
				if _, err := s.Append(ctx, r); !errors.Is(err, ErrInvalid) {
					t.Errorf("%s: %v", what, err)
				}
			}
			r := sample("t")
			r.Ruling, r.Corrections[0].Reason = "8,000 to Aiko\r\nafter review\tof the photo", "glare\nunder the lamp"
			if _, err := s.Append(ctx, r); err != nil {
				t.Fatalf("line breaks in free text: %v", err)
			}
			if _, err := s.AppendGameEvent(ctx, GameEvent{Game: "Q\x001", Seq: 1, Kind: "start", Body: json.RawMessage(`{}`)}); !errors.Is(err, ErrInvalid) {
				t.Errorf("NUL in a game id: %v", err)
			}
			if _, err := s.AppendGameEvent(ctx, GameEvent{Game: "Q1", Seq: 1, Kind: "start", Body: json.RawMessage(`{"players":["A\u0000"]}`)}); !errors.Is(err, ErrInvalid) {
				t.Errorf("NUL in a game log's body: %v", err)
			}
			if _, err := s.AppendTableSetup(ctx, TableSetup{Table: "t\x00", Body: json.RawMessage(`{}`)}); !errors.Is(err, ErrInvalid) {
				t.Errorf("NUL in a table: %v", err)
			}
			for _, q := range []Query{{Table: "\x00"}, {Game: "\xff"}} {
				if _, _, err := s.List(ctx, q); !errors.Is(err, ErrInvalid) {
					t.Errorf("query %+v: %v", q, err)
				}
			}
			list, _, err := s.List(ctx, Query{})
			if err != nil || len(list) != 1 {
				t.Fatalf("%d records stored (want the one with line breaks): %v", len(list), err)
			}
		})
	}
}

// TestGameLogChained: an entry changed or removed behind the store's back
// stops its game's log there, says which entry, and the log takes no more
// entries; other games' logs are whole.
func TestGameLogChained(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			s := open(t, c)
			for _, game := range []string{"Q1", "Q2", "Q3"} {
				for seq := 1; seq <= 3; seq++ {
					if _, err := s.AppendGameEvent(ctx, GameEvent{Game: game, Seq: seq, Kind: "play", Body: json.RawMessage(fmt.Sprintf(`{"n":%d}`, seq))}); err != nil {
						t.Fatal(err)
					}
				}
			}
			unguard(t, s, "game_events")
			mustExec(t, s, `UPDATE game_events SET body = '{"n":20}' WHERE game = 'Q1' AND seq = 2`)
			// Removing an entry: below the delete trigger too.
			if s.d.name == "sqlite" {
				mustExec(t, s, `DROP TRIGGER game_events_no_delete`)
			}
			mustExec(t, s, `DELETE FROM game_events WHERE game = 'Q2' AND seq = 2`)
			s.Close()
			s = open(t, c)
			logs, err := s.GameLogs(ctx)
			if err != nil || len(logs) != 3 {
				t.Fatalf("logs: %v %+v", err, logs)
			}
			if l := logs[0]; len(l.Events) != 1 || !strings.Contains(l.Tampered, "entry 2 of its log was changed") {
				t.Errorf("Q1 (entry 2 changed): %d entries, %q", len(l.Events), l.Tampered)
			}
			if l := logs[1]; len(l.Events) != 1 || !strings.Contains(l.Tampered, "from entry 1 to entry 3") {
				t.Errorf("Q2 (entry 2 removed): %d entries, %q", len(l.Events), l.Tampered)
			}
			if l := logs[2]; len(l.Events) != 3 || l.Tampered != "" {
				t.Errorf("Q3 (untouched): %d entries, %q", len(l.Events), l.Tampered)
			}
			for game, seq := range map[string]int{"Q1": 4, "Q2": 3} {
				if _, err := s.AppendGameEvent(ctx, GameEvent{Game: game, Seq: seq, Kind: "play", Body: json.RawMessage(`{}`)}); !errors.Is(err, ErrTampered) {
					t.Errorf("%s took an entry: %v", game, err)
				}
			}
			if _, err := s.AppendGameEvent(ctx, GameEvent{Game: "Q3", Seq: 4, Kind: "play", Body: json.RawMessage(`{}`)}); err != nil {
				t.Errorf("Q3: %v", err)
			}
		})
	}
}

// TestTableSetupChained: a setup changed behind the store's back is
// reported; while it is the one in force the table is left out, and a
// new setup puts it back.
func TestTableSetupChained(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			for _, st := range []TableSetup{{Table: "t1", Body: json.RawMessage(`{"v":1}`)}, {Table: "t1", Body: json.RawMessage(`{"v":2}`)}, {Table: "t2", Body: json.RawMessage(`{"v":3}`)}} {
				if _, err := s.AppendTableSetup(ctx, st); err != nil {
					t.Fatal(err)
				}
			}
			unguard(t, s, "table_setups")
			mustExec(t, s, `UPDATE table_setups SET body = '{"v":9}' WHERE body = '{"v":2}'`)
			got, problems, err := s.TableSetups(ctx)
			if err != nil || len(got) != 1 || got["t2"].Table != "t2" || len(problems) != 2 || !strings.Contains(problems[0], "table t1") {
				t.Fatalf("setups %v, problems %q, %v", got, problems, err)
			}
			if _, err := s.AppendTableSetup(ctx, TableSetup{Table: "t1", Body: json.RawMessage(`{"v":4}`)}); err != nil {
				t.Fatal(err)
			}
			got, problems, err = s.TableSetups(ctx)
			if err != nil || string(got["t1"].Body) != `{"v":4}` || len(problems) != 1 {
				t.Fatalf("after a new setup: %v, problems %q, %v", got, problems, err)
			}
		})
	}
}

// Digests the version before schema step 5 gave sample("table 1"),
// sample("table 2") without its photo, and an overturn of record 1
// (computed by that version's code).
const (
	v4DigestWithPhoto = "6654b30c5b7231af6e8bd9bac03f40a99ef55e0ce2bf1c61cdf04c98401f00cd"
	v4DigestNoPhoto   = "0dacb9a2433ef4d27ae7f6bd316edda2be4a5431358d78a9b4231346b6ee07c8"
	v4DigestOverturn  = "1cb32d913c9dae6f85b2af2deb541890c65306d25970e6be51dec0deffc600ab"
)

// TestUpgradeSealsOldRows: a record of schema step 4 (rows written as that
// version wrote them) is upgraded: records whose old digest holds are
// sealed anew and keep the old digest, one that had been changed is
// reported as tampered from then on, and game logs and table setups get
// their chains.
func TestUpgradeSealsOldRows(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			all := migrations
			migrations = migrations[:4]
			old, err := Open(ctx, c)
			migrations = all
			if err != nil {
				t.Fatal(err)
			}
			insert := func(r Record, photo []byte, digest string) {
				t.Helper()
				corr, _ := json.Marshal(r.Corrections)
				if r.Corrections == nil {
					corr = []byte("[]")
				}
				var p, over any
				if photo != nil {
					p = photo
				}
				if r.Overturns != 0 {
					over = r.Overturns
				}
				if _, err := old.db.Exec(rebind(old.d, `INSERT INTO referee_records (at_us, table_name, game, hand, asked_by, photo_sha256, photo,
					model_version, engine_version, rule_set, recognized, corrections, request, claimed, computed, ruling,
					referee, overturns, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
					int64(1700000000000000), r.Table, r.Game, r.Hand, r.AskedBy, r.PhotoSHA256, p, r.ModelVersion, r.EngineVersion,
					r.RuleSet, r.Recognized, string(corr), string(r.Request), r.Claimed, string(r.Computed), r.Ruling, r.Referee, over, digest); err != nil {
					t.Fatal(err)
				}
			}
			withPhoto := sample("table 1")
			insert(withPhoto, withPhoto.Photo, v4DigestWithPhoto)
			noPhoto := sample("table 2")
			noPhoto.Photo = nil
			insert(noPhoto, nil, v4DigestNoPhoto)
			insert(Record{Table: "table 1", AskedBy: "player:Chloe", EngineVersion: "test", RuleSet: "riichi/msmc-2016", Ruling: "upheld on review", Overturns: 1}, nil, v4DigestOverturn)
			changed := sample("table 1")
			changed.Claimed = "12000" // changed after that version stored it
			insert(changed, changed.Photo, v4DigestWithPhoto)
			for seq := 1; seq <= 2; seq++ {
				if _, err := old.db.Exec(rebind(old.d, `INSERT INTO game_events (game, seq, at_us, kind, by_whom, body) VALUES (?, ?, ?, ?, ?, ?)`),
					"Q1", seq, 1700000000000000+seq, "play", "referee", fmt.Sprintf(`{"n":%d}`, seq)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := old.db.Exec(rebind(old.d, `INSERT INTO table_setups (table_name, at_us, by_whom, body) VALUES (?, ?, ?, ?)`),
				"t1", 1700000000000000, "organizer", `{"v":1}`); err != nil {
				t.Fatal(err)
			}
			old.Close()

			s := open(t, c)
			list, _, err := s.List(ctx, Query{})
			if err != nil || len(list) != 4 {
				t.Fatalf("list after the upgrade: %v %d", err, len(list))
			}
			for i, legacy := range []string{v4DigestWithPhoto, v4DigestNoPhoto, v4DigestOverturn} {
				if r := list[i]; r.Tampered != "" || r.LegacyDigest != legacy || r.Digest == legacy || r.Verify() != nil {
					t.Errorf("record %d after the upgrade: %+v", r.ID, r)
				}
			}
			if r := list[3]; !strings.Contains(r.Tampered, "upgraded") || r.LegacyDigest != "" {
				t.Errorf("the record changed before the upgrade: %+v", r)
			}
			if _, photo, err := s.Photo(ctx, list[0].ID); err != nil || !bytes.Equal(photo, withPhoto.Photo) {
				t.Errorf("the old photo: %v", err)
			}
			logs, err := s.GameLogs(ctx)
			if err != nil || len(logs) != 1 || len(logs[0].Events) != 2 || logs[0].Tampered != "" {
				t.Fatalf("game logs after the upgrade: %v %+v", err, logs)
			}
			if _, err := s.AppendGameEvent(ctx, GameEvent{Game: "Q1", Seq: 3, Kind: "play", Body: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
			setups, problems, err := s.TableSetups(ctx)
			if err != nil || string(setups["t1"].Body) != `{"v":1}` || len(problems) != 0 {
				t.Fatalf("setups after the upgrade: %v %q %v", setups, problems, err)
			}
			// Still append-only after the upgrade.
			if _, err := s.db.Exec(`UPDATE referee_records SET ruling = 'x'`); err == nil {
				t.Error("records can be changed after the upgrade")
			}
			if _, err := s.db.Exec(`UPDATE game_events SET body = '{}'`); err == nil {
				t.Error("game logs can be changed after the upgrade")
			}
			if _, err := s.db.Exec(`UPDATE table_setups SET body = '{}'`); err == nil {
				t.Error("table setups can be changed after the upgrade")
			}
		})
	}
}

// TestUpgradeFixture: testdata/v4-referee.db was written by the service
// of schema step 4 (a game of two hands, three records, one with a photo,
// two setups of one table, a tournament); it opens and checks whole.
func TestUpgradeFixture(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "v4-referee.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
	if err := os.WriteFile(c.SQLitePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, c)
	list, _, err := s.List(ctx, Query{})
	if err != nil || len(list) != 3 {
		t.Fatalf("records: %v %d", err, len(list))
	}
	for _, r := range list {
		if r.Tampered != "" || r.LegacyDigest == "" {
			t.Errorf("record %d: %+v", r.ID, r)
		}
	}
	logs, err := s.GameLogs(ctx)
	if err != nil || len(logs) != 2 || len(logs[0].Events) != 3 || logs[0].Tampered != "" || logs[1].Tampered != "" {
		t.Fatalf("logs: %v %+v", err, logs)
	}
	setups, problems, err := s.TableSetups(ctx)
	if err != nil || len(setups) != 1 || len(problems) != 0 {
		t.Fatalf("setups: %v %v %v", setups, problems, err)
	}
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM referee_schema`).Scan(&n); err != nil || n != len(migrations) {
		t.Fatalf("%d schema steps, want %d: %v", n, len(migrations), err)
	}
}

// BenchmarkListWithPhotos lists 40 records that keep 1 MiB photos each
// (the case had 14 MB photos): the cost is the rows', not the
// photos'.
func BenchmarkListWithPhotos(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, Config{SQLitePath: filepath.Join(b.TempDir(), "bench.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 40; i++ {
		r := sample("bench")
		r.Photo, r.PhotoSHA256 = bytes.Repeat([]byte{byte(i)}, 1<<20), ""
		if _, err := s.Append(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if list, _, err := s.List(ctx, Query{}); err != nil || len(list) != 40 {
			b.Fatal(len(list), err)
		}
	}
}
