package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// verdict is the outcome of one check: what it checked, and each thing
// found wrong, said exactly (which hand, record or answer, and where).
type verdict struct {
	name     string
	summary  string
	failures []string
	notes    []string // what was seen and allowed
}

func (v *verdict) note(format string, args ...any) {
	v.notes = append(v.notes, fmt.Sprintf(format, args...))
}

func (v *verdict) fail(format string, args ...any) {
	v.failures = append(v.failures, fmt.Sprintf(format, args...))
}

// gameView is a game as one replica answers it.
type gameView struct {
	Rules struct {
		StartPoints int `json:"start_points"`
	} `json:"rules"`
	Hands []struct {
		Number int `json:"number"`
		Play   struct {
			Note string `json:"note"`
		} `json:"play"`
		Deltas      [4]int `json:"deltas"`
		Scores      [4]int `json:"scores"`
		SticksAfter int    `json:"sticks_after"`
	} `json:"hands"`
	Scores [4]int `json:"scores"`
	Sticks int    `json:"sticks"`
	Over   bool   `json:"over"`
}

func getJSON(ctx context.Context, url, token string, v any) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("%d: %s", resp.StatusCode, snippet(b))
	}
	return resp.StatusCode, json.Unmarshal(b, v)
}

// checkGames asks every replica directly for every game the clients
// created, and checks that each acknowledged hand is there exactly once,
// that the score balances, and that all replicas answer the same.
func checkGames(ctx context.Context, reps []*replica, ak *acks) []*verdict {
	present := &verdict{name: "every acknowledged hand is present exactly once"}
	balance := &verdict{name: "every game's score balances"}
	same := &verdict{name: "every game is the same whichever replica answers"}
	hands := 0
	for _, g := range ak.games {
		hands += len(g.hands)
		views := make([]*gameView, len(reps))
		for i, r := range reps {
			v := &gameView{}
			if _, err := getJSON(ctx, r.url()+"/v1/games/"+g.id, organizerToken, v); err != nil {
				same.fail("game %s: %s answers %v", g.id, r.name, err)
				present.fail("game %s: %s cannot show its %d acknowledged hand(s) (%v)", g.id, r.name, len(g.hands), err)
				continue
			}
			views[i] = v
			checkHandsOnce(present, r.name, g, v)
			checkBalance(balance, r.name, g.id, v)
		}
		var ref *gameView
		refName := ""
		for i, v := range views {
			if v == nil {
				continue
			}
			if ref == nil {
				ref, refName = v, reps[i].name
				continue
			}
			if !reflect.DeepEqual(ref, v) {
				same.fail("game %s: %s has %d hands, scores %v, %d sticks, over %v; %s has %d hands, scores %v, %d sticks, over %v",
					g.id, refName, len(ref.Hands), ref.Scores, ref.Sticks, ref.Over, reps[i].name, len(v.Hands), v.Scores, v.Sticks, v.Over)
			}
		}
	}
	present.summary = fmt.Sprintf("%d hands acknowledged in %d games, looked for on each of %d replicas", hands, len(ak.games), len(reps))
	balance.summary = fmt.Sprintf("%d games × %d replicas: each player's start plus deltas is their score, hand by hand, and the scores plus sticks sum to the start", len(ak.games), len(reps))
	same.summary = fmt.Sprintf("%d games read from each of %d replicas directly", len(ak.games), len(reps))
	return []*verdict{present, balance, same}
}

func checkHandsOnce(v *verdict, replica string, g *gameAck, view *gameView) {
	seen := map[string][]int{}
	for _, h := range view.Hands {
		seen[h.Play.Note] = append(seen[h.Play.Note], h.Number)
	}
	for _, h := range g.hands {
		switch n := seen[h.note]; len(n) {
		case 1:
		case 0:
			v.fail("lost: hand %q, acknowledged by %s at %.1fs as hand %d of game %s, is not in %s's game (%d hands)",
				h.note, orUnknown(h.replica), h.at.Seconds(), h.number, g.id, replica, len(view.Hands))
		default:
			v.fail("duplicated: hand %q of game %s is in %s's game %d times (hands %v)", h.note, g.id, replica, len(n), n)
		}
	}
	for note, n := range seen {
		if len(n) > 1 && !acked(g, note) {
			v.fail("duplicated: hand %q (never acknowledged: its answer was lost) is in %s's game %s %d times (hands %v)", note, replica, g.id, len(n), n)
		}
	}
}

