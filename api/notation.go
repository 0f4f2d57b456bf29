package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/scoring"
)

// Notation is an MPSZ string read into the CONTRACT request fields.
type Notation struct {
	Hand     string             `json:"hand"`
	WinTile  string             `json:"win_tile"`
	Melds    []scoring.MeldSpec `json:"melds"`
	Tiles    []string           `json:"tiles"`
	Versions Versions           `json:"versions"`
}

// getNotation reads ?mpsz= (melds after commas, as the CLI takes them) so
// the web page's notation box shows exactly what the engines will see.
func (s *Server) getNotation(c echo.Context) error {
	q := c.QueryParam("mpsz")
	if strings.TrimSpace(q) == "" {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "give the hand in ?mpsz=, e.g. 123m456p55s,666=z")
	}
	concealed, melds, err := scoring.ParseMPSZ(q)
	if err != nil {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "notation: "+err.Error())
	}
	out := Notation{Hand: scoring.FormatTiles(concealed), Melds: []scoring.MeldSpec{}, Tiles: []string{}, Versions: s.versions()}
	for _, t := range concealed {
		out.Tiles = append(out.Tiles, scoring.FormatTiles([]scoring.Tile{t}))
	}
	if len(concealed) > 0 {
		out.WinTile = out.Tiles[len(out.Tiles)-1]
	}
	for _, m := range melds {
		out.Melds = append(out.Melds, scoring.MeldSpec{Type: m.Type.String(), Tiles: scoring.FormatTiles(m.Tiles), From: m.From.String()})
	}
	return c.JSON(http.StatusOK, out)
}
