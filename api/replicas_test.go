package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mjscan/referee"
)

// Two api.Servers on one referee record are two replicas: nothing that
// one knows may be missing from the other. These tests run on SQLite (two
// stores on one file, as two processes would have) and on PostgreSQL when
// MJSCAN_TEST_POSTGRES_DSN is set.

type replica struct {
	url   string
	srv   *Server
	store *referee.Store
}

func startReplica(t *testing.T, c referee.Config, rec Recognizer) *replica {
	t.Helper()
	srv, err := New(DefaultConfig(), Deps{Version: "test", Recognizer: rec})
	if err != nil {
		t.Fatal(err)
	}
	store, err := referee.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		store.Close()
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); store.Close() })
	return &replica{url: ts.URL, srv: srv, store: store}
}

// keyed is call with an Idempotency-Key.
func keyed(t *testing.T, method, url, token, body, key string) *answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", key)
	return do(t, req)
}

// TestReplicasShareState: a game, its table token, a table's camera and a
// tournament made through one replica are there at once on the other, and
// a hand recorded on either shows on both.
func TestReplicasShareState(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		a, b := startReplica(t, c, nil), startReplica(t, c, nil)
		g := call(t, "POST", a.url+"/v1/games", testOrganizerToken, gameBody)
		if g.status != 201 {
			t.Fatalf("game on A: %d %s", g.status, g.body)
		}
		tableToken := g.str("table_token")
		if got := call(t, "GET", b.url+"/v1/games/Q1", testOrganizerToken, ""); got.status != 200 {
			t.Fatalf("game on B: %d %s", got.status, got.body)
		}
		if got := call(t, "GET", b.url+"/v1/games/Q1", tableToken, ""); got.status != 200 {
			t.Fatalf("A's table token on B: %d %s", got.status, got.body)
		}
		if got := call(t, "POST", b.url+"/v1/games", testOrganizerToken, gameBody); got.status != 409 {
			t.Errorf("the same game again on B: %d %s, want 409", got.status, got.body)
		}
		if got := call(t, "POST", b.url+"/v1/games/Q1/hands", testRefereeToken, handBody); got.status != 201 {
			t.Fatalf("hand on B: %d %s", got.status, got.body)
		}
		ga, gb := call(t, "GET", a.url+"/v1/games/Q1", testOrganizerToken, ""), call(t, "GET", b.url+"/v1/games/Q1", testOrganizerToken, "")
		if !bytes.Equal(ga.body, gb.body) || !strings.Contains(string(ga.body), `"number":1`) {
			t.Errorf("the game differs between replicas or lacks B's hand:\nA %s\nB %s", ga.body, gb.body)
		}
		sa, sb := call(t, "GET", a.url+"/v1/standings", testOrganizerToken, ""), call(t, "GET", b.url+"/v1/standings", testOrganizerToken, "")
		if sa.status != 200 || !bytes.Equal(sa.body, sb.body) {
			t.Errorf("standings differ:\nA %d %s\nB %d %s", sa.status, sa.body, sb.status, sb.body)
		}

		if got := call(t, "POST", a.url+"/v1/tables", testOrganizerToken, `{"table":"table 1","snapshot_url":"http://127.0.0.1:1/snap.jpg"}`); got.status != 201 {
			t.Fatalf("table on A: %d %s", got.status, got.body)
		}
		if got := call(t, "GET", b.url+"/v1/tables/table%201", tableToken, ""); got.status != 200 || !strings.Contains(string(got.body), "snap.jpg") {
			t.Errorf("A's table on B: %d %s", got.status, got.body)
		}

		if got := call(t, "POST", a.url+"/v1/tournaments", testOrganizerToken, `{"id":"april","entrants":["Aiko","Ben","Chloe","Dev","Eve","Fay"]}`); got.status != 201 {
			t.Fatalf("tournament on A: %d %s", got.status, got.body)
		}
		if got := call(t, "POST", b.url+"/v1/tournaments/april/penalties", testOrganizerToken, `{"player":"Eve","points":10,"reason":"late"}`); got.status != 201 {
			t.Fatalf("penalty on B: %d %s", got.status, got.body)
		}
		ta, tb := call(t, "GET", a.url+"/v1/tournaments/april", testOrganizerToken, ""), call(t, "GET", b.url+"/v1/tournaments/april", testOrganizerToken, "")
		if ta.status != 200 || !bytes.Equal(ta.body, tb.body) || !strings.Contains(string(ta.body), "late") {
			t.Errorf("the tournament differs or lacks B's penalty:\nA %d %s\nB %d %s", ta.status, ta.body, tb.status, tb.body)
		}
	})
}

