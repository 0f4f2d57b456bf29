package app

import (
	"context"
	"fmt"
	"strings"

	"mjscan/internal/fault"
	"mjscan/scoring"
)

// Claim is a claimed score. Riichi players claim points (and often han and
// fu); MCR and Hong Kong players claim fan; Zung Jung, WSM and American
// players claim a value; classical and Vietnamese players a score.
type Claim struct {
	Points  *int    `json:"points,omitempty"`
	Han     *int    `json:"han,omitempty"`
	Fu      *int    `json:"fu,omitempty"`
	Yakuman *int    `json:"yakuman,omitempty"`
	Limit   *string `json:"limit,omitempty"`
	Fan     *int    `json:"fan,omitempty"`
	Value   *int    `json:"value,omitempty"`
	Score   *int    `json:"score,omitempty"`
}

// Check is one claimed field against the computed one.
type Check struct {
	Field    string `json:"field"`
	Claimed  any    `json:"claimed"`
	Computed any    `json:"computed"`
	Agree    bool   `json:"agree"`
}

// Verdict answers a claim: agree or not, why, and the evidence (the
// computed result with its breakdown, every reading considered, and which
// one pays most).
type Verdict struct {
	Agree   bool    `json:"agree"`
	Summary string  `json:"summary"`
	Checks  []Check `json:"checks"`
	// MatchingReading is a reading other than the chosen one that the claim
	// matches: the usual mistake is counting a lower-paying arrangement.
	// Each reading is shown as the rule set's breakdown lists it.
	MatchingReading any            `json:"matching_reading,omitempty"`
	HighestReading  any            `json:"highest_reading,omitempty"`
	Alternatives    []any          `json:"alternatives"`
	Result          scoring.Result `json:"result"`
}

// ErrNothingClaimed says a claim names no field to check.
var ErrNothingClaimed = fault.New(fault.Invalid, scoring.CodeBadRequest, `"claim" names nothing to check: give points, han, fu, yakuman, limit, fan, value or score`)

// Verify scores the hand and checks the claim against the result: agree
// or not, why, and the evidence. A request that cannot be read (unreadable)
// has no score to agree with: its result comes back for the caller to
// answer as /v1/scores would.
func (a *App) Verify(ctx context.Context, req *scoring.Request, cl *Claim) (v *Verdict, unreadable bool, err error) {
	if len(cl.fields()) == 0 {
		return nil, false, ErrNothingClaimed
	}
	res, err := a.Score(ctx, req)
	if err != nil {
		return nil, false, err
	}
	if !res.OK && res.Error != nil && FailureKind(res.Error.Code) == fault.Invalid {
		return &Verdict{Result: res}, true, nil
	}
	return verdictOf(req, cl, &res), false, nil
}

// claimField is one claimed value and where the result keeps it.
type claimField struct {
	name    string
	claimed any
	// computed reads the field from the result; alt reads it from what
	// one reading is worth (nil when readings never carry it, and a nil
	// answer when this rule set's readings do not).
	computed func(*scoring.Result) any
	alt      func(*scoring.Worth) *int
}

func (cl *Claim) fields() []claimField {
	var out []claimField
	num := func(name string, v *int, get func(*scoring.Result) int, alt func(*scoring.Worth) *int) {
		if v != nil {
			out = append(out, claimField{name, *v, func(r *scoring.Result) any { return get(r) }, alt})
		}
	}
	num("points", cl.Points, func(r *scoring.Result) int { return r.Points.Total }, func(w *scoring.Worth) *int { return w.Points })
	num("han", cl.Han, func(r *scoring.Result) int { return r.Han }, func(w *scoring.Worth) *int { return w.Han })
	num("fu", cl.Fu, func(r *scoring.Result) int { return r.Fu }, func(w *scoring.Worth) *int { return w.Fu })
	num("yakuman", cl.Yakuman, func(r *scoring.Result) int { return r.Yakuman }, func(w *scoring.Worth) *int { return w.Yakuman })
	num("fan", cl.Fan, func(r *scoring.Result) int { return r.Fan }, nil)
	num("value", cl.Value, func(r *scoring.Result) int { return valueOf(r) }, func(w *scoring.Worth) *int { return w.Value })
	num("score", cl.Score, func(r *scoring.Result) int { return r.Score }, func(w *scoring.Worth) *int { return w.Score })
	if cl.Limit != nil {
		out = append(out, claimField{"limit", *cl.Limit, func(r *scoring.Result) any { return r.Limit }, nil})
	}
	return out
}

