package api

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"mjscan/referee"
)

// recordBackends are the referee records these tests run on: SQLite
// always, PostgreSQL when MJSCAN_TEST_POSTGRES_DSN is set
// (scripts/postgres-test.sh starts one).
func recordBackends(t *testing.T) map[string]func(t *testing.T) referee.Config {
	out := map[string]func(t *testing.T) referee.Config{
		"sqlite": func(t *testing.T) referee.Config {
			return referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
		},
	}
	if dsn := os.Getenv("MJSCAN_TEST_POSTGRES_DSN"); dsn != "" {
		out["postgres"] = func(t *testing.T) referee.Config { return pgTestSchema(t, dsn) }
	} else {
		t.Log("MJSCAN_TEST_POSTGRES_DSN is not set: PostgreSQL not tested here (scripts/postgres-test.sh starts one)")
	}
	return out
}

// tournamentService is the service with its tournament routes on one
// referee record; stop ends it (a restart is a new one on the same
// record).
type tournamentService struct {
	url   string
	srv   *Server
	store *referee.Store
	log   *syncBuffer
	stop  func()
}

func startTournament(t *testing.T, c referee.Config) *tournamentService {
	t.Helper()
	logs := &syncBuffer{}
	s, err := New(DefaultConfig(), Deps{Version: "test", Log: log.New(logs, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	store, err := referee.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		store.Close()
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	var once sync.Once
	stop := func() { once.Do(func() { ts.Close(); store.Close() }) }
	t.Cleanup(stop)
	return &tournamentService{url: ts.URL, srv: s, store: store, log: logs, stop: stop}
}

// behindTheStore opens the record's database directly, with UPDATE
// allowed on table: what someone with the database's password could do.
func behindTheStore(t *testing.T, c referee.Config, table string) *sql.DB {
	t.Helper()
	var db *sql.DB
	var err error
	var unguard string
	if c.PostgresDSN != "" {
		db, err = sql.Open("pgx", c.PostgresDSN)
		unguard = `ALTER TABLE ` + table + ` DISABLE TRIGGER ` + table + `_no_change`
	} else {
		db, err = sql.Open("sqlite", "file:"+c.SQLitePath)
		unguard = `DROP TRIGGER ` + table + `_no_update`
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(unguard); err != nil {
		t.Fatal(err)
	}
	return db
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// jpegLike is a photo of n bytes that starts as a JPEG does.
func jpegLike(n int, seed byte) []byte {
	p := bytes.Repeat([]byte{seed}, n)
	copy(p, "\xff\xd8\xff\xe0")
	return p
}

func storeRecord(t *testing.T, s *referee.Store, table string, photo []byte) referee.Record {
	t.Helper()
	r, err := s.Append(context.Background(), referee.Record{
		Table: table, Game: "Q1", Hand: 1, AskedBy: "player:Ben", Photo: photo, EngineVersion: "test",
		RuleSet: "riichi/msmc-2016", Claimed: "8000", Ruling: "8,000 to Ben",
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRecordsListWithoutPhotos: listing records reads none of their
// photos (16 photos of 1 MiB cost the listing far less than one), comes in
// pages, and each photo comes on its own route, checked against its hash.
func TestRecordsListWithoutPhotos(t *testing.T) {
	for name, config := range recordBackends(t) {
		t.Run(name, func(t *testing.T) {
			c := config(t)
			svc := startTournament(t, c)
			u := svc.url
			const size = 1 << 20
			var ids []int64
			for i := 0; i < 16; i++ {
				ids = append(ids, storeRecord(t, svc.store, "table 1", jpegLike(size, byte(i))).ID)
			}
			bare := storeRecord(t, svc.store, "table 1", nil)

			call(t, "GET", u+"/v1/records?limit=1", testOrganizerToken, "") // warm up
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			a := call(t, "GET", u+"/v1/records", testOrganizerToken, "")
			runtime.ReadMemStats(&after)
			if a.status != 200 {
				t.Fatalf("list: %d %s", a.status, a.body)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size {
				t.Errorf("listing 17 records allocated %d bytes: more than one of their photos, so photos were read", alloc)
			}
			list := a.json["records"].([]any)
			if len(list) != 17 || a.json["next_after"] != nil {
				t.Fatalf("%d records, next_after %v: %.300s", len(list), a.json["next_after"], a.body)
			}
			for _, x := range list[:16] {
				r := x.(map[string]any)
				if r["photo"] != nil || r["photo_size"] != float64(size) || r["tampered"] != nil {
					t.Fatalf("listed record %.300v", r)
				}
			}

			// Pages.
			var got []int64
			next := ""
			for page := 0; ; page++ {
				a := call(t, "GET", u+"/v1/records?limit=5"+next, testOrganizerToken, "")
				if a.status != 200 || page > 4 {
					t.Fatalf("page %d: %d %s", page, a.status, a.body)
				}
				for _, x := range a.json["records"].([]any) {
					got = append(got, int64(x.(map[string]any)["id"].(float64)))
				}
				n, ok := a.json["next_after"].(float64)
				if !ok {
					break
				}
				next = fmt.Sprintf("&after=%d", int64(n))
			}
			if want := append(append([]int64{}, ids...), bare.ID); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("pages of 5 gave %v, want %v", got, want)
			}
			for _, bad := range []string{"0", "1001", "ten", "-1"} {
				wantProblem(t, call(t, "GET", u+"/v1/records?limit="+bad, testOrganizerToken, ""), 400, "bad_request")
			}

			// The photo on its own route.
			a = call(t, "GET", fmt.Sprintf("%s/v1/records/%d/photo", u, ids[3]), testRefereeToken, "")
			if a.status != 200 || !bytes.Equal(a.body, jpegLike(size, 3)) || a.header.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("photo: %d %q %d bytes", a.status, a.header.Get("Content-Type"), len(a.body))
			}
			wantProblem(t, call(t, "GET", fmt.Sprintf("%s/v1/records/%d/photo", u, bare.ID), testRefereeToken, ""), 404, codeNotFound)
			wantProblem(t, call(t, "GET", u+"/v1/records/99999/photo", testRefereeToken, ""), 404, codeNotFound)
			wantProblem(t, call(t, "GET", fmt.Sprintf("%s/v1/records/%d/photo", u, ids[3]), "", ""), 401, codeUnauthorized)
			other := call(t, "POST", u+"/v1/games", testOrganizerToken, strings.ReplaceAll(strings.ReplaceAll(gameBody, "Q1", "Q2"), "table 1", "table 2")).str("table_token")
			wantProblem(t, call(t, "GET", fmt.Sprintf("%s/v1/records/%d/photo", u, ids[3]), other, ""), 404, codeNotFound) // as for none (#16 A11)

			// A photo changed in the database: the listing, which does not
			// read photos, still answers; the photo itself is refused.
			db := behindTheStore(t, c, "referee_photos")
			mustExec(t, db, fmt.Sprintf(`UPDATE referee_photos SET photo = (SELECT photo FROM referee_photos WHERE record_id = %d) WHERE record_id = %d`, ids[4], ids[5]))
			if a := call(t, "GET", u+"/v1/records", testOrganizerToken, ""); a.status != 200 || len(a.json["records"].([]any)) != 17 {
				t.Fatalf("list after a photo was changed: %d %.300s", a.status, a.body)
			}
			wantProblem(t, call(t, "GET", fmt.Sprintf("%s/v1/records/%d/photo", u, ids[5]), testRefereeToken, ""), 409, codeTampered)
		})
	}
}

// TestTamperedRecordListed: a record changed in the database, and one the
// database cannot give back whole, are listed marked as such; the others
// are listed as they are, and the listing answers 200.
func TestTamperedRecordListed(t *testing.T) {
	for name, config := range recordBackends(t) {
		t.Run(name, func(t *testing.T) {
			c := config(t)
			svc := startTournament(t, c)
			var ids []int64
			for i := 0; i < 4; i++ {
				ids = append(ids, storeRecord(t, svc.store, "table 1", nil).ID)
			}
			db := behindTheStore(t, c, "referee_records")
			mustExec(t, db, fmt.Sprintf(`UPDATE referee_records SET claimed = '12000' WHERE id = %d`, ids[1]))
			mustExec(t, db, fmt.Sprintf(`UPDATE referee_records SET corrections = '{not json' WHERE id = %d`, ids[2]))
			if name == "sqlite" {
				// A value of the wrong type, as a damaged page can give.
				mustExec(t, db, fmt.Sprintf(`UPDATE referee_records SET at_us = 'yesterday' WHERE id = %d`, ids[3]))
			}
			a := call(t, "GET", svc.url+"/v1/records", testOrganizerToken, "")
			if a.status != 200 {
				t.Fatalf("one tampered record made the listing answer %d: %s", a.status, a.body)
			}
			list := a.json["records"].([]any)
			if len(list) != 4 {
				t.Fatalf("%d records listed, want 4: %s", len(list), a.body)
			}
			want := []bool{false, true, true, name == "sqlite"}
			var flagged []string
			for i, x := range list {
				r := x.(map[string]any)
				if r["id"] != float64(ids[i]) {
					t.Fatalf("record %d listed as %v", ids[i], r["id"])
				}
				if _, marked := r["tampered"].(string); marked != want[i] {
					t.Errorf("record %d: tampered %v, want %v: %v", ids[i], r["tampered"], want[i], r)
				}
				if want[i] {
					flagged = append(flagged, fmt.Sprint(ids[i]))
				}
			}
			if fmt.Sprint(a.json["tampered"]) != "["+strings.Join(flagged, " ")+"]" {
				t.Errorf("the page's tampered %v, want %v", a.json["tampered"], flagged)
			}
			one := call(t, "GET", fmt.Sprintf("%s/v1/records/%d", svc.url, ids[1]), testOrganizerToken, "")
			if one.status != 200 || one.json["record"].(map[string]any)["tampered"] == nil {
				t.Fatalf("the tampered record on its own: %d %s", one.status, one.body)
			}
			if one := call(t, "GET", fmt.Sprintf("%s/v1/records/%d", svc.url, ids[0]), testOrganizerToken, ""); one.status != 200 || one.json["record"].(map[string]any)["tampered"] != nil {
				t.Fatalf("an intact record: %d %s", one.status, one.body)
			}
		})
	}
}

// TestHealthChecksDatabase: /healthz and /readyz report the referee
// record, and say so when it stops answering.
func TestHealthChecksDatabase(t *testing.T) {
	svc := startTournament(t, referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")})
	svc.srv.health.maxAge = 0
	a := call(t, "GET", svc.url+"/healthz", "", "")
	db, _ := a.json["database"].(map[string]any)
	if db == nil || db["ok"] != true {
		t.Fatalf("healthz without the database's state: %s", a.body)
	}
	// No recogniser here: not healthy, but ready to score and record.
	if a.status != 503 {
		t.Fatalf("healthz without a recogniser: %d", a.status)
	}
	if a := call(t, "GET", svc.url+"/readyz", "", ""); a.status != 200 || a.str("status") != "ok" {
		t.Fatalf("readyz: %d %s", a.status, a.body)
	}
	svc.store.Close()
	a = call(t, "GET", svc.url+"/healthz", "", "")
	db, _ = a.json["database"].(map[string]any)
	if a.status != 503 || db == nil || db["ok"] != false || !strings.Contains(db["detail"].(string), "referee record") {
		t.Fatalf("healthz with the database gone: %d %s", a.status, a.body)
	}
	if strings.Contains(string(a.body), "sql:") {
		t.Errorf("healthz shows the driver's error: %s", a.body)
	}
	if a := call(t, "GET", svc.url+"/readyz", "", ""); a.status != 503 || a.str("status") != "unavailable" {
		t.Fatalf("readyz with the database gone: %d %s", a.status, a.body)
	}
}

// TestControlCharactersRefused: a NUL (or another control character, or
// text that is not UTF-8) in a string field is a 400 on both stores, not
// a 500 on PostgreSQL and a stored record on SQLite. Line breaks stay
// allowed in free text.
func TestControlCharactersRefused(t *testing.T) {
	for name, config := range recordBackends(t) {
		t.Run(name, func(t *testing.T) {
			svc := startTournament(t, config(t))
			u := svc.url
			for _, c := range []struct{ what, method, path, token, body string }{
				{"a NUL in asked_by", "POST", "/v1/records", testRefereeToken, strings.Replace(recordBody, "player:Ben", `player:\u0000Ben`, 1)},
				{"a bell in the table", "POST", "/v1/records", testRefereeToken, strings.Replace(recordBody, `"table 1"`, `"table\u0007 1"`, 1)},
				{"a NUL in the ruling", "POST", "/v1/records", testRefereeToken, strings.Replace(recordBody, "8,000 to Ben", `8,000\u0000 to Ben`, 1)},
				{"a NUL in a correction", "POST", "/v1/records", testRefereeToken, strings.Replace(recordBody, `"claimed"`, `"corrections":[{"by":"referee:Kim","from":"5p","to":"5s","reason":"glare\u0000"}],"claimed"`, 1)},
				{"a NUL in the request", "POST", "/v1/records", testRefereeToken, strings.Replace(recordBody, `"claimed"`, `"request":{"hand":"\u0000"},"claimed"`, 1)},
				{"a NUL in a game id", "POST", "/v1/games", testOrganizerToken, strings.Replace(gameBody, `"Q1"`, `"Q\u00001"`, 1)},
				{"an escape in a player", "POST", "/v1/games", testOrganizerToken, strings.Replace(gameBody, `"Aiko"`, `"Ai\u001bko"`, 1)},
				{"a NUL in a table", "POST", "/v1/tables", testOrganizerToken, `{"table":"table\u0000 1","snapshot_url":"http://127.0.0.1:9/s.jpg"}`},
				{"a NUL in a query", "GET", "/v1/records?table=%00", testOrganizerToken, ""},
				{"a query not UTF-8", "GET", "/v1/records?game=%ff", testOrganizerToken, ""},
			} {
				a := call(t, c.method, u+c.path, c.token, c.body)
				if a.status != 400 {
					t.Errorf("%s: %d, want 400: %s", c.what, a.status, a.body)
					continue
				}
				wantProblem(t, a, 400, "bad_request")
			}
			free := strings.Replace(recordBody, "8,000 to Ben", `8,000 to Ben\nafter a review\tof the photo`, 1)
			if a := call(t, "POST", u+"/v1/records", testRefereeToken, free); a.status != 201 {
				t.Fatalf("a ruling over two lines: %d %s", a.status, a.body)
			}
			a := call(t, "GET", u+"/v1/records", testOrganizerToken, "")
			if n := len(a.json["records"].([]any)); a.status != 200 || n != 1 {
				t.Fatalf("%d records stored, want the one ruling over two lines: %s", n, a.body)
			}
			if a := call(t, "GET", u+"/v1/games/Q1", testOrganizerToken, ""); a.status != 404 {
				t.Fatalf("a refused game was stored: %d %s", a.status, a.body)
			}
		})
	}
}

// TestGameLogEditedInTheDatabase: a game log entry edited in the database
// does not change the game when the service restarts: the game stands as
// it was before that entry, says why, and takes no more hands; other
// games are untouched. A table setup edited in the database is not used.
func TestGameLogEditedInTheDatabase(t *testing.T) {
	for name, config := range recordBackends(t) {
		t.Run(name, func(t *testing.T) {
			c := config(t)
			svc := startTournament(t, c)
			u := svc.url
			call(t, "POST", u+"/v1/games", testOrganizerToken, gameBody)
			call(t, "POST", u+"/v1/games", testOrganizerToken, strings.ReplaceAll(gameBody, "Q1", "Q2"))
			for _, g := range []string{"Q1", "Q2"} {
				if a := call(t, "POST", u+"/v1/games/"+g+"/hands", testRefereeToken, handBody); a.status != 201 {
					t.Fatalf("hand: %d %s", a.status, a.body)
				}
				if a := call(t, "POST", u+"/v1/games/"+g+"/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
					t.Fatalf("draw: %d %s", a.status, a.body)
				}
			}
			table := `{"table":"table 1","snapshot_url":"http://127.0.0.1:9/snap.jpg"}`
			if a := call(t, "POST", u+"/v1/tables", testOrganizerToken, table); a.status != 201 {
				t.Fatalf("table: %d %s", a.status, a.body)
			}
			svc.stop()

			// Give Q1's first hand to Dev instead of Ben, and point the
			// table's camera elsewhere.
			db := behindTheStore(t, c, "game_events")
			mustExec(t, db, `UPDATE game_events SET body = replace(body, '"player":1', '"player":3') WHERE game = 'Q1' AND seq = 2`)
			db = behindTheStore(t, c, "table_setups")
			mustExec(t, db, `UPDATE table_setups SET body = replace(body, '127.0.0.1:9', '10.0.0.1:80')`)

			svc = startTournament(t, c)
			u = svc.url
			a := call(t, "GET", u+"/v1/games/Q1", testOrganizerToken, "")
			if a.status != 200 {
				t.Fatalf("Q1 after the restart: %d %s", a.status, a.body)
			}
			if fmt.Sprint(a.json["scores"]) != "[25000 25000 25000 25000]" || a.json["hands"] != nil && len(a.json["hands"].([]any)) != 0 {
				t.Errorf("the edited entry changed Q1: scores %v, hands %v", a.json["scores"], a.json["hands"])
			}
			if !strings.Contains(a.str("tampered"), "entry 2") {
				t.Errorf("Q1 does not say its log was changed: %s", a.body)
			}
			wantProblem(t, call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw"}`), 409, codeTampered)
			if !strings.Contains(svc.log.String(), "game Q1: entry 2 of its log was changed") {
				t.Errorf("the start-up log does not report Q1:\n%s", svc.log.String())
			}
			a = call(t, "GET", u+"/v1/games/Q2", testOrganizerToken, "")
			if fmt.Sprint(a.json["scores"]) != "[25000 33000 17000 25000]" || a.json["tampered"] != nil {
				t.Errorf("Q2, untouched: %s", a.body)
			}
			if a := call(t, "POST", u+"/v1/games/Q2/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
				t.Errorf("Q2 takes hands: %d %s", a.status, a.body)
			}
			wantProblem(t, call(t, "GET", u+"/v1/tables/table%201", testOrganizerToken, ""), 404, codeNotFound)
			if !strings.Contains(svc.log.String(), "table table 1: its setup of") {
				t.Errorf("the start-up log does not report the table:\n%s", svc.log.String())
			}
			// Registering the table again puts it right.
			if a := call(t, "POST", u+"/v1/tables", testOrganizerToken, table); a.status != 201 {
				t.Fatalf("table again: %d %s", a.status, a.body)
			}
			svc.stop()
			svc = startTournament(t, c)
			if a := call(t, "GET", svc.url+"/v1/tables/table%201", testOrganizerToken, ""); a.status != 200 {
				t.Fatalf("the table registered again: %d %s", a.status, a.body)
			}
		})
	}
}

// TestRecordMadeByTheLastVersion: a referee record written by the version
// before digests covered game logs (testdata/v4-referee.db: a game of two
// hands, three records, one with a photo, two table setups, a tournament)
// opens, checks and keeps working.
func TestRecordMadeByTheLastVersion(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("..", "referee", "testdata", "v4-referee.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
	if err := os.WriteFile(c.SQLitePath, fixture, 0o644); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		svc := startTournament(t, c)
		u := svc.url
		a := call(t, "GET", u+"/v1/games/Q1", testOrganizerToken, "")
		if a.status != 200 || fmt.Sprint(a.json["scores"]) != "[25000 33000 17000 25000]" || len(a.json["hands"].([]any)) != 2+round || a.json["tampered"] != nil {
			t.Fatalf("round %d: Q1: %d %s", round, a.status, a.body)
		}
		if a := call(t, "POST", u+"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
			t.Fatalf("round %d: a hand after the upgrade: %d %s", round, a.status, a.body)
		}
		a = call(t, "GET", u+"/v1/records", testOrganizerToken, "")
		list := a.json["records"].([]any)
		if a.status != 200 || len(list) != 3 || a.json["tampered"] != nil {
			t.Fatalf("round %d: records: %d %s", round, a.status, a.body)
		}
		for i, legacy := range []string{
			"a9c54baf7c2848c0e5a0d49d53b0d6c4433c4904e5ec963212b30731968f78d2",
			"21c64214cf510c440c12d86d94f99ba7cd64ae919c877764b1cb8a3dc9b3a1a7",
			"1cb32d913c9dae6f85b2af2deb541890c65306d25970e6be51dec0deffc600ab",
		} {
			if r := list[i].(map[string]any); r["legacy_digest"] != legacy || r["digest"] == legacy {
				t.Errorf("round %d: record %d: digest %v, legacy %v", round, i+1, r["digest"], r["legacy_digest"])
			}
		}
		a = call(t, "GET", u+"/v1/records/1/photo", testRefereeToken, "")
		if a.status != 200 || string(a.body) != "\xff\xd8\xff\xe0 not really a jpeg" {
			t.Fatalf("round %d: the old photo: %d %q", round, a.status, a.body)
		}
		a = call(t, "GET", u+"/v1/tables/table%201", testOrganizerToken, "")
		if a.status != 200 || !strings.Contains(string(a.body), "snap2.jpg") {
			t.Fatalf("round %d: the table: %d %s", round, a.status, a.body)
		}
		if a := call(t, "GET", u+"/v1/tournaments/april", testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("round %d: the tournament: %d %s", round, a.status, a.body)
		}
		if l := svc.log.String(); l != "" {
			t.Errorf("round %d: the start-up log reports problems:\n%s", round, l)
		}
		svc.stop()
	}
}
