package api

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// tableGame is a game being played and the hash of its table's token: a
// snapshot rebuilt from the game's log in the referee store
// (tournament_state.go). Each change is written to the log before it is
// answered, in a transaction that holds the log's lock.
type tableGame struct {
	game      *tournament.Game
	tokenHash string
	// version is the state of the log the snapshot was rebuilt from.
	version logVersion
	// tampered says why the game's log cannot be trusted past the entries
	// replayed (the store then refuses new entries).
	tampered string
	// stopped says why the replay stopped at a hand that no longer
	// settles: the game takes no more entries.
	stopped string
	// keys are the hands recorded with an Idempotency-Key: the key's
	// digest and the hand's number. A retry whose first try was written
	// but never answered (its replica died) finds its hand here.
	keys map[string]int
}

// lockedGame rebuilds a game from its log inside tx (which holds the log's
// lock): the state a write builds on.
func (t *tournamentRoutes) lockedGame(tx *referee.LogTx, id string) (*tableGame, error) {
	log, err := tx.Log(id)
	if err != nil {
		return nil, err
	}
	g, ok := t.replayGame(log)
	if !ok {
		return nil, noGame()
	}
	if g.stopped != "" {
		return nil, tamperedProblem(g.stopped)
	}
	return g, nil
}

// keyHand notes that the game's last hand was recorded with key.
func (g *tableGame) keyHand(key string) {
	if g.keys == nil {
		g.keys = map[string]int{}
	}
	g.keys[key] = len(g.game.Hands)
}

// changeGame changes game id under its log's lock: the game is rebuilt
// from its log inside the transaction, change appends to the log and
// changes the game, and the game as changed is kept for later reads.
func (t *tournamentRoutes) changeGame(ctx context.Context, id string, change func(tx *referee.LogTx, g *tableGame) error) (*tableGame, error) {
	var g *tableGame
	err := t.records.UpdateLogs(ctx, []string{id}, func(tx *referee.LogTx) error {
		var err error
		if g, err = t.lockedGame(tx, id); err != nil {
			return err
		}
		err = change(tx, g)
		written(tx, id, g)
		return err
	})
	if err != nil {
		return nil, storeProblem(err)
	}
	t.keep(id, g)
	return g, nil
}

type newGame struct {
	ID    string `json:"id"`
	Table string `json:"table"`
	Rules string `json:"rules"`
	// Preset is the scoring preset of the rules' rule set the hands are
	// scored under; the tournament rules' own when left out.
	Preset  string   `json:"preset,omitempty"`
	Players []string `json:"players"`
}

// GameResponse is a game with, on creation only, its table token.
type GameResponse struct {
	*tournament.Game
	TableToken string `json:"table_token,omitempty"`
	// Tampered says why the game's log cannot be trusted: the game stands
	// as its log was before the entry that fails, and takes no more hands.
	Tampered string `json:"tampered,omitempty"`
	// Next is the hand being played, until the game is over.
	Next     *tournament.NextHand `json:"next,omitempty"`
	Versions Versions             `json:"versions"`
}

