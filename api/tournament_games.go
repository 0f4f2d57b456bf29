package api

import (
	"crypto/rand"
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

// tableGame is a game being played, the hash of its table's token and the
// length of its log. Each change is written to the game's log in the
// referee store before it is answered, and games are rebuilt from their
// logs when the service starts.
type tableGame struct {
	game      *tournament.Game
	tokenHash string
	logged    int
	// proposed counts the table's score-now proposals by hand number.
	proposed map[int]int
	// tampered says why the game's log cannot be trusted past the entries
	// replayed (the store then refuses new entries).
	tampered string
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
	Tampered string   `json:"tampered,omitempty"`
	Versions Versions `json:"versions"`
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
	tok := make([]byte, 18)
	if _, err := rand.Read(tok); err != nil {
		return err
	}
	token := "table-" + hex.EncodeToString(tok)
	tg := &tableGame{game: g, tokenHash: tokenHash(token)}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.games[in.ID]; dup {
		return gameExists()
	}
	start := gameStart{ID: in.ID, Table: in.Table, Rules: in.Rules, Preset: in.Preset, Players: players, TokenSHA256: tg.tokenHash}
	if err := t.logEntry(c.Request().Context(), &tg.logged, in.ID, logStart, string(callerOf(c).role), start); err != nil {
		if errors.Is(err, referee.ErrSeqTaken) {
			return gameExists()
		}
		return err
	}
	t.games[in.ID] = tg
	t.order = append(t.order, in.ID)
	return c.JSON(http.StatusCreated, GameResponse{Game: g, TableToken: token, Versions: t.s.versions()})
}

func gameExists() *fault.Error {
	return fault.New(fault.Conflict, scoring.CodeBadRequest, "a game with this id exists already")
}

// game finds a game the caller may see.
func (t *tournamentRoutes) game(c echo.Context) (*tableGame, error) {
	t.mu.Lock()
	g, ok := t.games[c.Param("id")]
	t.mu.Unlock()
	who := callerOf(c)
	if !ok || (who.role == roleTable && who.game != c.Param("id")) {
		// A table never learns whether another table's game exists.
		return nil, noGame()
	}
	return g, nil
}

func (t *tournamentRoutes) getGame(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return c.JSON(http.StatusOK, GameResponse{Game: g.game, Tampered: g.tampered, Versions: t.s.versions()})
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
	g, err := t.game(c)
	if err != nil {
		return err
	}
	var p tournament.Play
	if err := bindStrict(c, "the hand's outcome", &p); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	rec, err := app.RecordHand(g.game, p, func() error {
		return t.logEntry(c.Request().Context(), &g.logged, g.game.ID, logPlay, string(callerOf(c).role), p)
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, HandResponse{Hand: rec, Scores: g.game.Scores, Sticks: g.game.Sticks, Over: g.game.Over, Versions: t.s.versions()})
}

func (t *tournamentRoutes) postEnd(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !g.game.Over {
		if err := t.logEntry(c.Request().Context(), &g.logged, g.game.ID, logEnd, string(callerOf(c).role), map[string]bool{"ended": true}); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"final": g.game.End(), "versions": t.s.versions()})
}

// postCorrection corrects a hand already recorded: a new entry of the
// game's log points at the hand by its number, and the game is settled
// again as if the hand had been played so. The hand replaced stays in the
// log and in the game's corrected; it no longer counts.
func (t *tournamentRoutes) postCorrection(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
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
	t.mu.Lock()
	defer t.mu.Unlock()
	rec, err := app.CorrectHand(g.game, n, p, func() error {
		return t.logEntry(c.Request().Context(), &g.logged, g.game.ID, logCorrect, string(callerOf(c).role), handCorrection{Hand: n, Play: p})
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, HandResponse{Hand: rec, Scores: g.game.Scores, Sticks: g.game.Sticks, Over: g.game.Over, Versions: t.s.versions()})
}
