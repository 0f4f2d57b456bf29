package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"mjscan/referee"
)

// The tournament routes keep no state of their own: games, tournaments
// and tables are read from the referee record on each request, so every
// replica on one database answers alike. A game rebuilt from its log is
// kept as a snapshot under its log's version (the number and digest of
// its newest entry), and used again while the log has that version; a
// snapshot is never changed (a write rebuilds the game inside the
// transaction that holds its log's lock), so requests share it.

// logVersion names one state of a log.
type logVersion struct {
	seq    int
	digest string
}

// report logs at start what the record holds that cannot be trusted:
// game logs and table setups changed behind the store's back.
func (t *tournamentRoutes) report(ctx context.Context) error {
	logs, err := t.records.GameLogs(ctx)
	if err != nil {
		return fmt.Errorf("reading game logs: %w", err)
	}
	for _, gl := range logs {
		if gl.Tampered != "" {
			t.s.log.Printf("%s", gl.Tampered)
		}
	}
	_, problems, err := t.records.TableSetups(ctx)
	if err != nil {
		return fmt.Errorf("reading table setups: %w", err)
	}
	for _, p := range problems {
		t.s.log.Printf("%s", p)
	}
	return nil
}

// gameNamed is the game as its log stands now; nil when there is none.
func (t *tournamentRoutes) gameNamed(ctx context.Context, id string) (*tableGame, error) {
	if id == "" || strings.HasPrefix(id, tournamentLogPrefix) {
		return nil, nil
	}
	seq, digest, err := t.records.LogVersion(ctx, id)
	if err != nil || seq == 0 {
		return nil, err
	}
	return t.snapshot(ctx, id, logVersion{seq, digest})
}

// snapshot is the game at version v of its log: the one kept, or one
// rebuilt from the log now.
func (t *tournamentRoutes) snapshot(ctx context.Context, id string, v logVersion) (*tableGame, error) {
	t.mu.Lock()
	g, ok := t.snapshots[id]
	t.mu.Unlock()
	if ok && g.version == v {
		return g, nil
	}
	gl, err := t.records.GameLog(ctx, id)
	if err != nil {
		return nil, err
	}
	g, ok = t.replayGame(gl)
	if !ok {
		return nil, nil
	}
	// Read after v: the log holds v or more, and a snapshot kept under
	// an older version than its own is only rebuilt the sooner.
	g.version = v
	t.keep(id, g)
	return g, nil
}

// keep puts a snapshot in force for its version.
func (t *tournamentRoutes) keep(id string, g *tableGame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.snapshots[id] = g
	if g.tokenHash != "" {
		t.tokens[g.tokenHash] = id
	}
}

// written is the snapshot of a game just written in tx: its log as the
// transaction leaves it.
func written(tx *referee.LogTx, id string, g *tableGame) {
	if log, err := tx.Log(id); err == nil && len(log.Events) > 0 {
		last := log.Events[len(log.Events)-1]
		g.version = logVersion{last.Seq, last.Digest}
	}
}

// allGames are every game, in the order they were started.
func (t *tournamentRoutes) allGames(ctx context.Context) ([]*tableGame, []string, error) {
	heads, err := t.records.LogHeads(ctx)
	if err != nil {
		return nil, nil, err
	}
	var games []*tableGame
	var ids []string
	for _, h := range heads {
		if strings.HasPrefix(h.Game, tournamentLogPrefix) || h.First.Kind != logStart {
			continue
		}
		g, err := t.snapshot(ctx, h.Game, logVersion{h.Seq, h.Digest})
		if err != nil {
			return nil, nil, err
		}
		if g != nil {
			games, ids = append(games, g), append(ids, h.Game)
		}
	}
	return games, ids, nil
}

