package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// CheckRules refuses a request whose rule set is missing or unknown, so
// that the engines only see requests they can answer.
func CheckRules(req *scoring.Request) error {
	if req.Rules == "" {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "say which rule set to score under: \"rules\" is one of "+strings.Join(rulebook.Names(), ", "))
	}
	if _, ok := rulebook.Lookup(req.Rules); !ok {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, fmt.Sprintf("unknown rule set %q: choose one of %s", req.Rules, strings.Join(rulebook.Names(), ", ")))
	}
	return nil
}

// Score scores one hand on a worker. A hand that does not score is a
// result with OK false (its error says why), not an error: errors are the
// service's (busy, past the deadline, an engine's panic).
func (a *App) Score(ctx context.Context, req *scoring.Request) (scoring.Result, error) {
	if err := CheckRules(req); err != nil {
		return scoring.Result{}, err
	}
	var res scoring.Result
	err := a.deps.Run.Run(ctx, 0, func() (err error) {
		return a.scoreNow(req, &res)
	})
	return res, err
}

// scoreNow scores on the worker the caller already holds.
func (a *App) scoreNow(req *scoring.Request, res *scoring.Result) error {
	start := time.Now()
	r, err := a.deps.Score(req)
	if err != nil {
		return err
	}
	*res = r
	d := time.Since(start)
	outcome := "ok"
	if res.Error != nil {
		outcome = res.Error.Code
	}
	a.deps.Observe.Scored(req.Rules, outcome, d)
	a.deps.Observe.Step("score", d)
	return nil
}

// FailureKind is what kind of failure a hand that does not score is: a
// request that cannot be read (bad_request) is invalid, a well-formed hand
// that does not win (any other CONTRACT code) unprocessable.
func FailureKind(code string) fault.Kind {
	if code == scoring.CodeBadRequest {
		return fault.Invalid
	}
	return fault.Unprocessable
}
