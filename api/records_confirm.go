package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// confirmation is the body of POST /v1/records/{id}/confirm, all of it
// optional: who rules, a note for the ruling, and the corrected hand.
type confirmation struct {
	Referee string           `json:"referee,omitempty"`
	Note    string           `json:"note,omitempty"`
	Request *scoring.Request `json:"request,omitempty"`
}

// postConfirm rules on a score-now proposal in one call: as proposed, or
// with the hand corrected (the corrected hand is scored again). The
// ruling is a new record that points at the proposal (its overturns), so
// the proposal stays in the record as it was and its chain says what
// stands; a proposal already ruled on is refused.
func (t *tournamentRoutes) postConfirm(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return noRecord()
	}
	var in confirmation
	body, err := requestBody(c)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := decodeStrict(body, &in); err != nil {
			return err
		}
	}
	if in.Referee != "" {
		if err := tournament.CheckName("referee", in.Referee); err != nil {
			return idProblem(err)
		}
	}
	ctx := c.Request().Context()
	chain, err := t.records.InForce(ctx, id)
	if errors.Is(err, referee.ErrNotFound) {
		return noRecord()
	}
	if err != nil {
		return storeProblem(err)
	}
	proposal := chain[0]
	if proposal.Tampered != "" {
		return tamperedProblem(proposal.Tampered)
	}
	if proposal.Ruling != app.ProposalRuling {
		return fault.Newf(fault.Conflict, scoring.CodeBadRequest, "record %d is not a score-now proposal awaiting the referee: overturn it to change its ruling", id)
	}
	if len(chain) > 1 {
		last := chain[len(chain)-1]
		return fault.Newf(fault.Conflict, scoring.CodeBadRequest, "proposal %d was ruled on already (record %d: %s): overturn that record to change it", id, last.ID, shortText(last.Ruling))
	}
	var proposed scoring.Request
	var result scoring.Result
	if json.Unmarshal(proposal.Request, &proposed) != nil || json.Unmarshal(proposal.Computed, &result) != nil {
		return tamperedProblem(fmt.Sprintf("proposal %d does not hold a readable hand and score: overturn it with the referee's own record", id))
	}
	by := "the " + string(callerOf(c).role)
	ruled, err := t.s.app.Confirm(ctx, proposed, result, in.Request, by, in.Note)
	if err != nil {
		return err
	}
	reqJSON, _ := json.Marshal(ruled.Request)
	resJSON, _ := json.Marshal(ruled.Result)
	rec := proposal
	rec.ID, rec.Digest, rec.LegacyDigest, rec.Photo, rec.PhotoSize = 0, "", "", nil, 0
	rec.Overturns, rec.Referee, rec.Ruling = id, in.Referee, ruled.Ruling
	rec.Request, rec.Computed, rec.EngineVersion = reqJSON, resJSON, t.s.deps.Version
	if ruled.Corrected {
		rec.RuleSet = ruled.Request.Rules + "/" + ruled.Result.Preset
		who := in.Referee
		if who == "" {
			who = string(callerOf(c).role)
		}
		rec.Corrections = append(rec.Corrections, referee.Correction{By: who, From: ruled.From, To: ruled.To, Reason: in.Note})
	}
	stored, err := t.records.Append(ctx, rec)
	switch {
	case errors.Is(err, referee.ErrAlreadyOverturned):
		return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, fmt.Sprintf("proposal %d was ruled on already: overturn that ruling to change it", id))
	case err != nil:
		return storeProblem(err)
	}
	return c.JSON(http.StatusCreated, RecordResponse{Record: stored, Versions: t.s.versions()})
}

// shortText is a stored text cut for a message.
func shortText(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
