package app

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"mjscan/scoring"
)

// sealedBreakdown lists its readings to a referee but cannot be written as
// JSON: a verdict that found the readings by writing the breakdown out and
// reading it back would find none.
type sealedBreakdown struct{ alts []scoring.Alternative }

func (b *sealedBreakdown) Readings() []scoring.Alternative { return b.alts }
func (b *sealedBreakdown) MarshalJSON() ([]byte, error) {
	return nil, errors.New("not written")
}

// TestVerdictReadsTypedReadings: the verdict takes the readings from the
// typed breakdown (scoring.Weighed): it lists what each shows, marks the
// chosen one and recognises a claim that matches another.
func TestVerdictReadsTypedReadings(t *testing.T) {
	two, eight, thirty, forty := 2, 8, 30, 40
	type shown struct {
		Arrangement string `json:"arrangement"`
		Han         int    `json:"han"`
	}
	lower := scoring.Alternative{Shown: shown{"222m 333m 444m", 2}, Arrangement: "222m 333m 444m", Worth: scoring.Worth{Han: &two, Fu: &forty}}
	chosen := scoring.Alternative{Shown: shown{"234m 234m 234m", 8}, Arrangement: "234m 234m 234m", Chosen: true, Worth: scoring.Worth{Han: &eight, Fu: &thirty}}
	res := scoring.Result{ID: "v", OK: true, Rules: "riichi", Han: 8, Fu: 30, Points: scoring.Points{Total: 16000},
		Breakdown: &sealedBreakdown{[]scoring.Alternative{lower, chosen}}}
	req := &scoring.Request{ID: "v", Rules: "riichi"}
	v := verdictOf(req, &Claim{Han: &two, Fu: &forty}, &res)
	if len(v.Alternatives) != 2 || v.Alternatives[0] != lower.Shown || v.HighestReading != chosen.Shown {
		t.Fatalf("readings %v, highest %v", v.Alternatives, v.HighestReading)
	}
	if v.Agree || v.MatchingReading != lower.Shown || !strings.Contains(v.Summary, "another reading of the hand (222m 333m 444m)") {
		t.Errorf("claim of the lower reading: agree %v, matching %v, %q", v.Agree, v.MatchingReading, v.Summary)
	}
	// A claim that matches no reading is not pinned on one.
	v = verdictOf(req, &Claim{Han: &two, Fu: &thirty}, &res)
	if v.MatchingReading != nil || v.Agree {
		t.Errorf("a claim no reading matches: %+v", v)
	}
	// A breakdown that weighs no readings gives an empty list.
	b, err := json.Marshal(verdictOf(req, &Claim{Han: &eight}, &scoring.Result{OK: true, Han: 8}))
	if err != nil || !strings.Contains(string(b), `"alternatives":[]`) {
		t.Errorf("no readings: %s %v", b, err)
	}
}