func acked(g *gameAck, note string) bool {
	for _, h := range g.hands {
		if h.note == note {
			return true
		}
	}
	return false
}

func checkBalance(v *verdict, replica, id string, g *gameView) {
	start := g.Rules.StartPoints
	if start == 0 {
		v.fail("game %s on %s: no start_points in its rules", id, replica)
		return
	}
	run := [4]int{start, start, start, start}
	for _, h := range g.Hands {
		for p := range run {
			run[p] += h.Deltas[p]
		}
		if run != h.Scores {
			v.fail("game %s on %s: after hand %d the start plus the deltas is %v but the hand says %v", id, replica, h.Number, run, h.Scores)
		}
	}
	if run != g.Scores {
		v.fail("game %s on %s: the start plus every hand's deltas is %v but the game's scores are %v", id, replica, run, g.Scores)
	}
	sum := g.Sticks * 1000
	for _, s := range g.Scores {
		sum += s
	}
	if sum != 4*start {
		v.fail("game %s on %s: scores %v plus %d riichi sticks make %d, not the %d the game started with", id, replica, g.Scores, g.Sticks, sum, 4*start)
	}
}

// checkRecords lists every game's referee records on every replica
// directly: each acknowledged record is there exactly once, under the id
// it was acknowledged with, and every replica lists the same.
func checkRecords(ctx context.Context, reps []*replica, ak *acks) []*verdict {
	present := &verdict{name: "every acknowledged referee record is present exactly once"}
	same := &verdict{name: "every replica lists the same referee records"}
	byGame := map[string][]recordAck{}
	for _, r := range ak.records {
		byGame[r.game] = append(byGame[r.game], r)
	}
	for _, g := range ak.games {
		var ref []string
		refName := ""
		for _, rep := range reps {
			list, err := listRecords(ctx, rep.url(), g.id)
			if err != nil {
				present.fail("game %s: %s cannot list its records: %v", g.id, rep.name, err)
				continue
			}
			ids := map[string][]int64{}
			var keys []string
			for _, r := range list {
				ids[r.Ruling] = append(ids[r.Ruling], r.ID)
				keys = append(keys, fmt.Sprintf("%d %s", r.ID, r.Ruling))
			}
			for _, want := range byGame[g.id] {
				switch got := ids[want.ruling]; {
				case len(got) == 0:
					present.fail("lost: record %q (id %d, acknowledged by %s at %.1fs) is not listed by %s", want.ruling, want.id, orUnknown(want.replica), want.at.Seconds(), rep.name)
				case len(got) > 1:
					present.fail("duplicated: record %q is listed %d times by %s (ids %v)", want.ruling, len(got), rep.name, got)
				case got[0] != want.id:
					present.fail("record %q was acknowledged as id %d but %s lists it as id %d", want.ruling, want.id, rep.name, got[0])
				}
			}
			for ruling, got := range ids {
				if len(got) > 1 && !recordAcked(byGame[g.id], ruling) {
					present.fail("duplicated: record %q (never acknowledged) is listed %d times by %s (ids %v)", ruling, len(got), rep.name, got)
				}
			}
			sort.Strings(keys)
			if refName == "" {
				ref, refName = keys, rep.name
			} else if !reflect.DeepEqual(ref, keys) {
				same.fail("game %s: %s lists %d records, %s lists %d", g.id, refName, len(ref), rep.name, len(keys))
			}
		}
	}
	present.summary = fmt.Sprintf("%d records acknowledged, listed per game on each of %d replicas", len(ak.records), len(reps))
	same.summary = fmt.Sprintf("the records of %d games compared across %d replicas", len(ak.games), len(reps))
	return []*verdict{present, same}
}

func recordAcked(list []recordAck, ruling string) bool {
	for _, r := range list {
		if r.ruling == ruling {
			return true
		}
	}
	return false
}

type listedRecord struct {
	ID     int64  `json:"id"`
	Ruling string `json:"ruling"`
}

