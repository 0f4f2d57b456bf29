package vision

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// slotBox is the box of slot i in a row of tiles 80×100 px, 100 px apart:
// the same slot overlaps fully (IoU 1), neighbours not at all.
func slotBox(i int) [4]float64 {
	return [4]float64{float64(100 * i), 0, float64(100*i + 80), 100}
}

// parseSlots reads tiles written `CODE@SLOT`, with a trailing `r` for a tile
// lying sideways: "0m@0 3m@9r".
func parseSlots(t *testing.T, s string) []Labelled {
	t.Helper()
	var out []Labelled
	for _, f := range strings.Fields(s) {
		code, slot, ok := strings.Cut(f, "@")
		rotated := strings.HasSuffix(slot, "r")
		i, err := strconv.Atoi(strings.TrimSuffix(slot, "r"))
		if !ok || err != nil {
			t.Fatalf("bad tile %q", f)
		}
		out = append(out, Labelled{Tile: code, Box: slotBox(i), Rotated: rotated})
	}
	return out
}

func seen(t *testing.T, s string) []TileSeen {
	t.Helper()
	var out []TileSeen
	for _, l := range parseSlots(t, s) {
		b := l.Box
		out = append(out, TileSeen{Tile: mustTile(l.Tile), Box: [4]int{int(b[0]), int(b[1]), int(b[2]), int(b[3])}, Confidence: 0.9, Rotated: l.Rotated})
	}
	return out
}

// One photo with every rare group; TestScoreStrictGroups says what each
// difference between labels and predictions costs (slot 7, the 1j, is missed).
const (
	rareLabels = "0m@0 0p@1 5s@2 0z@3 3k@4 5k@5 9j@6 1j@7 2m@8r 3m@9r 4m@10 6m@11r"
	rarePreds  = "0m@0 5p@1 0s@2 0z@3 4k@4 5k@5 9j@6 2m@8r 3m@9 4m@10r 7m@11r 0z@20 1z@21r"
)

func rareScore(t *testing.T, mode CodeMode) *Score {
	t.Helper()
	s := &Score{Mode: mode}
	s.Add(parseSlots(t, rareLabels), seen(t, rarePreds), false)
	return s
}

func wantTally(t *testing.T, what string, got, want Tally) {
	t.Helper()
	if got != want {
		t.Errorf("%s: %+v, want %+v", what, got, want)
	}
}

func wantF1(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s F1 %.6f, want %.6f", what, got, want)
	}
}

