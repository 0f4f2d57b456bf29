package api

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

type tourState struct {
	tour   *tournament.Tournament
	logged int
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
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.tours[in.ID]; dup {
		return tournamentExists()
	}
	st := &tourState{tour: tour}
	if err := t.logEntry(c.Request().Context(), &st.logged, tournamentLogPrefix+in.ID, logTournament, string(callerOf(c).role), in); err != nil {
		if errors.Is(err, referee.ErrSeqTaken) {
			return tournamentExists()
		}
		return err
	}
	t.tours[in.ID] = st
	return c.JSON(http.StatusCreated, t.tourView(tour))
}

func tournamentExists() *fault.Error {
	return fault.New(fault.Conflict, scoring.CodeBadRequest, "a tournament with this id exists already")
}

func (t *tournamentRoutes) tour(c echo.Context) (*tourState, error) {
	st, ok := t.tours[c.Param("id")]
	if !ok {
		return nil, fault.New(fault.NotFound, codeNotFound, "no tournament with this id")
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
	t.mu.Lock()
	defer t.mu.Unlock()
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
	t.mu.Lock()
	defer t.mu.Unlock()
	st, err := t.tour(c)
	if err != nil {
		return err
	}
	g, ok := t.games[in.Game]
	if !ok {
		return fault.New(fault.NotFound, codeNotFound, "no game "+quoteID(in.Game))
	}
	ctx := c.Request().Context()
	by := string(callerOf(c).role)
	// Check first, so a refused game is neither ended nor logged.
	if err := st.tour.CheckAdd(in.Stage, in.Table, g.game); err != nil {
		return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, err.Error())
	}
	if !g.game.Over {
		if err := t.logEntry(ctx, &g.logged, g.game.ID, logEnd, by, map[string]bool{"ended": true}); err != nil {
			return err
		}
		g.game.End() // as its log now says
	}
	if err := t.logEntry(ctx, &st.logged, tournamentLogPrefix+st.tour.Name, logAddGame, by, in); err != nil {
		return err
	}
	if err := st.tour.Add(in.Stage, in.Table, g.game); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t.tourView(st.tour))
}

// postPenalty takes points off a player's final score (seed 000).
func (t *tournamentRoutes) postPenalty(c echo.Context) error {
	var p tournament.Penalty
	if err := bindStrict(c, "the penalty (player, points, reason)", &p); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	st, err := t.tour(c)
	if err != nil {
		return err
	}
	// Fix the stage now, so replaying the log later gives the same one.
	p, err = st.tour.CheckPenalty(p)
	if err != nil {
		return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
	}
	if err := t.logEntry(c.Request().Context(), &st.logged, tournamentLogPrefix+st.tour.Name, logPenalty, string(callerOf(c).role), p); err != nil {
		return err
	}
	if err := st.tour.Penalize(p); err != nil {
		return err // checked under the same lock: only a bug gets here
	}
	return c.JSON(http.StatusCreated, t.tourView(st.tour))
}