func listRecords(ctx context.Context, base, game string) ([]listedRecord, error) {
	var all []listedRecord
	after := int64(0)
	for {
		var page struct {
			Records   []listedRecord `json:"records"`
			NextAfter int64          `json:"next_after"`
		}
		url := fmt.Sprintf("%s/v1/records?game=%s&limit=1000&after=%d", base, game, after)
		if _, err := getJSON(ctx, url, organizerToken, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Records...)
		if page.NextAfter == 0 {
			return all, nil
		}
		after = page.NextAfter
	}
}

// recognitions reads a replica's count of photos read (the recognize
// step of mjscan_step_duration_seconds): a replayed answer adds nothing.
func recognitions(ctx context.Context, r *replica) (int, error) {
	page, err := metricsPage(ctx, r)
	if err != nil {
		return 0, err
	}
	return parseRecognitions(page)
}

func metricsPage(ctx context.Context, r *replica) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+r.metrics+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s's metrics: %d", r.name, resp.StatusCode)
	}
	return string(b), nil
}

// apiRequests reads how many requests to /v1 routes the replica has
// answered since it started (mjscan_http_requests_total): what nginx sent
// it, the harness's own /readyz polls left out.
func apiRequests(ctx context.Context, r *replica) (int, error) {
	page, err := metricsPage(ctx, r)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "mjscan_http_requests_total{") || !strings.Contains(line, `route="/v1/`) {
			continue
		}
		f := strings.Fields(line)
		x, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			return 0, fmt.Errorf("the requests count %q: %v", line, err)
		}
		n += int(x)
	}
	return n, nil
}

func parseRecognitions(page string) (int, error) {
	sc := bufio.NewScanner(strings.NewReader(page))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "mjscan_step_duration_seconds_count{") || !strings.Contains(line, `step="recognize"`) {
			continue
		}
		f := strings.Fields(line)
		n, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			return 0, fmt.Errorf("the recognitions count %q: %v", line, err)
		}
		return int(n), nil
	}
	return 0, sc.Err()
}

// checkReplayAcrossReplicas sends one upload with a new Idempotency-Key to
// replica a directly, then the same upload with the same key to replica
// b: b must answer a's answer, marked replayed, without reading the photo
// again (its recognitions count stays put).
func checkReplayAcrossReplicas(ctx context.Context, c *client, reps []*replica, run string, photo []byte) *verdict {
	v := &verdict{name: "a retry with the same Idempotency-Key on another replica gets the first answer, with no second recognition"}
	pairs := 0
	for i := range reps {
		a, b := reps[i], reps[(i+1)%len(reps)]
		if a == b {
			continue
		}
		pairs++
		key := fmt.Sprintf("%s-probe-%d", run, i)
		up := request{method: http.MethodPost, path: "/v1/recognitions", key: key, body: photoBody(photo)}
		before, err := counts(ctx, reps)
		if err != nil {
			v.fail("%v", err)
			continue
		}
		first := c.once(ctx, a.url(), up)
		mid, err := counts(ctx, reps)
		if err != nil {
			v.fail("%v", err)
			continue
		}
		second := c.once(ctx, b.url(), up)
		after, err := counts(ctx, reps)
		if err != nil {
			v.fail("%v", err)
			continue
		}
		if first.status != http.StatusOK {
			v.fail("key %s: the first upload to %s answered %d: %s", key, a.name, first.status, snippet(first.body))
			continue
		}
		if mid[a.name]-before[a.name] != 1 {
			v.fail("key %s: the first upload to %s read %d photos (want 1): the recognitions counter does not count what it should", key, a.name, mid[a.name]-before[a.name])
		}
		if n := after[b.name] - mid[b.name]; n != 0 {
			v.fail("key %s: the retry on %s read the photo again (%d more recognitions there): the key's first answer, from %s, was not found", key, b.name, n, a.name)
		}
		if second.status != first.status || !bytes.Equal(second.body, first.body) {
			v.fail("key %s: the retry on %s answered %d with another body than %s's first answer %d (%d bytes against %d)", key, b.name, second.status, a.name, first.status, len(second.body), len(first.body))
		}
		if second.header.Get("Idempotency-Replayed") != "true" {
			v.fail("key %s: the retry on %s is not marked Idempotency-Replayed: true", key, b.name)
		}
	}
	v.summary = fmt.Sprintf("%d pairs of replicas: upload to one directly, the same upload and key to the next, recognitions counted on each from its metrics", pairs)
	return v
}