// TestScoreStrictGroups counts each rare group by hand on rareLabels.
func TestScoreStrictGroups(t *testing.T) {
	s := rareScore(t, CodeMode{StrictRedFives: true, CountBacks: true})
	if s.Labels != 12 || s.Predicted != 13 || s.Matched != 7 || s.Localised != 11 || s.LocalisedRight != 7 {
		t.Errorf("totals labels %d predicted %d matched %d localised %d right %d, want 12 13 7 11 7",
			s.Labels, s.Predicted, s.Matched, s.Localised, s.LocalisedRight)
	}
	if s.ImageExact != 0 || s.MultisetExact != 0 {
		t.Errorf("image exact %d multiset exact %d, want 0 0", s.ImageExact, s.MultisetExact)
	}
	for _, c := range [][2]string{{"0p", "5p"}, {"5s", "0s"}, {"3k", "4k"}, {"6m", "7m"}} {
		if s.Confusions[c] != 1 {
			t.Errorf("confusion %s -> %s: %d, want 1", c[0], c[1], s.Confusions[c])
		}
	}
	if len(s.Confusions) != 4 {
		t.Errorf("confusions %v, want 4", s.Confusions)
	}
	// 0m found; 0p read as 5p (miss); 5s read as 0s (false red five).
	wantTally(t, GroupRedFives, s.Group(GroupRedFives), Tally{Labels: 2, Predicted: 2, Matched: 1})
	// The labelled back found, a back predicted where there is no tile.
	wantTally(t, GroupBacks, s.Group(GroupBacks), Tally{Labels: 1, Predicted: 2, Matched: 1})
	// 3k read as 4k is a miss and a false positive; 5k found.
	wantTally(t, GroupKings, s.Group(GroupKings), Tally{Labels: 2, Predicted: 2, Matched: 1})
	// The American 9j found, 1j missed.
	wantTally(t, GroupJokers, s.Group(GroupJokers), Tally{Labels: 2, Predicted: 1, Matched: 1})
	// 2m sideways found and flagged; 3m found upright (miss); 4m upright
	// flagged (false); 6m flagged but read 7m (miss and false); 1z flagged
	// where there is no tile (false).
	wantTally(t, GroupSideways, s.Group(GroupSideways), Tally{Labels: 3, Predicted: 4, Matched: 1})
	wantF1(t, GroupRedFives, s.GroupF1(GroupRedFives), 0.5)
	wantF1(t, GroupBacks, s.GroupF1(GroupBacks), 2.0/3)
	wantF1(t, GroupKings, s.GroupF1(GroupKings), 0.5)
	wantF1(t, GroupJokers, s.GroupF1(GroupJokers), 2.0/3)
	wantF1(t, GroupSideways, s.GroupF1(GroupSideways), 2.0/7)
	wantTally(t, "unknown group", s.Group("winds"), Tally{})
	wantTally(t, "empty group name", s.Group(""), Tally{})

	wantTally(t, "class 5p", s.Class("5p"), Tally{Predicted: 1})
	wantTally(t, "class 0p", s.Class("0p"), Tally{Labels: 1})
	wantTally(t, "class 0z", s.Class("0z"), Tally{Labels: 1, Predicted: 2, Matched: 1})
	wantTally(t, "class 2m", s.Class("2m"), Tally{Labels: 1, Predicted: 1, Matched: 1})
	wantF1(t, "class 0z", s.ClassF1("0z"), 2.0/3)
	wantF1(t, "class 1j", s.ClassF1("1j"), 0)
}

// TestScoreLenientCodes: the zero mode is the reference scorer's, as on the
// dev photos: red fives are fives on both sides and predicted backs vanish.
func TestScoreLenientCodes(t *testing.T) {
	s := rareScore(t, CodeMode{})
	// 0p/5p and 5s/0s now match; the 0z label is missed, both 0z
	// predictions are dropped.
	if s.Labels != 12 || s.Predicted != 11 || s.Matched != 8 {
		t.Errorf("labels %d predicted %d matched %d, want 12 11 8", s.Labels, s.Predicted, s.Matched)
	}
	wantTally(t, GroupRedFives, s.Group(GroupRedFives), Tally{})
	wantTally(t, "class 5m", s.Class("5m"), Tally{Labels: 1, Predicted: 1, Matched: 1})
	wantTally(t, "class 5p", s.Class("5p"), Tally{Labels: 1, Predicted: 1, Matched: 1})
	wantTally(t, GroupBacks, s.Group(GroupBacks), Tally{Labels: 1})
	if s.Confusions[[2]string{"0p", "5p"}] != 0 || len(s.Confusions) != 2 {
		t.Errorf("confusions %v, want only 3k -> 4k and 6m -> 7m", s.Confusions)
	}
	if r := s.Report(false); strings.Contains(r, "  "+GroupRedFives+" ") || !strings.Contains(r, "codes: red fives as fives, backs ignored") {
		t.Errorf("report shows red fives without labelled ones, or the wrong mode:\n%s", r)
	}
}

