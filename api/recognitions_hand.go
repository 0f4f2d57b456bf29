package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/scoring"
	"mjscan/vision"
)

// GroupsRequest is a recognition's tiles, as the player corrected them, and
// its groups.
type GroupsRequest struct {
	Tiles  []vision.TileSeen `json:"tiles"`
	Groups []vision.Group    `json:"groups"`
}

// GroupedHand is the hand the groups make: the phone page shows it and
// scores it, so that the page never puts a hand together itself.
type GroupedHand struct {
	Hand *scoring.Request `json:"hand"`
	// Complete says whether it is a whole hand (14 tiles, each kong
	// counted as three, none face down among the concealed ones).
	Complete bool     `json:"complete"`
	Versions Versions `json:"versions"`
}

// postHand builds the hand from a recognition's (corrected) tiles and
// groups, by the same rule the recogniser used.
func (s *Server) postHand(c echo.Context) error {
	body, err := readJSONBody(c, `{"tiles": the tiles seen, "groups": their groups}`)
	if err != nil {
		return err
	}
	var in GroupsRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return jsonProblem(err, &in, "the tiles and groups")
	}
	hand, complete, err := app.HandFromGroups(in.Tiles, in.Groups)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, GroupedHand{Hand: hand, Complete: complete, Versions: s.versions()})
}
