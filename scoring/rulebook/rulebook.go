// Package rulebook finds the engine for a request's rule set. Each rule set
// is a value listed here; nothing registers itself behind the reader's back.
package rulebook

import (
	"fmt"
	"runtime/debug"
	"sort"

	"mjscan/scoring"
	"mjscan/scoring/american"
	"mjscan/scoring/classical"
	"mjscan/scoring/hk"
	"mjscan/scoring/mcr"
	"mjscan/scoring/riichi"
	"mjscan/scoring/vietnamese"
	"mjscan/scoring/zungjung"
)

// engines lists every rule set by its CONTRACT name.
var engines = byName(
	riichi.Riichi, riichi.Sanma, mcr.MCR, zungjung.ZungJung, zungjung.WSM,
	hk.HK, classical.Classical, vietnamese.Vietnamese, american.American,
)

func byName(es ...scoring.Engine) map[string]scoring.Engine {
	out := make(map[string]scoring.Engine, len(es))
	for _, e := range es {
		out[e.Name()] = e
	}
	return out
}

// Names lists the rule sets in a stable order.
func Names() []string {
	out := make([]string, 0, len(engines))
	for k := range engines {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the engine for a rule set name.
func Lookup(name string) (scoring.Engine, bool) {
	e, ok := engines[name]
	return e, ok
}

// Score scores one request under the rule set it names. It never panics:
// an engine's panic becomes a bad_request result, so one bad line cannot
// stop a batch.
func Score(r *scoring.Request) scoring.Result {
	res, err := Try(r)
	if err != nil {
		return scoring.Fail(r, scoring.Errorf(scoring.CodeBadRequest, "the %s engine could not score this hand (%v); please report it with the request", r.Rules, err))
	}
	return res
}

// PanicError is an engine's panic, with the stack where it happened.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprint(e.Value) }

// Try scores like Score but returns an engine's panic as a *PanicError
// instead of a result: a service answers it as its own failure, not as a
// request the client got wrong. The engine resolves the preset and the
// options, reads the hand once, scores it and fills in the request's id,
// rules and preset (scoring.NewEngine): nothing is filled in twice.
func Try(r *scoring.Request) (res scoring.Result, err error) {
	e, ok := engines[r.Rules]
	if !ok {
		return scoring.Fail(r, scoring.Errorf(scoring.CodeBadRequest, "unknown rule set %q: choose one of %v", r.Rules, Names())), nil
	}
	defer func() {
		if p := recover(); p != nil {
			res, err = scoring.Result{}, &PanicError{Value: p, Stack: debug.Stack()}
		}
	}()
	return e.Score(r), nil
}

// ScoreJSON decodes one JSON request and scores it.
func ScoreJSON(line []byte) scoring.Result {
	r, err := scoring.DecodeRequest(line)
	if err != nil {
		return scoring.Result{ID: r.ID, Error: err}
	}
	return Score(&r)
}