func counts(ctx context.Context, reps []*replica) (map[string]int, error) {
	out := map[string]int{}
	for _, r := range reps {
		n, err := recognitions(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("reading %s's recognitions: %v", r.name, err)
		}
		out[r.name] = n
	}
	return out, nil
}

// checkReplaysUnderLoad: every upload the tables sent twice with one key
// during the load got its first answer back, marked replayed.
func checkReplaysUnderLoad(ak *acks) *verdict {
	v := &verdict{name: "uploads sent twice under load with one Idempotency-Key got the first answer"}
	other := 0
	for _, r := range ak.replays {
		if r.first != r.second {
			other++
		}
		switch {
		case r.status2 != r.status1 || !r.sameBody:
			v.fail("key %s: first answer %d from %s, retry %d from %s with another body", r.key, r.status1, orUnknown(r.first), r.status2, orUnknown(r.second))
		case !r.replayedHd:
			v.fail("key %s: the retry's answer (from %s; the first from %s) is not marked Idempotency-Replayed", r.key, orUnknown(r.second), orUnknown(r.first))
		}
	}
	v.summary = fmt.Sprintf("%d uploads sent twice, %d of the retries answered by another replica than the first", len(ak.replays), other)
	return v
}

// window is a time when a replica was down on purpose.
type window struct {
	what     string
	from, to time.Duration
}

// checkStatuses: clients saw only 200/201 and 429, apart from a bounded
// number of 502/503 (or a dropped connection) while a replica was killed
// or restarted, each of which a retry recovered from.
func checkStatuses(tl *tally, windows []window, bound int) *verdict {
	v := &verdict{name: "clients saw only 200/201 and 429, and a bounded number of 502/503 during the kill and the restarts, each recovered by a retry"}
	var keys []string
	for k := range tl.unexpected {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := tl.unexpected[k]
		v.fail("unexpected: %s, %d time(s); %s", k, g.n, strings.Join(g.examples, "; "))
	}
	for _, g := range tl.gaveUp {
		v.fail("not recovered: %s", g)
	}
	inside := map[string]int{}
	for _, d := range tl.disruptions {
		w := ""
		for _, win := range windows {
			if d.at >= win.from && d.at <= win.to {
				w = win.what
			}
		}
		if w == "" {
			v.fail("%d from %s at %.1fs on %s, while no replica was down", d.status, orUnknown(d.replica), d.at.Seconds(), d.route)
			continue
		}
		inside[w]++
		v.note("%d from %s at %.1fs on %s, during %s", d.status, orUnknown(d.replica), d.at.Seconds(), d.route, w)
	}
	var parts []string
	for _, win := range windows {
		n := inside[win.what]
		parts = append(parts, fmt.Sprintf("%s (%.1fs to %.1fs): %d", win.what, win.from.Seconds(), win.to.Seconds(), n))
		if n > bound {
			v.fail("%d answers 502/503/504 or dropped connections during %s: more than the bound of %d (one per client in flight, twice)", n, win.what, bound)
		}
	}
	slowest := "none needed a retry"
	if tl.slowest > 0 {
		slowest = fmt.Sprintf("%.1fs, %s", tl.slowest.Seconds(), tl.slowestWhat)
	}
	v.summary = fmt.Sprintf("answers by route and status: %s; 5xx or dropped by window: %s; 409 idempotency_key_in_flight retried: %d; longest recovery by retries: %s; retries given up after %s",
		tl.summary(), strings.Join(parts, ", "), tl.inFlight409, slowest, retryFor)
	return v
}

func (t *tally) summary() string {
	var routes []string
	for r := range t.byRoute {
		routes = append(routes, r)
	}
	sort.Strings(routes)
	var b bytes.Buffer
	for i, r := range routes {
		if i > 0 {
			b.WriteString("; ")
		}
		var st []int
		for s := range t.byRoute[r] {
			st = append(st, s)
		}
		sort.Ints(st)
		b.WriteString(r + " ")
		for j, s := range st {
			if j > 0 {
				b.WriteString(", ")
			}
			name := strconv.Itoa(s)
			if s == 0 {
				name = "dropped"
			}
			fmt.Fprintf(&b, "%s×%d", name, t.byRoute[r][s])
		}
	}
	return b.String()
}

