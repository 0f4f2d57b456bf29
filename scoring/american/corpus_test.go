package american_test

import (
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring/american"
)

// TestAmericanCorpus runs every case of the shared American corpus (the
// seed's four 2013 hands on the sample card); every case must agree.
func TestAmericanCorpus(t *testing.T) {
	corpus.Check(t, "american_public.jsonl", 1, american.American.Score, nil)
}

// BenchmarkAmericanCorpus matches every public American case against the
// sample card.
func BenchmarkAmericanCorpus(b *testing.B) {
	cases, err := corpus.Load("american_public.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	e := american.American
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Score(&cases[i%len(cases)].Request)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