// TestReplicasIdempotentRetry: an upload retried with its Idempotency-Key
// on another replica gets the first answer and is read once, also when
// the retry arrives while the first is still being read; a hand posted
// twice with one key is recorded once, whichever replica takes the retry.
func TestReplicasIdempotentRetry(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		fake := &fakeRecognizer{rec: handRecognition(), block: make(chan struct{})}
		a, b := startReplica(t, c, fake), startReplica(t, c, fake)
		photo := samplePhoto(t)
		ct1, body1 := formWith(t, "first-boundary", photo, [2]string{"id", "k"})
		ct2, body2 := formWith(t, "retry-boundary", photo, [2]string{"id", "k"})

		first := make(chan *answer, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, a.url+"/v1/recognitions", bytes.NewReader(body1))
			req.Header.Set("Content-Type", ct1)
			req.Header.Set("Idempotency-Key", "phone-1")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				first <- &answer{status: -1, body: []byte(err.Error())}
				return
			}
			defer resp.Body.Close()
			bb, _ := io.ReadAll(resp.Body)
			first <- &answer{status: resp.StatusCode, header: resp.Header, body: bb}
		}()
		for fake.calls.Load() == 0 {
			time.Sleep(5 * time.Millisecond) // A is reading the photo
		}
		// B's retry waits for A's answer; A finishes shortly.
		time.AfterFunc(300*time.Millisecond, func() { close(fake.block) })
		retry := sendKeyed(t, b.url+"/v1/recognitions", ct2, body2, "phone-1")
		got := <-first
		if got.status != 200 || retry.status != 200 {
			t.Fatalf("first %d %s; retry on B %d %s", got.status, got.body, retry.status, retry.body)
		}
		if retry.header.Get("Idempotency-Replayed") != "true" || !bytes.Equal(got.body, retry.body) {
			t.Errorf("the retry on B was not the first answer:\nfirst %s\nretry %s", got.body, retry.body)
		}
		again := sendKeyed(t, a.url+"/v1/recognitions", ct2, body2, "phone-1")
		if again.status != 200 || !bytes.Equal(got.body, again.body) {
			t.Errorf("a later retry on A: %d %s", again.status, again.body)
		}
		if n := fake.calls.Load(); n != 1 {
			t.Errorf("the photo was read %d times over three tries on two replicas, want once", n)
		}
		if other := sendKeyed(t, b.url+"/v1/recognitions", ct1, jpegLikeForm(t), "phone-1"); other.status != 422 {
			t.Errorf("the key with another upload on B: %d %s, want 422", other.status, other.body)
		}

		if g := call(t, "POST", a.url+"/v1/games", testOrganizerToken, gameBody); g.status != 201 {
			t.Fatalf("game: %d %s", g.status, g.body)
		}
		h1 := keyed(t, "POST", a.url+"/v1/games/Q1/hands", testRefereeToken, handBody, "hand-1")
		h2 := keyed(t, "POST", b.url+"/v1/games/Q1/hands", testRefereeToken, handBody, "hand-1")
		if h1.status != 201 || h2.status != 201 || !bytes.Equal(h1.body, h2.body) {
			t.Fatalf("hand and its retry: %d %s / %d %s", h1.status, h1.body, h2.status, h2.body)
		}
		game := call(t, "GET", b.url+"/v1/games/Q1", testOrganizerToken, "")
		if n := strings.Count(string(game.body), `"number":`); n != 1 {
			t.Errorf("the hand posted twice with one key was recorded %d times: %s", n, game.body)
		}
		// The key is the referee's: another token does not get its answer.
		if other := keyed(t, "POST", b.url+"/v1/games/Q1/hands", testOrganizerToken, handBody, "hand-1"); other.status != 403 {
			t.Errorf("the organiser with the referee's key: %d %s, want 403", other.status, other.body)
		}
	})
}

// jpegLikeForm is an upload of another photo.
func jpegLikeForm(t *testing.T) []byte {
	_, body := formWith(t, "first-boundary", jpegLike(2000, 7), [2]string{"id", "k"})
	return body
}

