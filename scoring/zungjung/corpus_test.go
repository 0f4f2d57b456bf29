package zungjung_test

import (
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring/zungjung"
)

// corpusErrors lists corpus cases we believe wrong, each with the rule text
// that decides it. There are none: every case of zung_jung_public.jsonl and
// wsm_public.jsonl agrees with ZJ v3.3 and seeds 000 and 004.
var corpusErrors = map[string]string{}

// TestZungJungCorpora runs every case of the shared Zung Jung and WSM
// corpora and asserts an exact match on the compared fields (ok, error
// code, value, points.total) and on the listed pattern names.
func TestZungJungCorpora(t *testing.T) {
	for _, name := range []string{"zung_jung_public.jsonl", "wsm_public.jsonl"} {
		cases, err := corpus.Load(name)
		if err != nil {
			t.Fatalf("%v (the shared corpora sit in shared/corpora beside the repository)", err)
		}
		if len(cases) < 30 {
			t.Fatalf("%s: only %d cases", name, len(cases))
		}
		exact := 0
		for _, c := range cases {
			res := engineFor(c.Request.Rules).Score(&c.Request)
			diffs := corpus.Compare(c.Expect, res)
			if want, ok := c.Expect["patterns"].([]any); ok {
				got := patternNames(res)
				same := len(got) == len(want)
				for i := 0; same && i < len(want); i++ {
					same = got[i] == want[i]
				}
				if !same {
					diffs = append(diffs, "patterns: want "+fmtAny(want)+"; got "+strings.Join(got, ", "))
				}
			}
			if why, known := corpusErrors[c.Request.ID]; known {
				if len(diffs) == 0 {
					t.Errorf("%s is listed as a corpus error (%s) but now matches: remove it from corpusErrors", c.Request.ID, why)
				}
				continue
			}
			if len(diffs) > 0 {
				t.Errorf("%s %s: %s (hand %s win %s)", name, c.Request.ID, strings.Join(diffs, "; "), c.Request.Hand, c.Request.WinTile)
				continue
			}
			exact++
		}
		t.Logf("%s: %d cases, %d exact", name, len(cases), exact)
		if exact+len(corpusErrors) < len(cases) {
			t.Errorf("%s: %d of %d exact", name, exact, len(cases))
		}
	}
}

func fmtAny(v []any) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i], _ = x.(string)
	}
	return strings.Join(parts, ", ")
}

// BenchmarkZungJungCorpus scores the Zung Jung corpus hands with the full
// result built.
func BenchmarkZungJungCorpus(b *testing.B) {
	cases, err := corpus.Load("zung_jung_public.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	e := zungjung.ZungJung
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Score(&cases[i%len(cases)].Request)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
