package classical_test

import (
	"fmt"
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
	"mjscan/scoring/classical"
)

// TestClassicalCorpus runs every case of the shared classical corpus (seed
// 000's table); every case must agree on the compared fields, and on the
// base points, doubles and limit hands the corpus also records.
func TestClassicalCorpus(t *testing.T) {
	corpus.Check(t, "classical_public.jsonl", 1, classical.Classical.Score, func(c *corpus.Case, res scoring.Result) []string {
		return DetailDiffs(c.Expect, res)
	})
}

// DetailDiffs compares the corpus' extra fields (base, doubles,
// limit_reached, limit_hands) with the breakdown.
func DetailDiffs(expect map[string]any, res scoring.Result) []string {
	b, ok := res.Breakdown.(*classical.Breakdown)
	if !ok {
		return nil
	}
	var out []string
	num := func(k string) (int, bool) {
		v, ok := expect[k].(float64)
		return int(v), ok
	}
	if v, ok := num("base"); ok && v != b.Base {
		out = append(out, fmt.Sprintf("base: want %d, got %d", v, b.Base))
	}
	if v, ok := num("doubles"); ok && v != b.DoublesTotal {
		out = append(out, fmt.Sprintf("doubles: want %d, got %d", v, b.DoublesTotal))
	}
	if v, ok := expect["limit_reached"].(bool); ok && v != b.LimitReached {
		out = append(out, "limit_reached differs")
	}
	var want []string
	if l, ok := expect["limit_hands"].([]any); ok {
		for _, x := range l {
			want = append(want, x.(string))
		}
	}
	if strings.Join(want, ",") != strings.Join(b.LimitHands, ",") {
		out = append(out, "limit_hands: want "+strings.Join(want, ",")+", got "+strings.Join(b.LimitHands, ","))
	}
	return out
}

// BenchmarkClassicalCorpus scores every public classical case, full result
// and breakdown included.
func BenchmarkClassicalCorpus(b *testing.B) {
	cases, err := corpus.Load("classical_public.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	e := classical.Classical
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Score(&cases[i%len(cases)].Request)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