func (t *tournamentRoutes) postGame(c echo.Context) error {
	var in newGame
	if err := bindStrict(c, "the game (id, table, rules, preset, players)", &in); err != nil {
		return err
	}
	if in.ID == "" || in.Table == "" || strings.HasPrefix(in.ID, tournamentLogPrefix) {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "a game needs an id (not starting with "+tournamentLogPrefix+") and a table")
	}
	players, err := fourSeats(in.Players)
	if err != nil {
		return err
	}
	g, err := tournament.NewGame(in.ID, in.Table, in.Rules, players)
	if err == nil {
		err = g.UsePreset(in.Preset)
	}
	if err != nil {
		return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
	}
	nonce := make([]byte, 18)
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	start := gameStart{ID: in.ID, Table: in.Table, Rules: in.Rules, Preset: in.Preset, Players: players,
		Nonce: hex.EncodeToString(nonce), Key: idemKeyOf(c)}
	token := t.tableToken(start)
	tg := &tableGame{game: g, tokenHash: tokenHash(token)}
	start.TokenSHA256 = tg.tokenHash
	var again *gameStart // this very create, written before and never answered
	err = t.records.UpdateLogs(c.Request().Context(), []string{in.ID}, func(tx *referee.LogTx) error {
		log, err := tx.Log(in.ID)
		if err != nil {
			return err
		}
		if len(log.Events) > 0 || log.Tampered != "" {
			if st, ok := startOf(log.Events[0]); ok && start.Key != "" && log.Tampered == "" && st.Key == start.Key && st.sameGame(start) {
				again = &st
				return nil
			}
			return gameExists()
		}
		if err := appendEntry(tx, in.ID, logStart, string(callerOf(c).role), start); err != nil {
			return err
		}
		written(tx, in.ID, tg)
		return nil
	})
	if errors.Is(err, referee.ErrSeqTaken) {
		return gameExists()
	}
	if err != nil {
		return storeProblem(err)
	}
	if again != nil {
		return t.answerCreatedAgain(c, *again)
	}
	t.keep(in.ID, tg)
	return c.JSON(http.StatusCreated, GameResponse{Game: g, TableToken: token, Next: g.Next(), Versions: t.s.versions()})
}

// tableToken is a game's table token: made from the organiser's token and
// the game's start (its id and nonce), so that the same start gives the
// same token again, and only its digest is kept in the log.
func (t *tournamentRoutes) tableToken(st gameStart) string {
	mac := hmac.New(sha256.New, []byte(t.cfg.OrganizerToken))
	mac.Write([]byte("mjscan table token\x00" + st.ID + "\x00" + st.Nonce))
	return "table-" + hex.EncodeToString(mac.Sum(nil)[:18])
}

// tokenAgain makes a game's table token again from its start, when the
// start was written so that it can be (a nonce, and the digest of the
// token this organiser token makes from it).
func (t *tournamentRoutes) tokenAgain(st gameStart) (string, bool) {
	token := t.tableToken(st)
	return token, st.Nonce != "" && hmac.Equal([]byte(tokenHash(token)), []byte(st.TokenSHA256))
}

// TableTokenResponse is a game's table token, given again.
type TableTokenResponse struct {
	Game       string   `json:"game"`
	Table      string   `json:"table"`
	TableToken string   `json:"table_token"`
	Versions   Versions `json:"versions"`
}

// getTableToken gives a game's table token again, to the organiser only:
// the table's phone was lost, replaced or cleared, and the table goes on
// with the same token (it is made from the game's start, not stored). A
// game that is over, or was started before tokens were made so or under
// another organiser token, has none to give.
func (t *tournamentRoutes) getTableToken(c echo.Context) error {
	id := c.Param("id")
	g, err := t.game(c)
	if err != nil {
		return err
	}
	if g.game.Over {
		return fault.New(fault.Conflict, scoring.CodeBadRequest, "game "+id+" is over, so its table token no longer works: the results are at GET /v1/games/"+id)
	}
	log, err := t.records.GameLog(c.Request().Context(), id)
	if err != nil {
		return storeProblem(err)
	}
	var st gameStart
	ok := len(log.Events) > 0
	if ok {
		st, ok = startOf(log.Events[0])
	}
	token, again := t.tokenAgain(st)
	if !ok || !again {
		return fault.New(fault.Conflict, scoring.CodeBadRequest, "game "+id+"'s table token cannot be made again: the game was started before tokens were made so, or under another organiser token; start the rest of it as a new game")
	}
	return c.JSON(http.StatusOK, TableTokenResponse{Game: id, Table: st.Table, TableToken: token, Versions: t.s.versions()})
}

// answerCreatedAgain answers a create retried with its Idempotency-Key
// whose game was written but whose answer was lost (the replica died, or
// the key's answer lapsed): the game as it stands, with its table token
// made again. A game started before tokens were made so, or under another
// organiser token, cannot give its token again and is told it exists.
func (t *tournamentRoutes) answerCreatedAgain(c echo.Context, st gameStart) error {
	token, ok := t.tokenAgain(st)
	if !ok {
		return gameExists()
	}
	tg, err := t.gameNamed(c.Request().Context(), st.ID)
	if err != nil {
		return storeProblem(err)
	}
	if tg == nil {
		return gameExists()
	}
	return c.JSON(http.StatusCreated, GameResponse{Game: tg.game, TableToken: token, Next: tg.game.Next(), Versions: t.s.versions()})
}

