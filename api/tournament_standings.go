package api

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/tournament"
)

func (t *tournamentRoutes) getMJAI(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	err = g.game.MJAI(&buf)
	if err != nil {
		return fault.Wrap(err, fault.Unprocessable, scoring.CodeBadRequest, err.Error())
	}
	// One JSON event a line, as MJAI logs are kept (plain text, so a
	// browser shows it).
	c.Response().Header().Set("Content-Disposition", `inline; filename="`+strings.ReplaceAll(g.game.ID, `"`, "")+`.mjson"`)
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", buf.Bytes())
}

// getStandings adds up the games named in ?games=a,b (all games when
// absent), penalties not included; as CSV with ?format=csv.
func (t *tournamentRoutes) getStandings(c echo.Context) error {
	all, ids, err := t.allGames(c.Request().Context())
	if err != nil {
		return storeProblem(err)
	}
	byID := make(map[string]*tableGame, len(ids))
	for i, id := range ids {
		byID[id] = all[i]
	}
	if q := c.QueryParam("games"); q != "" {
		ids = strings.Split(q, ",")
	}
	var games []*tournament.Game
	for _, id := range ids {
		g, ok := byID[id]
		if !ok {
			return fault.New(fault.NotFound, codeNotFound, "no game "+quoteID(id))
		}
		games = append(games, g.game)
	}
	rows := tournament.Standings(games, nil)
	if c.QueryParam("format") == "csv" {
		var buf bytes.Buffer
		if err := tournament.WriteCSV(&buf, rows); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
	return c.JSON(http.StatusOK, map[string]any{"standings": rows, "versions": t.s.versions()})
}
