package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
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
		return nil, fault.New(fault.Invalid, scoring.CodeBadRequest, "the request body is empty: send "+what+" as JSON")
	}
	if ct := c.Request().Header.Get(echo.HeaderContentType); strings.HasPrefix(ct, "multipart/") {
		return nil, fault.New(fault.Unsupported, codeUnsupportedType, "send "+what+" as JSON (application/json), not as a form")
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
