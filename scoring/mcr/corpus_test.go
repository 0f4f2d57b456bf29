package mcr

import (
	"fmt"
	"path/filepath"
	"testing"

	"mjscan/internal/corpus"
)

// corpusFiles are the shared MCR corpora, each line a CONTRACT request
// with the expected result.
var corpusFiles = []string{"mcr_public.jsonl", "mcr_known.jsonl", "mcr_lib.jsonl", "mcr_botzone.jsonl"}

func loadCorpus(t testing.TB, name string) []corpus.Case {
	cases, err := corpus.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestCorpus(t *testing.T) {
	eng := MCR
	total, exact := 0, 0
	for _, name := range corpusFiles {
		cases := loadCorpus(t, name)
		fileExact := 0
		for i := range cases {
			c := &cases[i]
			res := eng.Score(&c.Request)
			total++
			if d := corpus.Compare(c.Expect, res); len(d) > 0 {
				t.Logf("%s %s: hand %s win %s melds %v: %v", name, c.Request.ID, c.Request.Hand, c.Request.WinTile, c.Request.Melds, d)
				if res.Error != nil {
					t.Logf("   error: %s", res.Error.Message)
				}
				continue
			}
			exact++
			fileExact++
		}
		t.Logf("%s: %d/%d exact", name, fileExact, len(cases))
	}
	pct := 100 * float64(exact) / float64(total)
	t.Logf("MCR corpora: %d/%d exact (%.2f%%)", exact, total, pct)
	if pct < 99.9 {
		t.Errorf("exact-match rate %.2f%% is under 99.9%%", pct)
	}
}

// TestReferenceRandom replays random hands answered by the reference
// calculator (testdata/README.md); every one must match.
func TestReferenceRandom(t *testing.T) {
	cases, err := corpus.LoadFile(filepath.Join("testdata", "reference_random.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	eng := MCR
	bad := 0
	for i := range cases {
		c := &cases[i]
		res := eng.Score(&c.Request)
		if d := corpus.Compare(c.Expect, res); len(d) > 0 {
			bad++
			t.Errorf("%s: hand %s win %s melds %v: %v", c.Request.ID, c.Request.Hand, c.Request.WinTile, c.Request.Melds, d)
		}
	}
	t.Logf("reference_random.jsonl: %d/%d exact", len(cases)-bad, len(cases))
}

// TestConcurrentScoring scores the public corpus from several goroutines
// at once: the engine keeps no shared state, so results must not change.
func TestConcurrentScoring(t *testing.T) {
	cases := loadCorpus(t, "mcr_public.jsonl")
	eng := MCR
	want := make([]int, len(cases))
	for i := range cases {
		want[i] = eng.Score(&cases[i].Request).Fan
	}
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		go func(g int) {
			for i := len(cases) - 1 - g; i >= 0; i -= 2 {
				if got := eng.Score(&cases[i].Request).Fan; got != want[i] {
					errs <- fmt.Sprintf("%s: %d, alone %d", cases[i].Request.ID, got, want[i])
					return
				}
			}
			errs <- ""
		}(g)
	}
	for g := 0; g < 4; g++ {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