// checkWritesReplayed sends a hand and a referee record to one replica
// directly, then the same again with the same Idempotency-Key to another,
// as a referee's tablet retrying after a lost answer does: the second
// answer must be the first, marked replayed, and every replica must hold
// the hand and the record once.
func checkWritesReplayed(ctx context.Context, c *client, reps []*replica, run string) *verdict {
	v := &verdict{name: "a hand or record sent again with its Idempotency-Key to another replica is stored once"}
	a, b := reps[0], reps[len(reps)-1]
	game := run + "-probe-g"
	table := run + "-probe-t"
	created := c.once(ctx, a.url(), request{method: http.MethodPost, path: "/v1/games", token: organizerToken,
		body: jsonBody(map[string]any{"id": game, "table": table, "rules": "msmc-2016", "players": []string{"Aiko", "Ben", "Chloe", "Dev"}})})
	if created.status != http.StatusCreated {
		v.fail("creating game %s on %s: %d %s", game, a.name, created.status, snippet(created.body))
		return v
	}
	note := "hall " + run + " probe hand"
	ruling := "hall " + run + " probe record"
	writes := []struct {
		what string
		req  request
	}{
		{"hand", request{method: http.MethodPost, path: "/v1/games/" + game + "/hands", token: refereeToken, key: run + "-probe-hand",
			body: jsonBody(map[string]any{"outcome": "win", "player": 1, "from": 2, "hand": winningHand, "note": note})}},
		{"record", request{method: http.MethodPost, path: "/v1/records", token: refereeToken, key: run + "-probe-record",
			body: jsonBody(map[string]any{"table": table, "game": game, "hand": 1, "asked_by": "player:Ben", "engine_version": "hall",
				"rule_set": "riichi/msmc-2016", "claimed": "2000", "ruling": ruling})}},
	}
	for _, w := range writes {
		first := c.once(ctx, a.url(), w.req)
		second := c.once(ctx, b.url(), w.req)
		switch {
		case first.status != http.StatusCreated:
			v.fail("the %s sent to %s: %d %s", w.what, a.name, first.status, snippet(first.body))
		case second.status != first.status:
			v.fail("the %s sent again with its key to %s answered %d, not %s's first answer %d: %s", w.what, b.name, second.status, a.name, first.status, snippet(second.body))
		case !bytes.Equal(second.body, first.body):
			v.fail("the %s sent again with its key to %s answered %d as the first did on %s, but with another body (written a second time?): first %s; again %s", w.what, b.name, second.status, a.name, snippet(first.body), snippet(second.body))
		case second.header.Get("Idempotency-Replayed") != "true":
			v.fail("the %s sent again with its key to %s is not marked Idempotency-Replayed: true", w.what, b.name)
		}
	}
	for _, r := range reps {
		g := &gameView{}
		if _, err := getJSON(ctx, r.url()+"/v1/games/"+game, organizerToken, g); err != nil {
			v.fail("game %s on %s: %v", game, r.name, err)
		} else if n := countNotes(g, note); n != 1 {
			v.fail("the hand sent twice with one key is in %s's game %s %d times, not once", r.name, game, n)
		}
		list, err := listRecords(ctx, r.url(), game)
		if err != nil {
			v.fail("the records of game %s on %s: %v", game, r.name, err)
			continue
		}
		n := 0
		for _, rec := range list {
			if rec.Ruling == ruling {
				n++
			}
		}
		if n != 1 {
			v.fail("the record sent twice with one key is listed %d times by %s, not once", n, r.name)
		}
	}
	v.summary = fmt.Sprintf("a hand and a record to %s, again with the same keys to %s; the game and its records read on each of %d replicas", a.name, b.name, len(reps))
	return v
}

func countNotes(g *gameView, note string) int {
	n := 0
	for _, h := range g.Hands {
		if h.Play.Note == note {
			n++
		}
	}
	return n
}
