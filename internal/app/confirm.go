package app

import (
	"context"
	"fmt"
	"strings"

	"mjscan/internal/fault"
	"mjscan/scoring"
)

// ProposalRuling is the ruling of a score-now proposal until the referee
// or organiser confirms or corrects it.
const ProposalRuling = "proposed by the camera: awaiting the referee"

// Ruled is what confirming a score-now proposal records: the hand and its
// score, the ruling in words, and the correction made, if any.
type Ruled struct {
	Request scoring.Request
	Result  scoring.Result
	Ruling  string
	// Corrected says the hand was changed; From and To are its tiles
	// before and after.
	Corrected bool
	From, To  string
}

// Confirm rules on a score-now proposal in one step. With no fix the
// proposal stands as the camera proposed it. A fix is the corrected hand
// request, whole; the rules, preset and winds it leaves out are the
// proposal's, and another rule set or preset is refused (the game's rules
// do not change in a correction). The corrected hand is scored again on a
// worker; one that does not win is refused and nothing is ruled. by names
// who ruled ("the referee"), note is added to the ruling.
func (a *App) Confirm(ctx context.Context, proposed scoring.Request, result scoring.Result, fix *scoring.Request, by, note string) (*Ruled, error) {
	if fix == nil {
		r := &Ruled{Request: proposed, Result: result, Ruling: "confirmed by " + by + " as the camera proposed: " + Summary(&result)}
		r.Ruling += withNote(note)
		return r, nil
	}
	req := *fix
	if req.Rules == "" {
		req.Rules = proposed.Rules
	}
	if req.Preset == "" && req.Rules == proposed.Rules {
		req.Preset = proposed.Preset
	}
	if req.Rules != proposed.Rules || req.Preset != proposed.Preset {
		return nil, fault.Newf(fault.Invalid, scoring.CodeBadRequest, "the proposal is scored under %s (preset %q): a correction changes the hand, not the rules; leave rules and preset out", proposed.Rules, proposed.Preset)
	}
	if req.SeatWind == "" {
		req.SeatWind = proposed.SeatWind
	}
	if req.RoundWind == "" {
		req.RoundWind = proposed.RoundWind
	}
	if req.ID == "" {
		req.ID = proposed.ID
	}
	res, err := a.Score(ctx, &req)
	if err != nil {
		return nil, err
	}
	if !res.OK {
		msg := "the corrected hand does not score"
		code := scoring.CodeNotAWin
		if res.Error != nil {
			msg += ": " + res.Error.Message
			code = res.Error.Code
		}
		return nil, fault.New(FailureKind(code), code, msg+"; nothing was ruled, the proposal still awaits the referee")
	}
	r := &Ruled{Request: req, Result: res, Corrected: true, From: proposed.Hand, To: req.Hand,
		Ruling: "corrected by " + by + ": " + Summary(&res)}
	r.Ruling += withNote(note)
	return r, nil
}

func withNote(note string) string {
	if note = strings.TrimSpace(note); note != "" {
		return " (" + note + ")"
	}
	return ""
}

// Summary says a scored hand's worth in a few words, as a ruling quotes
// it: han and fu or yakuman, fan, or the value, and the points.
func Summary(res *scoring.Result) string {
	var parts []string
	switch {
	case res.Yakuman > 0:
		parts = append(parts, fmt.Sprintf("%d× yakuman", res.Yakuman))
	case res.Han > 0:
		parts = append(parts, fmt.Sprintf("%d han %d fu", res.Han, res.Fu))
	case res.Fan > 0:
		parts = append(parts, fmt.Sprintf("%d fan", res.Fan))
	case res.Value != nil:
		parts = append(parts, fmt.Sprintf("worth %d", *res.Value))
	}
	if res.Limit != "" {
		parts = append(parts, res.Limit)
	}
	if res.Points.Total != 0 {
		parts = append(parts, fmt.Sprintf("%d points", res.Points.Total))
	}
	if len(parts) == 0 {
		return "the computed score"
	}
	return strings.Join(parts, ", ")
}
