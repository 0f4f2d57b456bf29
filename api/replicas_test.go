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
	"sync/atomic"
	"testing"
	"time"

	"mjscan/referee"
	"mjscan/scoring"
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
		if n := handsIn(t, game.body); n != 1 {
			t.Errorf("the hand posted twice with one key was recorded %d times: %s", n, game.body)
		}
		// The key is the referee's: the organiser (who records hands too)
		// sending the same key is not answered the referee's hand but has
		// its own recorded, the game's second.
		other := keyed(t, "POST", b.url+"/v1/games/Q1/hands", testOrganizerToken, handBody, "hand-1")
		if other.status != 201 || bytes.Equal(other.body, h1.body) || !strings.Contains(string(other.body), `"number":2`) {
			t.Errorf("the organiser with the referee's key: %d %s, want its own hand 2", other.status, other.body)
		}
	})
}

// jpegLikeForm is an upload of another photo.
func jpegLikeForm(t *testing.T) []byte {
	_, body := formWith(t, "first-boundary", jpegLike(2000, 7), [2]string{"id", "k"})
	return body
}

// TestReplicasWrittenNeverAnswered: a replica that wrote a keyed hand
// and died before its answer was kept leaves only a claim, which lapses;
// the retry on another replica then runs again, and finds the hand in the
// game's log instead of recording it a second time (seen in make hall:
// a hand twice after 503 and 409).
func TestReplicasWrittenNeverAnswered(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		a, b := startReplica(t, c, nil), startReplica(t, c, nil)
		if g := call(t, "POST", a.url+"/v1/games", testOrganizerToken, gameBody); g.status != 201 {
			t.Fatalf("game: %d %s", g.status, g.body)
		}
		first := keyed(t, "POST", a.url+"/v1/games/Q1/hands", testRefereeToken, handBody, "hand-lost")
		if first.status != 201 {
			t.Fatalf("hand: %d %s", first.status, first.body)
		}
		// The answer is gone as if never kept (every key lapsed).
		if _, err := a.store.PurgeKeys(context.Background(), time.Now().Add(1000*time.Hour)); err != nil {
			t.Fatal(err)
		}
		retry := keyed(t, "POST", b.url+"/v1/games/Q1/hands", testRefereeToken, handBody, "hand-lost")
		if retry.status != 201 {
			t.Fatalf("the retry: %d %s", retry.status, retry.body)
		}
		for _, r := range []*replica{a, b} {
			game := call(t, "GET", r.url+"/v1/games/Q1", testOrganizerToken, "")
			if n := handsIn(t, game.body); n != 1 {
				t.Errorf("the hand whose answer was lost was recorded %d times: %s", n, game.body)
			}
		}
		// A referee record and an overturn the same way.
		lostThenRetried := func(path, body, key string) int {
			first := keyed(t, "POST", a.url+path, testRefereeToken, body, key)
			if first.status != 201 {
				t.Fatalf("%s: %d %s", path, first.status, first.body)
			}
			if _, err := a.store.PurgeKeys(context.Background(), time.Now().Add(1000*time.Hour)); err != nil {
				t.Fatal(err)
			}
			retry := keyed(t, "POST", b.url+path, testRefereeToken, body, key)
			if retry.status != 201 || recordID(t, retry) != recordID(t, first) {
				t.Errorf("%s retried after its answer was lost: %d %s, want record %d again", path, retry.status, retry.body, recordID(t, first))
			}
			return recordID(t, first)
		}
		id := lostThenRetried("/v1/records", recordBody, "rec-lost")
		lostThenRetried(fmt.Sprintf("/v1/records/%d/overturn", id), `{"table":"table 1","game":"Q1","hand":1,"asked_by":"referee","engine_version":"test","rule_set":"riichi/msmc-2016","ruling":"overturned on appeal"}`, "overturn-lost")
		recs := call(t, "GET", b.url+"/v1/records?game=Q1", testRefereeToken, "")
		if n := strings.Count(string(recs.body), `"ruling":`); n != 2 {
			t.Errorf("game Q1 has %d records after two lost answers retried, want 2: %s", n, recs.body)
		}
		// Without a key, the same outcome sent again is a new hand.
		if h := call(t, "POST", b.url+"/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw","tenpai":[1]}`); h.status != 201 {
			t.Fatalf("a second hand: %d %s", h.status, h.body)
		}
		if n := handsIn(t, call(t, "GET", a.url+"/v1/games/Q1", testOrganizerToken, "").body); n != 2 {
			t.Errorf("after a second hand the game has %d hands, want 2", n)
		}
	})
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
		if n := handsIn(t, ga.body); n != writers*each {
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
		if n := handsIn(t, g.body); g.status != 200 || n != 1 || !strings.Contains(g.str("tampered"), "no longer settles") {
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

// TestReplicasKeyAnswersExpire: a kept answer is replayed by every
// replica until IdempotencyTTL, then purged: the retry after it runs
// again.
func TestReplicasKeyAnswersExpire(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		fake := &fakeRecognizer{rec: handRecognition()}
		a, b := startReplica(t, c, fake), startReplica(t, c, fake)
		var offset atomic.Int64
		clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		a.srv.idem.now, b.srv.idem.now = clock, clock
		ct, body := formWith(t, "boundary", samplePhoto(t), [2]string{"id", "k"})
		if r := sendKeyed(t, a.url+"/v1/recognitions", ct, body, "phone-ttl"); r.status != 200 {
			t.Fatalf("first: %d %s", r.status, r.body)
		}
		if r := sendKeyed(t, b.url+"/v1/recognitions", ct, body, "phone-ttl"); r.header.Get("Idempotency-Replayed") != "true" {
			t.Fatalf("retry within the TTL on B was not replayed: %d %s", r.status, r.body)
		}
		if r := sendKeyed(t, a.url+"/v1/recognitions", ct, body, "phone-other"); r.status != 200 {
			t.Fatalf("another key: %d %s", r.status, r.body)
		}
		offset.Store(int64(DefaultConfig().IdempotencyTTL + idemPurgeEvery + time.Second))
		if r := sendKeyed(t, b.url+"/v1/recognitions", ct, body, "phone-ttl"); r.status != 200 || r.header.Get("Idempotency-Replayed") != "" {
			t.Fatalf("retry after the TTL: %d replayed %q", r.status, r.header.Get("Idempotency-Replayed"))
		}
		if n := fake.calls.Load(); n != 3 {
			t.Errorf("%d recognitions, want 3 (two keys, and the retry after the TTL)", n)
		}
		// B's periodic purge ran with that request and dropped the other
		// key's answer, which no one asked for again: only the answer
		// just kept is left.
		if n, err := b.store.PurgeKeys(context.Background(), clock().Add(DefaultConfig().IdempotencyTTL+time.Second)); err != nil || n != 1 {
			t.Errorf("purge after the last answer's TTL: %d rows, %v; want the 1 answer left", n, err)
		}
	})
}

// TestReplicasClaimOutlivesLease: a request that runs longer than a
// claim's lease keeps its key (its replica renews the claim), so a retry
// on another replica waits for its answer rather than reading the photo a
// second time.
func TestReplicasClaimOutlivesLease(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		fake := &fakeRecognizer{rec: handRecognition(), block: make(chan struct{})}
		a, b := startReplica(t, c, fake), startReplica(t, c, fake)
		const lease = time.Second
		a.srv.idem.shared.lease, b.srv.idem.shared.lease = lease, lease
		ct, body := formWith(t, "boundary", samplePhoto(t), [2]string{"id", "k"})
		first := make(chan int, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, a.url+"/v1/recognitions", bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Idempotency-Key", "slow-1")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				first <- -1
				return
			}
			resp.Body.Close()
			first <- resp.StatusCode
		}()
		for fake.calls.Load() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(3 * lease) // the claim would have lapsed twice over
		time.AfterFunc(500*time.Millisecond, func() { close(fake.block) })
		retry := sendKeyed(t, b.url+"/v1/recognitions", ct, body, "slow-1")
		if st := <-first; st != 200 || retry.status != 200 || retry.header.Get("Idempotency-Replayed") != "true" {
			t.Fatalf("first %d; retry %d replayed %q: %s", st, retry.status, retry.header.Get("Idempotency-Replayed"), retry.body)
		}
		if n := fake.calls.Load(); n != 1 {
			t.Errorf("the photo was read %d times, want once", n)
		}
	})
}

// BenchmarkStatelessGame measures what statelessness costs a game's
// reads and writes on SQLite: reading a game of 20 hands (its log's
// version checked, the snapshot used again) and recording a hand (the
// game rebuilt from its log under the log's lock, then appended).
func BenchmarkStatelessGame(b *testing.B) {
	c := referee.Config{SQLitePath: b.TempDir() + "/referee.db"}
	srv, err := New(DefaultConfig(), Deps{Version: "test"})
	if err != nil {
		b.Fatal(err)
	}
	store, err := referee.Open(context.Background(), c)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	if err := srv.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	send := func(method, path, body string) int {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Authorization", "Bearer "+testRefereeToken)
		if method == "POST" && path == "/v1/games" {
			req.Header.Set("Authorization", "Bearer "+testOrganizerToken)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	if code := send("POST", "/v1/games", gameBody); code != 201 {
		b.Fatalf("game: %d", code)
	}
	const draw = `{"outcome":"draw","tenpai":[0]}`
	for i := 0; i < 20; i++ {
		if code := send("POST", "/v1/games/Q1/hands", draw); code != 201 {
			b.Fatalf("hand %d: %d", i, code)
		}
	}
	b.Run("read", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if code := send("GET", "/v1/games/Q1", ""); code != 200 {
				b.Fatal(code)
			}
		}
	})
	games := 0
	b.Run("record-hand-21", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			// Each round records hand 21 of a fresh game of 20 hands.
			games++
			id := fmt.Sprintf("B%d", games)
			if code := send("POST", "/v1/games", strings.Replace(gameBody, `"Q1"`, `"`+id+`"`, 1)); code != 201 {
				b.Fatalf("game: %d", code)
			}
			for j := 0; j < 20; j++ {
				send("POST", "/v1/games/"+id+"/hands", draw)
			}
			b.StartTimer()
			if code := send("POST", "/v1/games/"+id+"/hands", draw); code != 201 {
				b.Fatal(code)
			}
		}
	})
}

// TestReplicasCreateOnce: a game or tournament created at once through
// two replicas is created once; every other try is told it exists.
func TestReplicasCreateOnce(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		reps := []*replica{startReplica(t, c, nil), startReplica(t, c, nil)}
		for _, what := range []struct{ path, body string }{
			{"/v1/games", gameBody},
			{"/v1/tournaments", `{"id":"april","entrants":["Aiko","Ben","Chloe","Dev","Eve","Fay"]}`},
		} {
			var wg sync.WaitGroup
			codes := make(chan int, 8)
			for i := 0; i < 8; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					req, _ := http.NewRequest(http.MethodPost, reps[i%2].url+what.path, strings.NewReader(what.body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+testOrganizerToken)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						codes <- -1
						return
					}
					resp.Body.Close()
					codes <- resp.StatusCode
				}(i)
			}
			wg.Wait()
			close(codes)
			count := map[int]int{}
			for code := range codes {
				count[code]++
			}
			if count[201] != 1 || count[409] != 7 {
				t.Errorf("%s created at once 8 times: %v, want one 201 and seven 409", what.path, count)
			}
		}
	})
}

// handsIn counts the hands of a game's answer.
func handsIn(t *testing.T, body []byte) int {
	t.Helper()
	var g struct {
		Hands []json.RawMessage `json:"hands"`
	}
	if err := json.Unmarshal(body, &g); err != nil {
		t.Fatalf("a game's answer: %v: %s", err, body)
	}
	return len(g.Hands)
}

// recordID is the id of the record in a record's answer.
func recordID(t *testing.T, a *answer) int {
	t.Helper()
	var r struct {
		Record struct {
			ID int `json:"id"`
		} `json:"record"`
	}
	if err := json.Unmarshal(a.body, &r); err != nil {
		t.Fatalf("a record's answer: %v: %s", err, a.body)
	}
	return r.Record.ID
}

// TestMadeUpTokensReadTheRecordRarely: a table token this replica has not
// seen is looked for in every game's log, since another replica may have
// started its game; a client sending made-up tokens at once and many
// times over still gets one look every tokenLookGap at most, each refused
// 401, and a game started on the other replica a moment ago is found.
func TestMadeUpTokensReadTheRecordRarely(t *testing.T) {
	c := referee.Config{SQLitePath: t.TempDir() + "/referee.db"}
	a, b := startReplica(t, c, nil), startReplica(t, c, nil)
	looks := func() float64 {
		fams, err := b.srv.metrics.reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fams {
			if f.GetName() == "mjscan_table_token_looks_total" {
				return f.GetMetric()[0].GetCounter().GetValue()
			}
		}
		t.Fatal("no mjscan_table_token_looks_total series")
		return 0
	}
	const clients, each = 8, 15
	start := time.Now()
	var wg sync.WaitGroup
	var refused atomic.Int64
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				if call(t, "GET", b.url+"/v1/games/Q1", fmt.Sprintf("table-made-up-%d-%d", i, j), "").status == http.StatusUnauthorized {
					refused.Add(1)
				}
			}
		}(i)
	}
	wg.Wait()
	took := time.Since(start)
	if refused.Load() != clients*each {
		t.Errorf("%d of %d made-up tokens refused 401", refused.Load(), clients*each)
	}
	// Requests waiting together share one look: far fewer looks than
	// requests, whatever the gap.
	most := min(float64(took/tokenLookGap)+2, clients*each/4)
	if n := looks(); n < 1 || n > most {
		t.Errorf("%d requests with made-up tokens in %v read every game's log %v times, want 1 to %v", clients*each, took, n, most)
	}
	g := call(t, "POST", a.url+"/v1/games", testOrganizerToken, gameBody)
	if g.status != 201 {
		t.Fatalf("game on A: %d %s", g.status, g.body)
	}
	if got := call(t, "GET", b.url+"/v1/games/Q1", g.str("table_token"), ""); got.status != 200 {
		t.Errorf("A's table token on B right after the made-up ones: %d %s", got.status, got.body)
	}
}

// TestReplicasGameWrittenNeverAnswered: a game created with an
// Idempotency-Key whose answer was lost (the replica died, or the key
// lapsed) is created once, and the retry on another replica gets the same
// table token: the only answer that carries it. Without the key, with
// another key or for another game the create is still told it exists.
func TestReplicasGameWrittenNeverAnswered(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		a, b := startReplica(t, c, nil), startReplica(t, c, nil)
		first := keyed(t, "POST", a.url+"/v1/games", testOrganizerToken, gameBody, "game-lost")
		if first.status != 201 || first.str("table_token") == "" {
			t.Fatalf("game: %d %s", first.status, first.body)
		}
		if _, err := a.store.PurgeKeys(context.Background(), time.Now().Add(1000*time.Hour)); err != nil {
			t.Fatal(err)
		}
		retry := keyed(t, "POST", b.url+"/v1/games", testOrganizerToken, gameBody, "game-lost")
		if retry.status != 201 || retry.str("table_token") != first.str("table_token") {
			t.Fatalf("the retry: %d %s, want 201 and the first answer's table token", retry.status, retry.body)
		}
		for _, r := range []*replica{a, b} {
			if got := call(t, "GET", r.url+"/v1/games/Q1", retry.str("table_token"), ""); got.status != 200 {
				t.Errorf("the token given again: %d %s", got.status, got.body)
			}
		}
		wantProblem(t, call(t, "POST", b.url+"/v1/games", testOrganizerToken, gameBody), 409, scoring.CodeBadRequest)
		wantProblem(t, keyed(t, "POST", b.url+"/v1/games", testOrganizerToken, gameBody, "another-key"), 409, scoring.CodeBadRequest)
		if _, err := a.store.PurgeKeys(context.Background(), time.Now().Add(1000*time.Hour)); err != nil {
			t.Fatal(err)
		}
		other := strings.Replace(gameBody, `"table 1"`, `"table 2"`, 1)
		if other == gameBody {
			t.Fatal("the test's game body names no table 1")
		}
		wantProblem(t, keyed(t, "POST", b.url+"/v1/games", testOrganizerToken, other, "game-lost"), 409, scoring.CodeBadRequest)
	})
}