// TestScorePartialSideways: in a partly labelled photo a flagged prediction
// away from every label is ignored, not a false sideways tile.
func TestScorePartialSideways(t *testing.T) {
	s := &Score{}
	s.Add(parseSlots(t, "2m@0r 3m@1"), seen(t, "2m@0r 3m@1 1z@5r"), true)
	wantTally(t, GroupSideways, s.Group(GroupSideways), Tally{Labels: 1, Predicted: 1, Matched: 1})
	if s.Predicted != 2 || s.ImageExact != 1 {
		t.Errorf("predicted %d image exact %d, want 2 1", s.Predicted, s.ImageExact)
	}
}

func TestCodeModeFor(t *testing.T) {
	for _, c := range []struct {
		labels string
		want   CodeMode
	}{
		{"5m@0 1z@1r", CodeMode{}},
		{"5m@0 0s@1", CodeMode{StrictRedFives: true}},
		{"0z@0 1k@1 9j@2", CodeMode{CountBacks: true}},
		{"0p@0 0z@1", CodeMode{StrictRedFives: true, CountBacks: true}},
	} {
		photos := [][]Labelled{parseSlots(t, "1m@0"), parseSlots(t, c.labels)}
		if got := CodeModeFor(photos); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.labels, got, c.want)
		}
	}
}

