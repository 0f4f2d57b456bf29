package hk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
	"mjscan/scoring/hk"
)

// knownCase is one line of testdata/known.jsonl: a CONTRACT request, the
// expected result (fan, and raw_faan before the limit where it matters),
// the pattern it is about and whether the hand earns it. "source" names
// the rule text.
type knownCase struct {
	scoring.Request
	Expect  map[string]any `json:"expect"`
	Pattern string         `json:"pattern"`
	Earns   bool           `json:"earns"`
	Source  string         `json:"source"`
}

func loadKnown(t *testing.T) []knownCase {
	t.Helper()
	cases, err := corpus.ReadLines[knownCase]("testdata/known.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func fanNames(res scoring.Result) []string {
	var out []string
	for _, f := range res.Fans {
		out = append(out, f.Name)
	}
	return out
}

// rawFaan is the faan before the limit, from the breakdown.
func rawFaan(res scoring.Result) int {
	if b, ok := res.Breakdown.(*hk.Breakdown); ok {
		return b.RawFaan
	}
	return -1
}

// TestKnownFaan scores a hand that earns each pattern and one that nearly
// does, and checks that the table has both for every pattern.
func TestKnownFaan(t *testing.T) {
	earns, misses := map[string]int{}, map[string]int{}
	for _, c := range loadKnown(t) {
		res := hk.HK.Score(&c.Request)
		diffs := corpus.Compare(c.Expect, res)
		if raw, ok := c.Expect["raw_faan"].(float64); ok && int(raw) != rawFaan(res) {
			diffs = append(diffs, "raw_faan: want "+itoa(int(raw))+", got "+itoa(rawFaan(res)))
		}
		if len(diffs) > 0 {
			t.Errorf("%s (%s): %s; fans %v", c.ID, c.Source, strings.Join(diffs, "; "), fanNames(res))
			continue
		}
		if _, ok := hk.FaanByName(c.Pattern); !ok {
			t.Errorf("%s: unknown pattern %q", c.ID, c.Pattern)
		}
		has := false
		for _, n := range fanNames(res) {
			has = has || n == c.Pattern
		}
		if has != c.Earns {
			t.Errorf("%s: %s counted = %v, want %v (fans %v)", c.ID, c.Pattern, has, c.Earns, fanNames(res))
		}
		if c.Earns {
			earns[c.Pattern]++
		} else {
			misses[c.Pattern]++
		}
	}
	for _, name := range hk.FaanNames() {
		if earns[name] == 0 || misses[name] == 0 {
			t.Errorf("pattern %s needs a hand that earns it (%d) and one that nearly does (%d) in testdata/known.jsonl", name, earns[name], misses[name])
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
