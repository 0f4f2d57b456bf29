package american_test

import (
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring/american"
)

// TestAmericanCorpus runs every case of the shared American corpus (the
// seed's four 2013 hands on the sample card); every case must agree.
func TestAmericanCorpus(t *testing.T) {
	cases, err := corpus.Load("american_public.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("american_public.jsonl holds no cases")
	}
	e := american.New()
	exact := 0
	for _, c := range cases {
		res := e.Score(&c.Request)
		if diffs := corpus.Compare(c.Expect, res); len(diffs) > 0 {
			t.Errorf("%s: %s (hand %s; error %v)", c.Request.ID, strings.Join(diffs, "; "), c.Request.Hand, res.Error)
			continue
		}
		exact++
	}
	t.Logf("american_public.jsonl: %d/%d exact", exact, len(cases))
}

// BenchmarkAmericanCorpus matches every public American case against the
// sample card.
func BenchmarkAmericanCorpus(b *testing.B) {
	cases, err := corpus.Load("american_public.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	e := american.New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Score(&cases[i%len(cases)].Request)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
