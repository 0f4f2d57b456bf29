package api

import (
	"context"
	"encoding/json"
	"fmt"

	"mjscan/referee"
	"mjscan/tournament"
)

// gameStart is the first entry of a game's log.
type gameStart struct {
	ID          string    `json:"id"`
	Table       string    `json:"table"`
	Rules       string    `json:"rules"`
	Preset      string    `json:"preset,omitempty"`
	Players     [4]string `json:"players"`
	TokenSHA256 string    `json:"table_token_sha256"`
}

// Kinds of game log entries.
const (
	logStart   = "start"
	logPlay    = "play"
	logCorrect = "correct"
	logEnd     = "end"
)

// handCorrection is a correct entry of a game's log: hand Hand (counted
// from 1) is to be read as Play. The entry it corrects stays in the log.
type handCorrection struct {
	Hand int             `json:"hand"`
	Play tournament.Play `json:"play"`
}

// load rebuilds every game from its log. A hand that no longer settles
// (an engine changed its mind) stops that game's replay there; the log
// itself is untouched and the problem goes to the log.
func (t *tournamentRoutes) load(ctx context.Context) error {
	logs, err := t.records.GameLogs(ctx)
	if err != nil {
		return fmt.Errorf("reading game logs: %w", err)
	}
	var tourLogs [][]referee.GameEvent
	for _, gl := range logs {
		if gl.Tampered != "" {
			t.s.log.Printf("%s", gl.Tampered)
		}
		log := gl.Events
		if len(log) == 0 {
			continue // its first entry fails: nothing to rebuild from
		}
		if log[0].Kind == logTournament {
			tourLogs = append(tourLogs, log)
			continue
		}
		var st gameStart
		if log[0].Kind != logStart || json.Unmarshal(log[0].Body, &st) != nil {
			t.s.log.Printf("game %s: its log does not begin with the game's start; not loaded", log[0].Game)
			continue
		}
		g, err := tournament.NewGame(st.ID, st.Table, st.Rules, st.Players)
		if err == nil {
			err = g.UsePreset(st.Preset)
		}
		if err != nil {
			t.s.log.Printf("game %s: %v; not loaded", st.ID, err)
			continue
		}
		tg := &tableGame{game: g, tokenHash: st.TokenSHA256, logged: len(log), tampered: gl.Tampered}
		for _, e := range log[1:] {
			switch e.Kind {
			case logPlay:
				var p tournament.Play
				if err := json.Unmarshal(e.Body, &p); err == nil {
					_, err = g.Record(p)
				}
				if err != nil {
					t.s.log.Printf("game %s entry %d: %v; replay stopped", st.ID, e.Seq, err)
				}
			case logCorrect:
				var hc handCorrection
				err := json.Unmarshal(e.Body, &hc)
				if err == nil {
					var c *tournament.Correction
					if c, err = g.SettleCorrection(hc.Hand, hc.Play); err == nil {
						_, err = g.ApplyCorrection(c)
					}
				}
				if err != nil {
					t.s.log.Printf("game %s entry %d: %v; correction skipped", st.ID, e.Seq, err)
				}
			case logEnd:
				g.End()
			}
		}
		t.games[st.ID] = tg
		t.order = append(t.order, st.ID)
	}
	for _, log := range tourLogs {
		t.loadTournament(log)
	}
	return nil
}

// logEntry writes the next entry of a game's log.
func (t *tournamentRoutes) logEntry(ctx context.Context, logged *int, name, kind, by string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	if _, err := t.records.AppendGameEvent(ctx, referee.GameEvent{Game: name, Seq: *logged + 1, Kind: kind, By: by, Body: b}); err != nil {
		return storeProblem(err)
	}
	*logged++
	return nil
}

// An MSMC tournament lives in a log of its own, named with this prefix:
// its entrants first, then each game added and each score penalty.
const (
	tournamentLogPrefix = "tournament:"
	logTournament       = "tournament"
	logAddGame          = "add_game"
	logPenalty          = "penalty"
)

// loadTournament replays a tournament's log over the loaded games.
func (t *tournamentRoutes) loadTournament(log []referee.GameEvent) {
	var nt newTournament
	if err := json.Unmarshal(log[0].Body, &nt); err != nil {
		t.s.log.Printf("%s: unreadable start; not loaded", log[0].Game)
		return
	}
	tour, err := tournament.NewMSMC(nt.ID, nt.Entrants, nt.Organizer)
	if err != nil {
		t.s.log.Printf("%s: %v; not loaded", log[0].Game, err)
		return
	}
	for _, e := range log[1:] {
		var err error
		switch e.Kind {
		case logAddGame:
			var a addGame
			if err = json.Unmarshal(e.Body, &a); err == nil {
				if g, ok := t.games[a.Game]; ok {
					err = tour.Add(a.Stage, a.Table, g.game)
				} else {
					err = fmt.Errorf("game %s is not loaded", a.Game)
				}
			}
		case logPenalty:
			var p tournament.Penalty
			if err = json.Unmarshal(e.Body, &p); err == nil {
				err = tour.Penalize(p)
			}
		}
		if err != nil {
			t.s.log.Printf("%s entry %d: %v; skipped", log[0].Game, e.Seq, err)
		}
	}
	t.tours[nt.ID] = &tourState{tour: tour, logged: len(log)}
}

func (t *tournamentRoutes) loadTables(ctx context.Context) error {
	setups, problems, err := t.records.TableSetups(ctx)
	if err != nil {
		return fmt.Errorf("reading table setups: %w", err)
	}
	for _, p := range problems {
		t.s.log.Printf("%s", p)
	}
	for name, st := range setups {
		var ts tableSetup
		if err := json.Unmarshal(st.Body, &ts); err != nil {
			t.s.log.Printf("table %s: setup unreadable (%v); register it again", name, err)
			continue
		}
		t.tables[name] = &ts
	}
	return nil
}
