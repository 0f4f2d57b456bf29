package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/scoring/mcr"
)

// Notation is an MPSZ string read into the CONTRACT request fields.
type Notation struct {
	Hand    string             `json:"hand"`
	WinTile string             `json:"win_tile"`
	Melds   []scoring.MeldSpec `json:"melds"`
	Tiles   []string           `json:"tiles"`
	// MPSZ is the same hand in MPSZ with melds after commas ("123m55z,666=z"),
	// whichever notation it was given in.
	MPSZ     string   `json:"mpsz"`
	Versions Versions `json:"versions"`
}

// getNotation reads ?mpsz= (melds after commas, as the CLI takes them), or
// with ?notation=mcr the MCR tools' bracket notation ("[123m,1]45m…"), so
// the web page's notation box shows exactly what the engines will see. The
// answer is in CONTRACT codes either way.
func (s *Server) getNotation(c echo.Context) error {
	q := c.QueryParam("mpsz")
	if strings.TrimSpace(q) == "" {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "give the hand in ?mpsz=, e.g. 123m456p55s,666=z")
	}
	var concealed []scoring.Tile
	var melds []scoring.Meld
	switch n := c.QueryParam("notation"); n {
	case "", "mpsz":
		var err error
		if concealed, melds, err = scoring.ParseMPSZ(q); err != nil {
			return fault.New(fault.Invalid, scoring.CodeBadRequest, "notation: "+err.Error())
		}
	case "mcr":
		h, err := mcr.ParseMCR(q)
		if err != nil {
			return fault.New(fault.Invalid, scoring.CodeBadRequest, "notation: "+err.Error())
		}
		concealed, melds = h.Tiles, h.Melds
	default:
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "notation "+strconv.Quote(n)+" is not one this service reads: use mpsz (the default) or mcr (the MCR tools' brackets)")
	}
	out := Notation{Hand: scoring.FormatTiles(concealed), Melds: []scoring.MeldSpec{}, Tiles: []string{}, MPSZ: scoring.FormatMPSZ(concealed, melds), Versions: s.versions()}
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
