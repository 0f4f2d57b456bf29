package rulebook

import (
	"errors"
	"strings"
	"testing"

	"mjscan/scoring"
)

// panicky is an engine with a bug.
type panicky struct{}

func (panicky) Name() string      { return "panicky" }
func (panicky) Presets() []string { return []string{""} }
func (panicky) Options() []string { return nil }
func (panicky) Score(*scoring.Request) scoring.Result {
	var s []int
	_ = s[3]
	return scoring.Result{}
}

// TestTryReportsAPanic: Try returns an engine's panic as an error with its
// stack (a service answers it as its own failure, a 500), while Score
// still turns it into a bad_request result so that a batch goes on.
func TestTryReportsAPanic(t *testing.T) {
	engines["panicky"] = panicky{}
	t.Cleanup(func() { delete(engines, "panicky") })
	r := &scoring.Request{ID: "p1", Rules: "panicky", Hand: "123m"}

	res, err := Try(r)
	var pe *PanicError
	if !errors.As(err, &pe) || res.OK || res.Error != nil {
		t.Fatalf("Try: %+v, %v; want a *PanicError and no result", res, err)
	}
	if !strings.Contains(pe.Error(), "index out of range") || !strings.Contains(string(pe.Stack), "panicky.Score") {
		t.Errorf("panic %q, stack:\n%s", pe.Error(), pe.Stack)
	}

	got := Score(r)
	if got.OK || got.Error == nil || got.Error.Code != scoring.CodeBadRequest || got.ID != "p1" {
		t.Errorf("Score: %+v", got)
	}

	if res, err := Try(&scoring.Request{Rules: "riichi", Hand: "234m345p456s678s55p", WinTile: "8s", Tsumo: true}); err != nil || !res.OK {
		t.Errorf("Try on a good hand: %+v, %v", res, err)
	}
}
