package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/scoring"
)

// VerifyRequest is a hand and the score someone claimed for it: a referee's
// question. Only the claimed fields are checked.
type VerifyRequest struct {
	Request *scoring.Request `json:"request"`
	Claim   app.Claim        `json:"claim"`
}

// VerdictResponse is the verdict (internal/app) with the versions that
// produced it.
type VerdictResponse struct {
	*app.Verdict
	Versions Versions `json:"versions"`
}

func (s *Server) postVerify(c echo.Context) error {
	body, err := readJSONBody(c, `{"request": a hand request, "claim": the claimed score}`)
	if err != nil {
		return err
	}
	var vr VerifyRequest
	if err := json.Unmarshal(body, &vr); err != nil {
		return jsonProblem(err, &vr, "the verification")
	}
	if vr.Request == nil {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, `give the hand in "request" (a hand request, as for /v1/scores)`)
	}
	if p := checkRules(vr.Request); p != nil {
		return p
	}
	v, unreadable, err := s.app.Verify(c.Request().Context(), vr.Request, &vr.Claim)
	if err != nil {
		return err
	}
	versions := s.scoreVersions(vr.Request, &v.Result)
	if unreadable {
		// A request that cannot be read has no score to agree with or
		// not: the same 400 as /v1/scores.
		return resultProblem(ScoreResponse{Result: v.Result, Versions: versions})
	}
	return c.JSON(http.StatusOK, VerdictResponse{Verdict: v, Versions: versions})
}
