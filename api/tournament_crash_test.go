package api

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mjscan/referee"
)

// envServeChild, when set to a JSON referee.Config, makes the test binary
// serve the API with the tournament routes on a loopback port (see
// TestMain): the service the crash test kills.
const envServeChild = "MJSCAN_API_CRASH_CHILD"

func TestMain(m *testing.M) {
	if c := os.Getenv(envServeChild); c != "" {
		os.Exit(serveChild(c))
	}
	os.Exit(m.Run())
}

func serveChild(config string) int {
	var c referee.Config
	if err := json.Unmarshal([]byte(config), &c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	store, err := referee.Open(context.Background(), c)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := New(DefaultConfig(), Deps{Version: "crash-test"})
	if err == nil {
		err = s.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("listening %s\n", ln.Addr())
	_ = http.Serve(ln, s.Handler())
	return 0
}

// startService starts the service on a record and returns its URL and
// process.
func startService(t *testing.T, c referee.Config) (string, *exec.Cmd) {
	t.Helper()
	cfg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServeChild+"="+string(cfg))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening ") {
		t.Fatalf("the service did not start: %q %v", line, err)
	}
	go io.Copy(io.Discard, out)
	return "http://" + strings.TrimSpace(strings.TrimPrefix(line, "listening ")), cmd
}

type acked struct{ digest, claimed string }

// TestCrashKeepsAcknowledged: the service is SIGKILLed while clients write
// referee records and hands under load; restarted on the same record,
// it still has every record and every hand it acknowledged, intact. On
// SQLite, and on PostgreSQL when MJSCAN_TEST_POSTGRES_DSN is set.
func TestCrashKeepsAcknowledged(t *testing.T) {
	configs := map[string]func(t *testing.T) referee.Config{
		"sqlite": func(t *testing.T) referee.Config {
			return referee.Config{SQLitePath: filepath.Join(t.TempDir(), "referee.db")}
		},
	}
	if dsn := os.Getenv("MJSCAN_TEST_POSTGRES_DSN"); dsn != "" {
		configs["postgres"] = func(t *testing.T) referee.Config { return pgTestSchema(t, dsn) }
	} else {
		t.Log("MJSCAN_TEST_POSTGRES_DSN is not set: PostgreSQL not tested here (scripts/postgres-test.sh starts one)")
	}
	for name, config := range configs {
		t.Run(name, func(t *testing.T) {
			c := config(t)
			url, cmd := startService(t, c)
			var mu sync.Mutex
			records := map[int64]acked{}
			hands := map[string]int{} // acknowledged hands by game
			stop := make(chan struct{})
			var wg sync.WaitGroup
			client := &http.Client{Timeout: 5 * time.Second}
			post := func(path, body string) (map[string]any, bool) {
				req, _ := http.NewRequest("POST", url+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				tok := testRefereeToken
				if path == "/v1/games" {
					tok = testOrganizerToken
				}
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := client.Do(req)
				if err != nil {
					return nil, false // killed mid-request: not acknowledged
				}
				defer resp.Body.Close()
				var m map[string]any
				if resp.StatusCode != 201 || json.NewDecoder(resp.Body).Decode(&m) != nil {
					return nil, false
				}
				return m, true
			}
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						claimed := fmt.Sprintf("w%d-%d", w, i)
						m, ok := post("/v1/records", strings.Replace(recordBody, `"claimed":"8000"`, `"claimed":"`+claimed+`"`, 1))
						if !ok {
							continue
						}
						r := m["record"].(map[string]any)
						mu.Lock()
						records[int64(r["id"].(float64))] = acked{r["digest"].(string), claimed}
						mu.Unlock()
					}
				}(w)
			}
			wg.Add(1)
			go func() {
				// MCR games of 16 drawn hands, one after the other.
				defer wg.Done()
				for g := 1; ; g++ {
					id := fmt.Sprintf("M%d", g)
					if _, ok := post("/v1/games", `{"id":"`+id+`","table":"table 1","rules":"mcr","players":["a","b","c","d"]}`); !ok {
						return
					}
					for h := 0; h < 16; h++ {
						select {
						case <-stop:
							return
						default:
						}
						if _, ok := post("/v1/games/"+id+"/hands", `{"outcome":"draw"}`); ok {
							mu.Lock()
							hands[id]++
							mu.Unlock()
						}
					}
				}
			}()
			deadline := time.Now().Add(20 * time.Second)
			for {
				mu.Lock()
				n := len(records)
				mu.Unlock()
				if n >= 200 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("only %d records acknowledged in 20 s", n)
				}
				time.Sleep(5 * time.Millisecond)
			}
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			close(stop)
			wg.Wait()

			url, _ = startService(t, c)
			stored := map[int64]map[string]any{}
			after := int64(0)
			for {
				a := call(t, "GET", fmt.Sprintf("%s/v1/records?after=%d", url, after), testOrganizerToken, "")
				if a.status != 200 {
					t.Fatalf("reading records after the restart: %d %s", a.status, a.body)
				}
				list := a.json["records"].([]any)
				if len(list) == 0 {
					break
				}
				for _, x := range list {
					r := x.(map[string]any)
					after = int64(r["id"].(float64))
					stored[after] = r
				}
			}
			for id, want := range records {
				r, ok := stored[id]
				if !ok {
					t.Fatalf("acknowledged record %d is missing after the restart", id)
				}
				if r["digest"] != want.digest || r["claimed"] != want.claimed {
					t.Fatalf("record %d changed: %v, want %+v", id, r, want)
				}
			}
			total := 0
			for id, n := range hands {
				a := call(t, "GET", url+"/v1/games/"+id, testOrganizerToken, "")
				got, _ := a.json["hands"].([]any)
				if a.status != 200 || len(got) < n {
					t.Fatalf("game %s after the restart: %d, %d hands; %d were acknowledged", id, a.status, len(got), n)
				}
				total += n
			}
			t.Logf("%d records and %d hands in %d games acknowledged; %d records after the restart", len(records), total, len(hands), len(stored))
		})
	}
}

// pgTestSchema gives one test a schema of its own on the test PostgreSQL.
func pgTestSchema(t *testing.T, dsn string) referee.Config {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "api_test_" + hex.EncodeToString(b)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	t.Cleanup(func() {
		_, _ = db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		db.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return referee.Config{PostgresDSN: dsn + sep + "search_path=" + schema}
}