// TestScoreReport: the mode line, the rare block with only the groups that
// have labels, the per-class block on request, and the last line scripts read.
func TestScoreReport(t *testing.T) {
	s := rareScore(t, CodeMode{StrictRedFives: true, CountBacks: true})
	r := s.Report(false)
	reportHas(t, r,
		"codes: red fives strict, backs counted",
		"rare classes",
		"  red fives     F1 0.5000  precision 0.5000 (1/2)  recall 0.5000 (1/2)\n",
		"  backs         F1 0.6667",
		"  kings/queens  F1 0.5000",
		"  jokers        F1 0.6667",
		"  sideways      F1 0.2857  precision 0.2500 (1/4)  recall 0.3333 (1/3)\n",
	)
	if strings.Contains(r, "per class") {
		t.Errorf("per-class block without asking:\n%s", r)
	}
	lines := strings.Split(strings.TrimSuffix(r, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "tile_f1=0.5600 image_exact=0.0000" {
		t.Errorf("last line %q", last)
	}
	if pc := s.Report(true); !strings.Contains(pc, "  0z          1          2     0.5000  1.0000  0.6667\n") {
		t.Errorf("per-class block lacks the 0z row:\n%s", pc)
	}

	plain := &Score{}
	plain.Add(parseSlots(t, "1m@0 2m@1"), seen(t, "1m@0 2m@1"), false)
	if r := plain.Report(true); strings.Contains(r, "rare classes") {
		t.Errorf("rare block with no rare labels:\n%s", r)
	}
}

func TestReadLabelsSideways(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.txt")
	os.WriteFile(path, []byte("0m 1 2 3 4\n\n3k 10 20 30 40 r\n9j 1.5 2 3 4\n"), 0o644)
	got, err := ReadLabels(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Labelled{
		{Tile: "0m", Box: [4]float64{1, 2, 3, 4}},
		{Tile: "3k", Box: [4]float64{10, 20, 30, 40}, Rotated: true},
		{Tile: "9j", Box: [4]float64{1.5, 2, 3, 4}},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestReadLabelsErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"1m 1 2 3 4\n1m 1 2 3 4 R\n", `line 2: sixth field "R"`},
		{"1m 1 2 3 4 rot\n", `line 1: sixth field "rot"`},
		{"1m 1 2 3 4 r r\n", "line 1: want `CODE x0 y0 x1 y1`"},
		{"1m 1 2 3\n", "line 1: want"},
		{"\n5x 1 2 3 4\n", `line 2: "5x" is not a tile code`},
		{"0f 1 2 3 4\n", `"0f" is not a tile code`},
		{"9k 1 2 3 4\n", `"9k" is not a tile code`},
		{"8z 1 2 3 4\n", `"8z" is not a tile code`},
		{"1m 1 2 x 4\n", "line 1: strconv.ParseFloat"},
	} {
		path := filepath.Join(t.TempDir(), "p.txt")
		os.WriteFile(path, []byte(c.text), 0o644)
		_, err := ReadLabels(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one naming %s and %q", c.text, err, path, c.want)
		}
	}
}

// TestScoreSizes: each labelled tile counts in the band of its box's short
// side; found means any code at IoU ≥ 0.5, right means the same code too.
func TestScoreSizes(t *testing.T) {
	box := func(code string, x, w, h float64) Labelled {
		return Labelled{Tile: code, Box: [4]float64{x, 0, x + w, h}}
	}
	pred := func(l Labelled, code string) TileSeen {
		b := l.Box
		return TileSeen{Tile: mustTile(code), Box: [4]int{int(b[0]), int(b[1]), int(b[2]), int(b[3])}}
	}
	tiny, small, mid, lying := box("1m", 0, 12, 16), box("2m", 100, 24, 32), box("3m", 200, 40, 54), box("4m", 300, 90, 60)
	tiny2 := box("5m", 400, 15, 20)
	s := &Score{}
	s.Add([]Labelled{tiny, small, mid, lying, tiny2}, []TileSeen{pred(tiny, "1m"), pred(small, "7m"), pred(lying, "4m")}, false)
	want := []SizeTally{{2, 1, 1}, {1, 1, 0}, {1, 0, 0}, {1, 1, 1}, {0, 0, 0}}
	if got := s.Sizes(); !slices.Equal(got, want) {
		t.Errorf("size bands %v, want %v", got, want)
	}
	r := s.Report(false)
	reportHas(t, r,
		"  under 20 px            2 0.5000 1.0000\n",
		"  20-30 px               1 1.0000 0.0000\n",
		"  30-45 px               1 0.0000 0.0000\n",
		"  45-70 px               1 1.0000 1.0000\n",
	)
	if strings.Contains(r, "70 px or more") {
		t.Errorf("a band with no tiles is printed:\n%s", r)
	}
}

// reportHas fails the test for each wanted piece the report lacks.
func reportHas(t *testing.T, r string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(r, w) {
			t.Errorf("report lacks %q:\n%s", w, r)
		}
	}
}

// TestScoreMistakes: a named photo keeps what it got wrong, each kind once
// (a misread with the label's box, a miss, a prediction where no tile is
// labelled), and a photo read right keeps nothing.
func TestScoreMistakes(t *testing.T) {
	s := &Score{}
	s.AddPhoto("right", parseSlots(t, "1m@0 2m@1"), seen(t, "1m@0 2m@1"), false)
	s.AddPhoto("wrong", parseSlots(t, "1m@0 2m@1 3m@2"), seen(t, "1m@0 4m@1 5z@5"), false)
	s.Add(parseSlots(t, "1m@0"), seen(t, "2m@0"), false) // unnamed: tallied only
	if len(s.Photos) != 1 || s.Photos[0].Photo != "wrong" {
		t.Fatalf("photos with mistakes %+v, want only \"wrong\"", s.Photos)
	}
	b1, b2, b5 := slotBox(1), slotBox(2), slotBox(5)
	want := []string{
		fmt.Sprintf("misread 2m as 4m (0.90) at [%.0f %.0f %.0f %.0f]", b1[0], b1[1], b1[2], b1[3]),
		fmt.Sprintf("missed 3m at [%.0f %.0f %.0f %.0f]", b2[0], b2[1], b2[2], b2[3]),
		fmt.Sprintf("extra 5z (0.90) at [%.0f %.0f %.0f %.0f]", b5[0], b5[1], b5[2], b5[3]),
	}
	if got := s.Photos[0].Mistakes; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mistakes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := s.MistakesReport(); !strings.HasPrefix(r, "photos with a mistake: 1 of 3\n  wrong: misread 2m as 4m") {
		t.Errorf("report:\n%s", r)
	}
}
