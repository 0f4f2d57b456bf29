// Package corpus finds and reads the scoring corpora (testdata/corpora,
// copied from shared/corpora) for tests and benchmarks.
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/scoring"
)

// Case is one corpus line: a hand request and the expected result.
type Case struct {
	Request scoring.Request
	Expect  map[string]any
	Raw     json.RawMessage
}

// Dir finds the scoring corpora: $MJSCAN_CORPORA, or else the repository's
// testdata/corpora (copies of shared/corpora, see its README), found from the
// working directory up to the folder that holds go.mod.
func Dir() (string, error) {
	if d := os.Getenv("MJSCAN_CORPORA"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			c := filepath.Join(d, "testdata", "corpora")
			if st, err := os.Stat(c); err != nil || !st.IsDir() {
				return "", fmt.Errorf("the scoring corpora are missing from %s: restore testdata/corpora from the repository or set MJSCAN_CORPORA", d)
			}
			return c, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s: run the tests inside the repository or set MJSCAN_CORPORA", wd)
		}
	}
}

// Load reads one corpus file by name, such as "riichi_public.jsonl".
func Load(name string) ([]Case, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return LoadFile(filepath.Join(dir, name))
}

// LoadFile reads a corpus file at a path (a package's own testdata, say).
func LoadFile(path string) ([]Case, error) {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var c Case
		var e struct {
			Expect map[string]any `json:"expect"`
		}
		if err := json.Unmarshal(line, &c.Request); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		c.Expect = e.Expect
		c.Raw = append(json.RawMessage(nil), line...)
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("corpus %s is empty", name)
	}
	return out, nil
}

// ReadLines reads a JSON-lines file into values of T, naming the line of
// any that does not decode. Blank lines are skipped.
func ReadLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", filepath.Base(path), n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// Check scores every case of the named corpus and reports each that differs
// from its expected result, on the compared fields (Compare) and on what
// extra finds (nil for nothing more); at least min cases must be there. It
// logs and returns how many cases agreed exactly.
func Check(t testing.TB, name string, min int, score func(*scoring.Request) scoring.Result, extra func(c *Case, res scoring.Result) []string) (exact int) {
	t.Helper()
	cases, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < max(min, 1) {
		t.Fatalf("%s: only %d cases", name, len(cases))
	}
	for i := range cases {
		c := &cases[i]
		res := score(&c.Request)
		diffs := Compare(c.Expect, res)
		if extra != nil {
			diffs = append(diffs, extra(c, res)...)
		}
		if len(diffs) > 0 {
			t.Errorf("%s: %s (hand %s win %s; error %v)", c.Request.ID, strings.Join(diffs, "; "), c.Request.Hand, c.Request.WinTile, res.Error)
			continue
		}
		exact++
	}
	t.Logf("%s: %d/%d exact", name, exact, len(cases))
	return exact
}