// gameOfToken finds the game whose table token hashes to hashed: a game's
// token never changes, so what was found once is kept, and the record is
// read again only for a token not known yet.
func (t *tournamentRoutes) gameOfToken(ctx context.Context, hashed string) (*tableGame, error) {
	id, ok := t.knownToken(hashed)
	if !ok {
		var err error
		if id, ok, err = t.lookForToken(ctx, hashed); err != nil || !ok {
			return nil, err
		}
	}
	return t.gameNamed(ctx, id)
}

// tokenLookGap is the least time between two looks through the games'
// logs for a table token this replica has not seen.
const tokenLookGap = 200 * time.Millisecond

// lookForToken looks through every game's log for a table token this
// replica has not seen (a game another replica started): one look at a
// time, each begun at least tokenLookGap after the one before, and a
// request that waited while a look began after it arrived takes that
// look's answer. However many made-up tokens a client sends, the store
// is read through at most once every tokenLookGap; a game started a
// moment ago on another replica is still found, as its token's look
// begins after the game was written.
func (t *tournamentRoutes) lookForToken(ctx context.Context, hashed string) (string, bool, error) {
	arrived := time.Now()
	t.look.Lock()
	defer t.look.Unlock()
	if t.lookedAt.After(arrived) {
		id, ok := t.knownToken(hashed)
		return id, ok, nil
	}
	if wait := time.Until(t.began.Add(tokenLookGap)); wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			return "", false, ctx.Err()
		}
	}
	began := time.Now()
	t.began = began
	t.looks.Inc()
	heads, err := t.records.LogHeads(ctx)
	if err != nil {
		return "", false, err
	}
	for _, h := range heads {
		if st, ok := startOf(h.First); ok && st.TokenSHA256 != "" {
			t.mu.Lock()
			t.tokens[st.TokenSHA256] = h.Game
			t.mu.Unlock()
		}
	}
	t.lookedAt = began
	id, ok := t.knownToken(hashed)
	return id, ok, nil
}

// knownToken is the game of a table token's hash as this replica knows it.
func (t *tournamentRoutes) knownToken(hashed string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, ok := t.tokens[hashed]
	return id, ok
}

// tourNamed is the tournament as its log stands now; nil when there is
// none.
func (t *tournamentRoutes) tourNamed(ctx context.Context, id string) (*tourState, error) {
	gl, err := t.records.GameLog(ctx, tournamentLogPrefix+id)
	if err != nil {
		return nil, err
	}
	st, ok, err := t.replayTournament(gl.Events, func(g string) (*tableGame, error) { return t.gameNamed(ctx, g) })
	if err != nil || !ok {
		return nil, err
	}
	return st, nil
}

// tableNamed is the setup in force of a table; nil when there is none.
func (t *tournamentRoutes) tableNamed(ctx context.Context, name string) (*tableSetup, error) {
	st, found, _, err := t.records.TableSetupOf(ctx, name)
	if err != nil || !found {
		return nil, err
	}
	var ts tableSetup
	if err := json.Unmarshal(st.Body, &ts); err != nil {
		t.s.log.Printf("table %s: setup unreadable (%v); register it again", name, err)
		return nil, nil
	}
	return &ts, nil
}

// peekedGame is a game read inside tx without its lock (a game of a
// tournament, ended before it was added): the snapshot kept for the
// log's version, or one rebuilt from it.
func (t *tournamentRoutes) peekedGame(tx *referee.LogTx, id string) (*tableGame, error) {
	if id == "" || strings.HasPrefix(id, tournamentLogPrefix) {
		return nil, nil
	}
	gl, err := tx.Peek(id)
	if err != nil || len(gl.Events) == 0 {
		return nil, err
	}
	last := gl.Events[len(gl.Events)-1]
	v := logVersion{last.Seq, last.Digest}
	t.mu.Lock()
	g, ok := t.snapshots[id]
	t.mu.Unlock()
	if ok && g.version == v && gl.Tampered == "" {
		return g, nil
	}
	g, ok = t.replayGame(gl)
	if !ok {
		return nil, nil
	}
	return g, nil
}
