package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// acks is what the service acknowledged (201) during the load: each
// must be found exactly once afterwards.
type acks struct {
	mu      sync.Mutex
	games   []*gameAck
	records []recordAck
	uploads int
	replays []replay
}

type gameAck struct {
	id, table string
	hands     []handAck
}

type handAck struct {
	note    string
	number  int
	replica string
	at      time.Duration
}

type recordAck struct {
	ruling, game string
	id           int64
	replica      string
	at           time.Duration
}

// replay is an upload sent twice with the same Idempotency-Key: the
// second answer must be the first, marked replayed.
type replay struct {
	key                  string
	first, second        string // the replicas that answered
	status1, status2     int
	sameBody, replayedHd bool
}

// table is one client's workload: a table of the hall that photographs
// hands, has them scored, and has its referee record the hand in the
// table's game and write a referee record about it.
type table struct {
	c      *client
	run    string
	start  time.Time
	photos [][]byte
	acks   *acks
	game   *gameAck
	games  int
	round  int
}

// the hand every table wins (tanyao, pinfu: 2 han 30 fu), by a winner and
// discarder that go round the table so no one busts early.
var winningHand = map[string]string{"hand": "234m234p234s678s55p", "win_tile": "8s"}

func (t *table) run1(ctx context.Context) {
	k := t.round
	t.round++
	photo := t.photos[(t.c.n+k)%len(t.photos)]

	// A photo read, with its key; every fourth one sent again with the
	// same key, as a phone retrying after a lost answer does.
	key := fmt.Sprintf("%s-c%02d-u%d", t.run, t.c.n, k)
	up := request{route: "POST /v1/recognitions", method: http.MethodPost, path: "/v1/recognitions", key: key, body: photoBody(photo)}
	first, ok := t.c.call(ctx, up)
	if ok {
		t.acks.mu.Lock()
		t.acks.uploads++
		t.acks.mu.Unlock()
		if k%4 == 0 {
			second, _ := t.c.call(ctx, up)
			t.acks.mu.Lock()
			t.acks.replays = append(t.acks.replays, replay{key: key, first: first.replica, second: second.replica,
				status1: first.status, status2: second.status, sameBody: bytes.Equal(first.body, second.body),
				replayedHd: second.header.Get("Idempotency-Replayed") == "true"})
			t.acks.mu.Unlock()
		}
	}

	// A hand scored.
	t.c.call(ctx, request{route: "POST /v1/scores", method: http.MethodPost, path: "/v1/scores",
		body: jsonBody(map[string]any{"rules": "riichi", "hand": winningHand["hand"], "win_tile": winningHand["win_tile"], "seat_wind": "S", "round_wind": "E"})})

	// The table's game: a new one when there is none or it is over.
	if t.game == nil && !t.newGame(ctx) {
		return
	}
	g := t.game
	note := fmt.Sprintf("hall %s c%02d h%d", t.run, t.c.n, k)
	play := map[string]any{"outcome": "win", "player": k % 4, "from": (k + 1) % 4, "hand": winningHand, "note": note}
	a, ok := t.c.call(ctx, request{route: "POST /v1/games/:id/hands", method: http.MethodPost, path: "/v1/games/" + g.id + "/hands",
		token: refereeToken, key: fmt.Sprintf("%s-c%02d-h%d", t.run, t.c.n, k), body: jsonBody(play)})
	if !ok {
		return
	}
	var hand struct {
		Hand struct {
			Number int `json:"number"`
		} `json:"hand"`
		Over bool `json:"over"`
	}
	if err := json.Unmarshal(a.body, &hand); err != nil || hand.Hand.Number == 0 {
		t.c.t.unexpectedAnswer("POST /v1/games/:id/hands (its answer)", a)
		return
	}
	t.acks.mu.Lock()
	g.hands = append(g.hands, handAck{note: note, number: hand.Hand.Number, replica: a.replica, at: time.Since(t.start)})
	t.acks.mu.Unlock()
	if hand.Over {
		t.game = nil
	}

	// The referee's record of that hand.
	ruling := fmt.Sprintf("hall %s c%02d r%d: 2,000 as claimed", t.run, t.c.n, k)
	rec := map[string]any{"table": g.table, "game": g.id, "hand": hand.Hand.Number, "asked_by": "player:Ben",
		"engine_version": "hall", "rule_set": "riichi/msmc-2016", "claimed": "2000", "ruling": ruling}
	a, ok = t.c.call(ctx, request{route: "POST /v1/records", method: http.MethodPost, path: "/v1/records",
		token: refereeToken, key: fmt.Sprintf("%s-c%02d-r%d", t.run, t.c.n, k), body: jsonBody(rec)})
	if !ok {
		return
	}
	var stored struct {
		Record struct {
			ID int64 `json:"id"`
		} `json:"record"`
	}
	if err := json.Unmarshal(a.body, &stored); err != nil || stored.Record.ID == 0 {
		t.c.t.unexpectedAnswer("POST /v1/records (its answer)", a)
		return
	}
	t.acks.mu.Lock()
	t.acks.records = append(t.acks.records, recordAck{ruling: ruling, game: g.id, id: stored.Record.ID, replica: a.replica, at: time.Since(t.start)})
	t.acks.mu.Unlock()
}

func (t *table) newGame(ctx context.Context) bool {
	t.games++
	g := &gameAck{id: fmt.Sprintf("%s-c%02d-g%d", t.run, t.c.n, t.games), table: fmt.Sprintf("%s-t%02d", t.run, t.c.n)}
	body := map[string]any{"id": g.id, "table": g.table, "rules": "msmc-2016", "players": []string{"Aiko", "Ben", "Chloe", "Dev"}}
	a, ok := t.c.call(ctx, request{route: "POST /v1/games", method: http.MethodPost, path: "/v1/games",
		token: organizerToken, key: g.id, body: jsonBody(body)})
	if !ok && !(a.status == http.StatusConflict && a.attempts > 1) {
		// A 409 after a retry: the lost first attempt created it.
		return false
	}
	t.game = g
	t.acks.mu.Lock()
	t.acks.games = append(t.acks.games, g)
	t.acks.mu.Unlock()
	return true
}

// runTables runs n tables until ctx ends (no new round starts; the round
// under way finishes, its retries bounded by maxAttempts and by hard).
func runTables(ctx, hard context.Context, n int, base, run string, photos [][]byte, tl *tally, ak *acks) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t := &table{c: newClient(i, base, tl), run: run, start: tl.start, photos: photos, acks: ak}
			for ctx.Err() == nil {
				t.run1(hard)
			}
		}(i)
	}
	wg.Wait()
}