func gameExists() *fault.Error {
	return fault.New(fault.Conflict, scoring.CodeBadRequest, "a game with this id exists already")
}

// game finds a game the caller may see.
func (t *tournamentRoutes) game(c echo.Context) (*tableGame, error) {
	who := callerOf(c)
	if who.role == roleTable && who.game != c.Param("id") {
		// A table never learns whether another table's game exists.
		return nil, noGame()
	}
	g, err := t.gameNamed(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, storeProblem(err)
	}
	if g == nil {
		return nil, noGame()
	}
	return g, nil
}

func (t *tournamentRoutes) getGame(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	tampered := g.tampered
	if tampered == "" {
		tampered = g.stopped
	}
	return c.JSON(http.StatusOK, GameResponse{Game: g.game, Tampered: tampered, Next: g.game.Next(), Versions: t.s.versions()})
}

// HandResponse is one settled hand.
type HandResponse struct {
	Hand     *tournament.HandRecord `json:"hand"`
	Scores   [4]int                 `json:"scores"`
	Sticks   int                    `json:"sticks"`
	Over     bool                   `json:"over"`
	Versions Versions               `json:"versions"`
}

func (t *tournamentRoutes) postHand(c echo.Context) error {
	if _, err := t.game(c); err != nil {
		return err
	}
	var p tournament.Play
	if err := bindStrict(c, "the hand's outcome", &p); err != nil {
		return err
	}
	var rec *tournament.HandRecord
	id, key := c.Param("id"), idemKeyOf(c)
	g, err := t.changeGame(c.Request().Context(), id, func(tx *referee.LogTx, g *tableGame) error {
		if n, ok := g.keys[key]; ok && key != "" {
			rec = &g.game.Hands[n-1] // written before, never answered
			return nil
		}
		var err error
		rec, err = app.RecordHand(g.game, p, func() error {
			return appendEntry(tx, id, logPlay, string(callerOf(c).role), playEntry{Play: p, Key: key})
		})
		if err == nil && key != "" {
			g.keyHand(key)
		}
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, HandResponse{Hand: rec, Scores: g.game.Scores, Sticks: g.game.Sticks, Over: g.game.Over, Versions: t.s.versions()})
}

func (t *tournamentRoutes) postEnd(c echo.Context) error {
	if _, err := t.game(c); err != nil {
		return err
	}
	id := c.Param("id")
	g, err := t.changeGame(c.Request().Context(), id, func(tx *referee.LogTx, g *tableGame) error {
		if !g.game.Over {
			if err := appendEntry(tx, id, logEnd, string(callerOf(c).role), map[string]bool{"ended": true}); err != nil {
				return err
			}
		}
		g.game.End()
		return nil
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"final": g.game.End(), "versions": t.s.versions()})
}

// postCorrection corrects a hand already recorded: a new entry of the
// game's log points at the hand by its number, and the game is settled
// again as if the hand had been played so. The hand replaced stays in the
// log and in the game's corrected; it no longer counts.
func (t *tournamentRoutes) postCorrection(c echo.Context) error {
	if _, err := t.game(c); err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("number"))
	if err != nil || n < 1 {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "the hand to correct is named by its number, counted from 1")
	}
	var p tournament.Play
	if err := bindStrict(c, "the hand's corrected outcome", &p); err != nil {
		return err
	}
	var rec *tournament.HandRecord
	id := c.Param("id")
	g, err := t.changeGame(c.Request().Context(), id, func(tx *referee.LogTx, g *tableGame) error {
		var err error
		rec, err = app.CorrectHand(g.game, n, p, func() error {
			return appendEntry(tx, id, logCorrect, string(callerOf(c).role), handCorrection{Hand: n, Play: p})
		})
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, HandResponse{Hand: rec, Scores: g.game.Scores, Sticks: g.game.Sticks, Over: g.game.Over, Versions: t.s.versions()})
}
