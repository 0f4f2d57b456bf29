package mcr

import (
	"syscall"
	"testing"

	"mjscan/scoring"
)

func corpusRequests(b *testing.B) []scoring.Request {
	var reqs []scoring.Request
	for _, name := range corpusFiles {
		for _, c := range loadCorpus(b, name) {
			reqs = append(reqs, c.Request)
		}
	}
	return reqs
}

// BenchmarkMCRCorpusExplained is the CLI's path: every corpus hand scored
// with its breakdown, on one goroutine.
func BenchmarkMCRCorpusExplained(b *testing.B) {
	reqs := corpusRequests(b)
	eng := MCR
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		eng.Score(&reqs[i%len(reqs)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu, "hands/cpu-s")
	}
}

// BenchmarkMCRCorpusCore times the fan calculation alone on checked hands,
// the work the reference calculator's calculate_fan does.
func BenchmarkMCRCorpusCore(b *testing.B) {
	reqs := corpusRequests(b)
	var ins []handInput
	for i := range reqs {
		var hi handInput
		if parseRequest(&reqs[i], &hi) == nil {
			ins = append(ins, hi)
		}
	}
	rules := Presets["default"]
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	var best reading
	for i := 0; i < b.N; i++ {
		ev := evaluator{in: &ins[i%len(ins)].input, rules: &rules}
		ev.evaluate(&best, nil)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu, "hands/cpu-s")
	}
}

// cpuSeconds is the process's user+system CPU time. The build machine is
// shared, so hands per CPU-second is reported beside hands per wall-second.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
