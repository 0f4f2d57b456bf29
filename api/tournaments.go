package api

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// tourState is a tournament rebuilt from its log.
type tourState struct {
	tour *tournament.Tournament
}

type newTournament struct {
	ID        string   `json:"id"`
	Entrants  []string `json:"entrants"`
	Organizer string   `json:"organizer,omitempty"`
}

type addGame struct {
	Stage tournament.Stage `json:"stage"`
	Table int              `json:"table"`
	Game  string           `json:"game"`
}

func (t *tournamentRoutes) postTournament(c echo.Context) error {
	var in newTournament
	if err := bindStrict(c, "the tournament (id, entrants in draw order, organizer)", &in); err != nil {
		return err
	}
	if in.ID == "" {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "a tournament needs an id")
	}
	tour, err := tournament.NewMSMC(in.ID, in.Entrants, in.Organizer)
	if err != nil {
		return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
	}
	name := tournamentLogPrefix + in.ID
	err = t.records.UpdateLogs(c.Request().Context(), []string{name}, func(tx *referee.LogTx) error {
		if log, err := tx.Log(name); err != nil {
			return err
		} else if len(log.Events) > 0 || log.Tampered != "" {
			return tournamentExists()
		}
		return appendEntry(tx, name, logTournament, string(callerOf(c).role), in)
	})
	if errors.Is(err, referee.ErrSeqTaken) {
		return tournamentExists()
	}
	if err != nil {
		return storeProblem(err)
	}
	return c.JSON(http.StatusCreated, t.tourView(tour))
}

func tournamentExists() *fault.Error {
	return fault.New(fault.Conflict, scoring.CodeBadRequest, "a tournament with this id exists already")
}

func (t *tournamentRoutes) tour(c echo.Context) (*tourState, error) {
	st, err := t.tourNamed(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, storeProblem(err)
	}
	if st == nil {
		return nil, noTournament()
	}
	return st, nil
}

func noTournament() *fault.Error {
	return fault.New(fault.NotFound, codeNotFound, "no tournament with this id")
}

// lockedTour rebuilds a tournament from its log inside tx (which holds
// the log's lock), over the games as they stand.
func (t *tournamentRoutes) lockedTour(tx *referee.LogTx, id string, game func(string) (*tableGame, error)) (*tourState, error) {
	log, err := tx.Log(tournamentLogPrefix + id)
	if err != nil {
		return nil, err
	}
	if log.Tampered != "" {
		return nil, tamperedProblem(log.Tampered)
	}
	st, ok, err := t.replayTournament(log.Events, game)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, noTournament()
	}
	return st, nil
}

// tourView is a tournament with what follows from it: who plays next,
// the finalists once known, and the standings.
func (t *tournamentRoutes) tourView(tour *tournament.Tournament) map[string]any {
	next := map[string][]string{}
	for table := 0; table < max(tour.Format.Tables, 1); table++ {
		if p, err := tour.NextPlayers(tournament.Qualifier, table); err == nil {
			next[fmt.Sprintf("qualifier table %d", table)] = p
		}
	}
	if p, err := tour.NextPlayers(tournament.Finals, 0); err == nil {
		next["final"] = p
	}
	view := map[string]any{"tournament": tour, "next": next, "standings": tour.Standings(), "versions": t.s.versions()}
	if f, err := tour.Finalists(); err == nil {
		view["finalists"] = f
	}
	if w, err := tour.Winner(); err == nil {
		view["winner"] = w
	}
	return view
}

// getTournament answers the tournament, or with ?format=csv its standings
// as CSV.
func (t *tournamentRoutes) getTournament(c echo.Context) error {
	st, err := t.tour(c)
	if err != nil {
		return err
	}
	if c.QueryParam("format") == "csv" {
		var buf bytes.Buffer
		if err := tournament.WriteCSV(&buf, st.tour.Standings()); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
	return c.JSON(http.StatusOK, t.tourView(st.tour))
}

// postTournamentGame adds a game to the tournament; an unfinished game is
// ended first (the organiser's time limit).
func (t *tournamentRoutes) postTournamentGame(c echo.Context) error {
	var in addGame
	if err := bindStrict(c, "the game to add (stage, table, game)", &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	if referee.CheckLogName(tournamentLogPrefix+id) != nil {
		return noTournament() // no tournament was ever written under it
	}
	by := string(callerOf(c).role)
	var view map[string]any
	err := t.records.UpdateLogs(ctx, []string{in.Game, tournamentLogPrefix + id}, func(tx *referee.LogTx) error {
		var g *tableGame
		if !strings.HasPrefix(in.Game, tournamentLogPrefix) {
			log, err := tx.Log(in.Game)
			if err != nil {
				return err
			}
			g, _ = t.replayGame(log)
		}
		st, err := t.lockedTour(tx, id, func(other string) (*tableGame, error) {
			if other == in.Game {
				return g, nil
			}
			return t.peekedGame(tx, other)
		})
		if err != nil {
			return err
		}
		if g == nil {
			return fault.New(fault.NotFound, codeNotFound, "no game "+quoteID(in.Game))
		}
		// Check first, so a refused game is neither ended nor logged.
		if err := st.tour.CheckAdd(in.Stage, in.Table, g.game); err != nil {
			return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, err.Error())
		}
		if !g.game.Over {
			if g.stopped != "" {
				return tamperedProblem(g.stopped)
			}
			if err := appendEntry(tx, in.Game, logEnd, by, map[string]bool{"ended": true}); err != nil {
				return err
			}
			g.game.End() // as its log now says
		}
		if err := appendEntry(tx, tournamentLogPrefix+id, logAddGame, by, in); err != nil {
			return err
		}
		if err := st.tour.Add(in.Stage, in.Table, g.game); err != nil {
			return err
		}
		view = t.tourView(st.tour)
		return nil
	})
	if err != nil {
		return storeProblem(err)
	}
	return c.JSON(http.StatusOK, view)
}

// postPenalty takes points off a player's final score (seed 000).
func (t *tournamentRoutes) postPenalty(c echo.Context) error {
	var p tournament.Penalty
	if err := bindStrict(c, "the penalty (player, points, reason)", &p); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	if referee.CheckLogName(tournamentLogPrefix+id) != nil {
		return noTournament() // no tournament was ever written under it
	}
	var view map[string]any
	err := t.records.UpdateLogs(ctx, []string{tournamentLogPrefix + id}, func(tx *referee.LogTx) error {
		st, err := t.lockedTour(tx, id, func(g string) (*tableGame, error) { return t.peekedGame(tx, g) })
		if err != nil {
			return err
		}
		// Fix the stage now, so replaying the log later gives the same one.
		p, err = st.tour.CheckPenalty(p)
		if err != nil {
			return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
		}
		if err := appendEntry(tx, tournamentLogPrefix+id, logPenalty, string(callerOf(c).role), p); err != nil {
			return err
		}
		if err := st.tour.Penalize(p); err != nil {
			return err // checked in the same transaction: only a bug gets here
		}
		view = t.tourView(st.tour)
		return nil
	})
	if err != nil {
		return storeProblem(err)
	}
	return c.JSON(http.StatusCreated, view)
}
