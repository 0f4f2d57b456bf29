package api

import (
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
	// Nonce makes the table token (tableToken), and Key is the digest of
	// the Idempotency-Key the game was created with: a create retried
	// with its key after its answer was lost gets the same token again.
	Nonce string `json:"table_token_nonce,omitempty"`
	Key   string `json:"idempotency_key,omitempty"`
}

// startOf reads a log's first entry as a game's start; false for any
// other entry (a tournament's, or one that does not parse).
func startOf(e referee.GameEvent) (gameStart, bool) {
	var st gameStart
	if e.Kind != logStart || json.Unmarshal(e.Body, &st) != nil {
		return gameStart{}, false
	}
	return st, true
}

// sameGame says whether two starts ask for the same game.
func (st gameStart) sameGame(o gameStart) bool {
	return st.ID == o.ID && st.Table == o.Table && st.Rules == o.Rules && st.Preset == o.Preset && st.Players == o.Players
}

// Kinds of game log entries.
const (
	logStart   = "start"
	logPlay    = "play"
	logCorrect = "correct"
	logEnd     = "end"
)

// playEntry is a play entry of a game's log: the hand's outcome, and the
// digest of the Idempotency-Key it was sent with, if any.
type playEntry struct {
	tournament.Play
	Key string `json:"idempotency_key,omitempty"`
}

// handCorrection is a correct entry of a game's log: hand Hand (counted
// from 1) is to be read as Play. The entry it corrects stays in the log.
type handCorrection struct {
	Hand int             `json:"hand"`
	Play tournament.Play `json:"play"`
}

// replayGame rebuilds a game from its log. A hand that no longer settles
// (an engine changed its mind) stops the replay there: the game stands as
// before that entry and takes no more (stopped says why; the log itself
// is untouched). ok is false for a log that is not a game's.
func (t *tournamentRoutes) replayGame(gl referee.GameLog) (tg *tableGame, ok bool) {
	log := gl.Events
	if len(log) == 0 || log[0].Kind == logTournament {
		return nil, false // its first entry fails, or a tournament's log
	}
	st, ok := startOf(log[0])
	if !ok {
		t.s.log.Printf("game %s: its log does not begin with the game's start; not loaded", log[0].Game)
		return nil, false
	}
	g, err := tournament.NewGame(st.ID, st.Table, st.Rules, st.Players)
	if err == nil {
		err = g.UsePreset(st.Preset)
	}
	if err != nil {
		t.s.log.Printf("game %s: %v; not loaded", st.ID, err)
		return nil, false
	}
	tg = &tableGame{game: g, tokenHash: st.TokenSHA256, tampered: gl.Tampered}
replay:
	for _, e := range log[1:] {
		switch e.Kind {
		case logPlay:
			var p playEntry
			err := json.Unmarshal(e.Body, &p)
			if err == nil {
				_, err = g.Record(p.Play)
			}
			if err == nil && p.Key != "" {
				tg.keyHand(p.Key)
			}
			if err != nil {
				t.s.log.Printf("game %s entry %d: %v; replay stopped", st.ID, e.Seq, err)
				tg.stopped = fmt.Sprintf("game %s: hand entry %d of its log no longer settles (%v): the game stands as before it and takes no more hands; tell the head referee", st.ID, e.Seq, err)
				break replay
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
	return tg, true
}

// appendEntry writes the next entry of a locked log.
func appendEntry(tx *referee.LogTx, name, kind, by string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	if _, err := tx.Append(name, kind, by, b); err != nil {
		return storeProblem(err)
	}
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

// replayTournament rebuilds a tournament from its log over its games as
// they stand (game finds one; a game added was ended first, so it no
// longer changes). ok is false for a log that is not a tournament's.
func (t *tournamentRoutes) replayTournament(log []referee.GameEvent, game func(id string) (*tableGame, error)) (_ *tourState, ok bool, _ error) {
	if len(log) == 0 || log[0].Kind != logTournament {
		return nil, false, nil
	}
	var nt newTournament
	if err := json.Unmarshal(log[0].Body, &nt); err != nil {
		t.s.log.Printf("%s: unreadable start; not loaded", log[0].Game)
		return nil, false, nil
	}
	tour, err := tournament.NewMSMC(nt.ID, nt.Entrants, nt.Organizer)
	if err != nil {
		t.s.log.Printf("%s: %v; not loaded", log[0].Game, err)
		return nil, false, nil
	}
	for _, e := range log[1:] {
		var err error
		switch e.Kind {
		case logAddGame:
			var a addGame
			if err = json.Unmarshal(e.Body, &a); err == nil {
				g, gerr := game(a.Game)
				switch {
				case gerr != nil:
					return nil, false, gerr
				case g != nil:
					err = tour.Add(a.Stage, a.Table, g.game)
				default:
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
	return &tourState{tour: tour}, true, nil
}
