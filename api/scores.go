package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// ScoreResponse is the CONTRACT result (section 4) with the versions that
// produced it.
type ScoreResponse struct {
	scoring.Result
	Versions Versions `json:"versions"`
}

// versioned is implemented by an engine that versions its rule set apart
// from the binary.
type versioned interface{ Version() string }

func (s *Server) scoreVersions(req *scoring.Request, res *scoring.Result) Versions {
	v := s.versions()
	v.Rules = req.Rules
	v.Preset = res.Preset
	if v.Preset == "" {
		v.Preset = req.Preset
	}
	v.RuleSet = s.deps.Version
	if e, ok := rulebook.Lookup(req.Rules); ok {
		if ev, ok := e.(versioned); ok {
			v.RuleSet = ev.Version()
		}
	}
	return v
}

// readJSONBody is a whole JSON body (read by intake, within the body limit).
func readJSONBody(c echo.Context, what string) ([]byte, error) {
	body, err := requestBody(c)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, problem(http.StatusBadRequest, scoring.CodeBadRequest, "the request body is empty: send "+what+" as JSON")
	}
	if ct := c.Request().Header.Get(echo.HeaderContentType); strings.HasPrefix(ct, "multipart/") {
		return nil, problem(http.StatusUnsupportedMediaType, codeUnsupportedType, "send "+what+" as JSON (application/json), not as a form")
	}
	return body, nil
}

// decodeHandRequest reads a CONTRACT hand request and checks that its rule
// set exists, so that the engines only see requests they can answer.
func decodeHandRequest(body []byte) (*scoring.Request, error) {
	var req scoring.Request
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, jsonProblem(err, &req, "the hand request")
	}
	if err := app.CheckRules(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// checkRules is app.CheckRules, for the adapters.
func checkRules(req *scoring.Request) error { return app.CheckRules(req) }

// scoreHand is rulebook.Try; a test replaces it with an engine that fails.
var scoreHand = rulebook.Try

// postScore: a hand request in, its result out. A hand that does not score
// is a 422 problem whose members include the whole CONTRACT result.
func (s *Server) postScore(c echo.Context) error {
	body, err := readJSONBody(c, "a hand request")
	if err != nil {
		return err
	}
	req, err := decodeHandRequest(body)
	if err != nil {
		return err
	}
	res, err := s.app.Score(c.Request().Context(), req)
	if err != nil {
		return err
	}
	out := ScoreResponse{Result: res, Versions: s.scoreVersions(req, &res)}
	if !res.OK {
		return resultProblem(out)
	}
	return c.JSON(http.StatusOK, out)
}

// RuleSet describes one rule set for clients choosing one.
type RuleSet struct {
	Name    string   `json:"name"`
	Presets []string `json:"presets"`
	Version string   `json:"version"`
}

func (s *Server) getRules(c echo.Context) error {
	var out struct {
		Rules    []RuleSet `json:"rules"`
		Versions Versions  `json:"versions"`
	}
	for _, name := range rulebook.Names() {
		e, _ := rulebook.Lookup(name)
		presets := append([]string(nil), e.Presets()...)
		sort.Strings(presets)
		v := s.deps.Version
		if ev, ok := e.(versioned); ok {
			v = ev.Version()
		}
		out.Rules = append(out.Rules, RuleSet{Name: name, Presets: presets, Version: v})
	}
	out.Versions = s.versions()
	return c.JSON(http.StatusOK, out)
}

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
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, "give the hand in ?mpsz=, e.g. 123m456p55s,666=z")
	}
	concealed, melds, err := scoring.ParseMPSZ(q)
	if err != nil {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, "notation: "+err.Error())
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