// TestReplicasConcurrentHands: hands appended to one game at once through
// two replicas are each recorded exactly once, in one chain of digests
// that checks, and the game reads the same on both.
func TestReplicasConcurrentHands(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		reps := []*replica{startReplica(t, c, nil), startReplica(t, c, nil)}
		if g := call(t, "POST", reps[0].url+"/v1/games", testOrganizerToken, gameBody); g.status != 201 {
			t.Fatalf("game: %d %s", g.status, g.body)
		}
		const writers, each = 4, 5
		var mu sync.Mutex
		acked := map[float64]int{}
		var wg sync.WaitGroup
		errs := make(chan error, writers*each)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < each; i++ {
					// A draw with the dealer tenpai: the dealer stays, so
					// the game goes on for as many as are sent.
					u := reps[(w+i)%2].url + "/v1/games/Q1/hands"
					req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"outcome":"draw","tenpai":[0]}`))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+testRefereeToken)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						errs <- err
						continue
					}
					var out struct {
						Hand struct {
							Number float64 `json:"number"`
						} `json:"hand"`
					}
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 201 || json.Unmarshal(body, &out) != nil {
						errs <- fmt.Errorf("writer %d hand %d: %d %s", w, i, resp.StatusCode, body)
						continue
					}
					mu.Lock()
					acked[out.Hand.Number]++
					mu.Unlock()
				}
			}(w)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for n := 1; n <= writers*each; n++ {
			if acked[float64(n)] != 1 {
				t.Errorf("hand %d was acknowledged %d times", n, acked[float64(n)])
			}
		}
		log, err := reps[1].store.GameLog(context.Background(), "Q1")
		if err != nil {
			t.Fatal(err)
		}
		if log.Tampered != "" || len(log.Events) != 1+writers*each {
			t.Errorf("the log holds %d entries (want %d), tampered %q", len(log.Events), 1+writers*each, log.Tampered)
		}
		ga, gb := call(t, "GET", reps[0].url+"/v1/games/Q1", testOrganizerToken, ""), call(t, "GET", reps[1].url+"/v1/games/Q1", testOrganizerToken, "")
		if ga.status != 200 || !bytes.Equal(ga.body, gb.body) {
			t.Fatalf("the game differs between replicas:\nA %s\nB %s", ga.body, gb.body)
		}
		if n := strings.Count(string(ga.body), `"number":`); n != writers*each {
			t.Errorf("the game shows %d hands, want %d", n, writers*each)
		}
		sa, sb := call(t, "GET", reps[0].url+"/v1/standings", testOrganizerToken, ""), call(t, "GET", reps[1].url+"/v1/standings", testOrganizerToken, "")
		if sa.status != 200 || !bytes.Equal(sa.body, sb.body) {
			t.Errorf("standings differ:\nA %s\nB %s", sa.body, sb.body)
		}
	})
}

// TestReplayStopsAtUnsettledHand: a hand of the log that no longer
// settles stops the game's replay there; the hands after it are not
// replayed over a game they did not follow, and the game takes no more.
func TestReplayStopsAtUnsettledHand(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		r := startReplica(t, c, nil)
		if g := call(t, "POST", r.url+"/v1/games", testOrganizerToken, gameBody); g.status != 201 {
			t.Fatalf("game: %d %s", g.status, g.body)
		}
		if h := call(t, "POST", r.url+"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw","tenpai":[0]}`); h.status != 201 {
			t.Fatalf("hand: %d %s", h.status, h.body)
		}
		ctx := context.Background()
		// Entry 3 does not settle (no winning hand); entry 4 would.
		if _, err := r.store.AppendGameEvent(ctx, referee.GameEvent{Game: "Q1", Seq: 3, Kind: logPlay, By: "test", Body: json.RawMessage(`{"outcome":"win","player":1,"from":2,"hand":{"hand":"1239m","win_tile":"9m"}}`)}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.store.AppendGameEvent(ctx, referee.GameEvent{Game: "Q1", Seq: 4, Kind: logPlay, By: "test", Body: json.RawMessage(handBody)}); err != nil {
			t.Fatal(err)
		}
		g := call(t, "GET", r.url+"/v1/games/Q1", testOrganizerToken, "")
		if n := strings.Count(string(g.body), `"number":`); g.status != 200 || n != 1 || !strings.Contains(g.str("tampered"), "no longer settles") {
			t.Errorf("game after an entry that no longer settles: %d, %d hands, tampered %q", g.status, n, g.str("tampered"))
		}
		if h := call(t, "POST", r.url+"/v1/games/Q1/hands", testRefereeToken, handBody); h.status != 409 {
			t.Errorf("a hand after the replay stopped: %d %s, want 409", h.status, h.body)
		}
	})
}

// TestReplicasCountProposalsTogether: a table's camera proposals of one
// hand add up whichever replica takes them, and after a restart: the
// count lives in the record.
func TestReplicasCountProposalsTogether(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		a, b := startTourService(t, c, fixedHandReader{}), startTourService(t, c, fixedHandReader{})
		tourCameraTables(t, a)
		own := a.newGameAt("Q1", "table 1", "msmc-2016")
		const at = "/v1/tables/table%201/score-now"
		for i := 0; i < maxProposalsPerHand; i++ {
			s := []*tourService{a, b}[i%2]
			if i == maxProposalsPerHand/2 {
				a.restart()
			}
			if p := s.call("POST", at, own, `{"seat":"S","request":{"rules":"riichi"}}`); p.status != 200 {
				t.Fatalf("proposal %d on replica %d: %d %s", i+1, i%2, p.status, p.body)
			}
		}
		for _, s := range []*tourService{a, b} {
			wantProblem(t, s.call("POST", at, own, `{"seat":"S","request":{"rules":"riichi"}}`), 429, codeTooManyProposals)
		}
	})
}