// valueOf is a result's value, 0 in a rule set that counts none.
func valueOf(r *scoring.Result) int {
	if r.Value == nil {
		return 0
	}
	return *r.Value
}

func verdictOf(req *scoring.Request, cl *Claim, res *scoring.Result) *Verdict {
	out := &Verdict{Agree: true, Result: *res, Alternatives: []any{}}
	alts := readings(res)
	for _, a := range alts {
		out.Alternatives = append(out.Alternatives, a.Shown)
	}
	for _, f := range cl.fields() {
		got := f.computed(res)
		ok := fmt.Sprint(got) == fmt.Sprint(f.claimed)
		out.Checks = append(out.Checks, Check{Field: f.name, Claimed: f.claimed, Computed: got, Agree: ok})
		out.Agree = out.Agree && ok
	}
	if !res.OK {
		// A hand that does not score cannot earn a claimed score. (An
		// MCR hand below 8 still reports its fan; agreeing on the count
		// does not make it a win.)
		out.Agree = false
		msg := "the hand does not score"
		if res.Error != nil {
			msg = res.Error.Message
		}
		out.Summary = fmt.Sprintf("Disagree: under %s this hand does not score: %s.", req.Rules, strings.TrimSuffix(msg, "."))
		return out
	}
	for _, a := range alts {
		if a.Chosen {
			out.HighestReading = a.Shown
		}
	}
	if out.Agree {
		out.Summary = fmt.Sprintf("Agree: %s.", describe(res))
		return out
	}
	var wrong []string
	for _, ch := range out.Checks {
		if !ch.Agree {
			wrong = append(wrong, fmt.Sprintf("%s claimed %v, computed %v", ch.Field, ch.Claimed, ch.Computed))
		}
	}
	out.Summary = fmt.Sprintf("Disagree: %s. The hand is worth %s.", strings.Join(wrong, "; "), describe(res))
	if m := matchReading(cl, alts); m != nil {
		out.MatchingReading = m.Shown
		out.Summary += fmt.Sprintf(" The claim matches another reading of the hand (%s); the reading that pays most counts.", m.Arrangement)
	}
	return out
}

// readings lists the readings the rule set weighed for the result, when
// its breakdown lists them.
func readings(res *scoring.Result) []scoring.Alternative {
	if w, ok := res.Breakdown.(scoring.Weighed); ok {
		return w.Readings()
	}
	return nil
}

// matchReading finds a reading that is not the chosen one and agrees with
// every claimed field it carries.
func matchReading(cl *Claim, alts []scoring.Alternative) *scoring.Alternative {
	fields := cl.fields()
	for i := range alts {
		a := &alts[i]
		if a.Chosen {
			continue
		}
		matched, all := 0, true
		for _, f := range fields {
			if f.alt == nil {
				continue
			}
			got := f.alt(&a.Worth)
			if got == nil {
				continue
			}
			matched++
			if fmt.Sprint(*got) != fmt.Sprint(f.claimed) {
				all = false
			}
		}
		if matched > 0 && all {
			return a
		}
	}
	return nil
}

// describe says what a scored hand is worth in the rule set's own terms.
func describe(r *scoring.Result) string {
	var parts []string
	switch {
	case r.Yakuman > 0:
		parts = append(parts, fmt.Sprintf("%d× yakuman", r.Yakuman))
	case r.Han > 0:
		parts = append(parts, fmt.Sprintf("%d han %d fu", r.Han, r.Fu))
	}
	if r.Limit != "" && r.Yakuman == 0 {
		parts = append(parts, r.Limit)
	}
	if r.Fan > 0 {
		parts = append(parts, fmt.Sprintf("%d fan", r.Fan))
	}
	if v := valueOf(r); v > 0 {
		parts = append(parts, fmt.Sprintf("value %d", v))
	}
	if r.Score > 0 {
		parts = append(parts, fmt.Sprintf("score %d", r.Score))
	}
	parts = append(parts, fmt.Sprintf("%d points in all", r.Points.Total))
	return strings.Join(parts, ", ")
}
