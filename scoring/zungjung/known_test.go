package zungjung_test

import (
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
	"mjscan/scoring/zungjung"
)

// knownCase is one line of testdata/known.jsonl: a CONTRACT request, the
// expected result, the pattern it is about and whether the hand earns it.
// Each line names the rule text it rests on in "source".
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

func engineFor(rules string) scoring.Engine {
	if rules == "wsm" {
		return zungjung.WSM
	}
	return zungjung.ZungJung
}

// counted lists every pattern the chosen arrangement counted, including
// those the limit hides behind a single pattern worth 320 or more.
func counted(res scoring.Result) []string {
	b, ok := res.Breakdown.(*zungjung.Breakdown)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range b.Patterns {
		out = append(out, p.Name)
	}
	return out
}

func patternNames(res scoring.Result) []string {
	var out []string
	for _, p := range res.Patterns {
		out = append(out, p.Name)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestKnownPatterns scores a hand that earns each pattern and one that
// nearly does, and checks that the table has both for every pattern.
func TestKnownPatterns(t *testing.T) {
	cases := loadKnown(t)
	earns, misses := map[string]int{}, map[string]int{}
	for _, c := range cases {
		res := engineFor(c.Rules).Score(&c.Request)
		if diffs := corpus.Compare(c.Expect, res); len(diffs) > 0 {
			t.Errorf("%s (%s): %s; patterns %v", c.ID, c.Source, strings.Join(diffs, "; "), counted(res))
			continue
		}
		if want, ok := c.Expect["patterns"].([]any); ok {
			got := patternNames(res)
			if len(got) != len(want) {
				t.Errorf("%s: patterns %v, want %v", c.ID, got, want)
			} else {
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("%s: patterns %v, want %v", c.ID, got, want)
						break
					}
				}
			}
		}
		if _, ok := zungjung.PatternByName(c.Pattern); !ok {
			t.Errorf("%s: unknown pattern %q", c.ID, c.Pattern)
		}
		has := contains(counted(res), c.Pattern)
		if has != c.Earns {
			t.Errorf("%s: %s counted = %v, want %v (counted %v)", c.ID, c.Pattern, has, c.Earns, counted(res))
		}
		if c.Earns {
			earns[c.Pattern]++
		} else {
			misses[c.Pattern]++
		}
	}
	for _, name := range zungjung.PatternNames() {
		if earns[name] == 0 || misses[name] == 0 {
			t.Errorf("pattern %s needs a hand that earns it (%d) and one that nearly does (%d) in testdata/known.jsonl", name, earns[name], misses[name])
		}
	}
}
