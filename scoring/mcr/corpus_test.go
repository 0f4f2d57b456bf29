package mcr

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"mjscan/scoring"
)

// corpusFiles are the shared MCR corpora, each line a CONTRACT request
// with the expected result.
var corpusFiles = []string{"mcr_public.jsonl", "mcr_known.jsonl", "mcr_lib.jsonl", "mcr_botzone.jsonl"}

type corpusCase struct {
	scoring.Request
	Expect struct {
		OK    *bool          `json:"ok"`
		Error *scoring.Error `json:"error"`
		Fan   *int           `json:"fan"`
		Fans  []scoring.Fan  `json:"fans"`
	} `json:"expect"`
}

// corpusDir finds ../shared/corpora beside the repository root, walking up
// from the package directory.
func corpusDir(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "corpora")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	t.Fatalf("shared/corpora not found above %s: the MCR corpora live in ../shared/corpora beside the repository", dir)
	return ""
}

func loadCorpus(t testing.TB, name string) []corpusCase {
	return loadCases(t, filepath.Join(corpusDir(t), name))
}

func loadCases(t testing.TB, path string) []corpusCase {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("corpus %s: %v", name, err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("corpus %s: %v", name, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("corpus %s is empty", name)
	}
	return out
}

func fanMultiset(fs []scoring.Fan) string {
	s := make([]string, 0, len(fs))
	for _, f := range fs {
		s = append(s, fmt.Sprintf("%d×%d", f.ID, f.Count))
	}
	sort.Strings(s)
	return fmt.Sprint(s)
}

// compareCase checks a result the way compare.py does: ok, error.code when
// a failure is expected, fan, and the multiset of (fan id, count).
func compareCase(c *corpusCase, res *scoring.Result) []string {
	var diff []string
	e := &c.Expect
	if e.OK != nil && *e.OK != res.OK {
		diff = append(diff, fmt.Sprintf("ok want %v got %v", *e.OK, res.OK))
	}
	if e.OK != nil && !*e.OK {
		got := ""
		if res.Error != nil {
			got = res.Error.Code
		}
		if e.Error == nil || e.Error.Code != got {
			diff = append(diff, fmt.Sprintf("error want %v got %q", e.Error, got))
		}
	}
	if e.Fan != nil && *e.Fan != res.Fan {
		diff = append(diff, fmt.Sprintf("fan want %d got %d", *e.Fan, res.Fan))
	}
	if e.Fans != nil && fanMultiset(e.Fans) != fanMultiset(res.Fans) {
		diff = append(diff, fmt.Sprintf("fans want %s got %s", fanMultiset(e.Fans), fanMultiset(res.Fans)))
	}
	return diff
}

func TestCorpus(t *testing.T) {
	eng := New()
	total, exact := 0, 0
	for _, name := range corpusFiles {
		cases := loadCorpus(t, name)
		fileExact := 0
		for i := range cases {
			c := &cases[i]
			res := eng.Score(&c.Request)
			total++
			if d := compareCase(c, &res); len(d) > 0 {
				t.Logf("%s %s: hand %s win %s melds %v: %v", name, c.ID, c.Hand, c.WinTile, c.Melds, d)
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
	cases := loadCases(t, filepath.Join("testdata", "reference_random.jsonl"))
	eng := New()
	bad := 0
	for i := range cases {
		c := &cases[i]
		res := eng.Score(&c.Request)
		if d := compareCase(c, &res); len(d) > 0 {
			bad++
			t.Errorf("%s: hand %s win %s melds %v: %v", c.ID, c.Hand, c.WinTile, c.Melds, d)
		}
	}
	t.Logf("reference_random.jsonl: %d/%d exact", len(cases)-bad, len(cases))
}

// TestConcurrentScoring scores the public corpus from several goroutines
// at once: the engine keeps no shared state, so results must not change.
func TestConcurrentScoring(t *testing.T) {
	cases := loadCorpus(t, "mcr_public.jsonl")
	eng := New()
	want := make([]int, len(cases))
	for i := range cases {
		want[i] = eng.Score(&cases[i].Request).Fan
	}
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		go func(g int) {
			for i := len(cases) - 1 - g; i >= 0; i -= 2 {
				if got := eng.Score(&cases[i].Request).Fan; got != want[i] {
					errs <- fmt.Sprintf("%s: %d, alone %d", cases[i].ID, got, want[i])
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
