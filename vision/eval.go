package vision

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"mjscan/scoring"
)

// Labelled is one tile of a labelled photo: its code, its box, and whether
// it lies sideways (a called tile or a riichi discard, turned a quarter).
type Labelled struct {
	Tile    string
	Box     [4]float64
	Rotated bool
}

// reduced is the label's box in the photo decoded f times smaller.
func (l Labelled) reduced(f float64) box {
	return box{x0: l.Box[0] / f, y0: l.Box[1] / f, x1: l.Box[2] / f, y1: l.Box[3] / f}
}

// ReadLabels reads a label file: one `CODE x0 y0 x1 y1` line per tile, with
// an optional sixth field `r` for a tile lying sideways. Codes are returned
// as written (red fives stay 0m 0p 0s); Score decides how to compare them.
func ReadLabels(path string) ([]Labelled, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		p := strings.Fields(sc.Text())
		if len(p) == 0 {
			continue
		}
		if len(p) != 5 && len(p) != 6 {
			return nil, fmt.Errorf("%s line %d: want `CODE x0 y0 x1 y1` or `CODE x0 y0 x1 y1 r`, got %d fields", path, n, len(p))
		}
		if !labelCode(p[0]) {
			return nil, fmt.Errorf("%s line %d: %q is not a tile code", path, n, p[0])
		}
		l := Labelled{Tile: p[0]}
		for i := 0; i < 4; i++ {
			if l.Box[i], err = strconv.ParseFloat(p[i+1], 64); err != nil {
				return nil, fmt.Errorf("%s line %d: %v", path, n, err)
			}
		}
		if len(p) == 6 {
			if p[5] != "r" {
				return nil, fmt.Errorf("%s line %d: sixth field %q: want `r` (tile lying sideways) or nothing", path, n, p[5])
			}
			l.Rotated = true
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// labelCode reports whether c is a tile code of CONTRACT section 1.
func labelCode(c string) bool {
	if len(c) != 2 || c[0] < '0' || c[0] > '9' {
		return false
	}
	d := c[0] - '0'
	switch c[1] {
	case 'm', 'p', 's':
		return true
	case 'z':
		return d <= 7
	case 'f', 'k':
		return d >= 1 && d <= 8
	case 'j':
		return d >= 1
	}
	return false
}

// CodeMode says which codes the scoring tells apart. The zero value is the
// reference scorer's (shared/data/photos/eval_recognition.py): red fives
// count as fives and predicted backs are dropped, because the dev labels
// have neither. A labelled folder that has red fives or backs turns the
// strict comparison on (CodeModeFor), so a folder without them scores the
// same as before.
type CodeMode struct {
	StrictRedFives bool // 0m 0p 0s are their own codes: 5m read as 0m is a confusion
	CountBacks     bool // predicted 0z tiles are kept and scored like any other code
}

// CodeModeFor chooses the mode for a labelled folder: red fives strict when
// any label is a red five, backs counted when any label is 0z.
func CodeModeFor(photos [][]Labelled) CodeMode {
	var m CodeMode
	for _, labels := range photos {
		for _, l := range labels {
			switch l.Tile {
			case "0m", "0p", "0s":
				m.StrictRedFives = true
			case "0z":
				m.CountBacks = true
			}
		}
	}
	return m
}

func (m CodeMode) String() string {
	red, backs := "red fives as fives", "backs ignored"
	if m.StrictRedFives {
		red = "red fives strict"
	}
	if m.CountBacks {
		backs = "backs counted"
	}
	return red + ", " + backs
}

// code is the code a tile is scored under.
func (m CodeMode) code(c string) string {
	if !m.StrictRedFives && (c == "0m" || c == "0p" || c == "0s") {
		return "5" + c[1:]
	}
	return c
}

// Tally counts one tile class or group: labelled tiles, predicted tiles,
// and the pairs of them the tile matching made (IoU ≥ 0.5, same code).
type Tally struct {
	Labels, Predicted, Matched int
}

func (t Tally) Precision() float64 { return ratio(t.Matched, t.Predicted) }
func (t Tally) Recall() float64    { return ratio(t.Matched, t.Labels) }

// F1 is the harmonic mean of precision and recall, 0 when both are 0.
func (t Tally) F1() float64 {
	p, r := t.Precision(), t.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// The rare groups the evaluation reports on their own, in print order.
const (
	GroupRedFives = "red fives"    // 0m 0p 0s
	GroupBacks    = "backs"        // 0z
	GroupKings    = "kings/queens" // 1k–8k
	GroupJokers   = "jokers"       // 1j–8j and the American 9j
	GroupSideways = "sideways"     // labels marked r, predictions flagged rotated
)

var rareGroups = []string{GroupRedFives, GroupBacks, GroupKings, GroupJokers, GroupSideways}

// codeGroup names the rare group of a code, "" for the common tiles.
func codeGroup(c string) string {
	switch {
	case c == "0m" || c == "0p" || c == "0s":
		return GroupRedFives
	case c == "0z":
		return GroupBacks
	case len(c) == 2 && c[1] == 'k' && c[0] >= '1' && c[0] <= '8':
		return GroupKings
	case len(c) == 2 && c[1] == 'j' && c[0] >= '1' && c[0] <= '9':
		return GroupJokers
	}
	return ""
}

// Score tallies recognition against labels the way
// shared/data/photos/eval_recognition.py does: greedy one-to-one matching at
// IoU ≥ 0.5 (a tile match also needs the same code), codes compared as Mode
// says, and in photos with partial labels, predictions that overlap no label
// ignored.
//
// Beside the totals it keeps a Tally per code and per rare group, all
// counted from that one tile matching (the predictions being those left
// after the partial-label and back filtering):
//
//   - a code group (red fives 0m 0p 0s, backs 0z, kings/queens 1k–8k,
//     jokers 1j–9j): Labels are the labelled tiles with a code of the group,
//     Predicted the predicted tiles with a code of the group, Matched the
//     matched pairs with a code of the group (both sides share it). So a
//     3k read as 4k is a miss and a false positive of the group; a 5m read
//     as 0m in strict mode is a false positive of the red fives.
//   - sideways: Labels are the labelled tiles marked `r`, Predicted the
//     predicted tiles flagged Rotated, Matched the matched pairs whose label
//     is marked `r` and whose prediction is flagged Rotated. A sideways tile
//     read with the right code but not flagged is a miss; a flagged
//     prediction on an upright tile, on no tile, or with the wrong code is a
//     false positive.
//
// A group's precision is Matched/Predicted, its recall Matched/Labels and
// its F1 their harmonic mean (0 when there is nothing to count).
type Score struct {
	Mode                              CodeMode
	Images, ImageExact, MultisetExact int
	Labels, Predicted, Matched        int
	Localised, LocalisedRight         int
	Confusions                        map[[2]string]int
	Elapsed                           []time.Duration
	// Taught counts the photos left out because the bank was taught from them.
	Taught int
	// Photos holds, for each photo added by AddPhoto with a mistake in it,
	// what it got wrong (MistakesReport prints them).
	Photos []PhotoMistakes

	classes  map[string]Tally
	sideways Tally
	sizes    [len(sizeEdges) + 1]SizeTally
}

// sizeEdges are the short sides, in photo pixels, that split the labelled
// tiles into the size bands Report prints: a tile under 20 px across is
// hard to find and to read (dev has none under 20; the held-out synthetic
// scenes have one in nine).
var sizeEdges = [...]float64{20, 30, 45, 70}

// SizeTally counts the labelled tiles of one size band: how many, how many
// a prediction found (IoU ≥ 0.5, any code) and how many of those it read
// with the right code.
type SizeTally struct {
	Labels, Localised, Right int
}

// sizeBand is the band of a labelled box's short side.
func sizeBand(b [4]float64) int {
	s := min(b[2]-b[0], b[3]-b[1])
	for i, e := range sizeEdges {
		if s < e {
			return i
		}
	}
	return len(sizeEdges)
}

// Sizes is the tally of each size band, smallest first (bands split at
// sizeEdges).
func (s *Score) Sizes() []SizeTally { return s.sizes[:] }

// Add scores one photo.
func (s *Score) Add(labels []Labelled, tiles []TileSeen, partial bool) {
	s.AddPhoto("", labels, tiles, partial)
}

// PhotoMistakes is what one photo's reading got wrong, each mistake as
// Report prints it: "misread 4p as 2p (0.49) at [x0 y0 x1 y1]" (the label
// and its box), "missed 6p at [...]" (no prediction at IoU 0.5), "extra 1s
// (0.99) at [...]" (a prediction matching no label; the predicted box).
type PhotoMistakes struct {
	Photo    string
	Mistakes []string
}

// AddPhoto is Add for a named photo: beside the tallies it keeps the
// photo's mistakes in Photos, so that a reader can look at them (`mjscan
// recognize --eval DIR --mistakes`).
func (s *Score) AddPhoto(name string, labels []Labelled, tiles []TileSeen, partial bool) {
	labels = append([]Labelled(nil), labels...)
	for i := range labels {
		labels[i].Tile = s.Mode.code(labels[i].Tile)
	}
	var preds []Labelled
	var confidence []float64
	for _, t := range tiles {
		if t.Tile == scoring.Back && !s.Mode.CountBacks {
			continue
		}
		p := Labelled{Tile: s.Mode.code(t.Tile.String()), Box: [4]float64{float64(t.Box[0]), float64(t.Box[1]), float64(t.Box[2]), float64(t.Box[3])}, Rotated: t.Rotated}
		if partial && len(labels) > 0 {
			best := 0.0
			for _, l := range labels {
				best = max(best, boxIoU(l.Box, p.Box))
			}
			if best < 0.3 {
				continue
			}
		}
		preds = append(preds, p)
		confidence = append(confidence, t.Confidence)
	}
	same := greedyMatch(labels, preds, true)
	any := greedyMatch(labels, preds, false)
	if name != "" {
		if m := mistakes(labels, preds, confidence, same, any); len(m) > 0 {
			s.Photos = append(s.Photos, PhotoMistakes{Photo: name, Mistakes: m})
		}
	}
	s.Images++
	s.Labels += len(labels)
	s.Predicted += len(preds)
	s.Matched += len(same)
	s.Localised += len(any)
	if s.Confusions == nil {
		s.Confusions = map[[2]string]int{}
	}
	if s.classes == nil {
		s.classes = map[string]Tally{}
	}
	for _, l := range labels {
		t := s.classes[l.Tile]
		t.Labels++
		s.classes[l.Tile] = t
		s.sizes[sizeBand(l.Box)].Labels++
		if l.Rotated {
			s.sideways.Labels++
		}
	}
	for _, p := range preds {
		t := s.classes[p.Tile]
		t.Predicted++
		s.classes[p.Tile] = t
		if p.Rotated {
			s.sideways.Predicted++
		}
	}
	for _, m := range same {
		l := labels[m[0]]
		t := s.classes[l.Tile]
		t.Matched++
		s.classes[l.Tile] = t
		if l.Rotated && preds[m[1]].Rotated {
			s.sideways.Matched++
		}
	}
	for _, m := range any {
		band := &s.sizes[sizeBand(labels[m[0]].Box)]
		band.Localised++
		if labels[m[0]].Tile == preds[m[1]].Tile {
			band.Right++
			s.LocalisedRight++
		} else {
			s.Confusions[[2]string{labels[m[0]].Tile, preds[m[1]].Tile}]++
		}
	}
	if len(same) == len(labels) && len(same) == len(preds) {
		s.ImageExact++
	}
	count := map[string]int{}
	for _, l := range labels {
		count[l.Tile]++
	}
	for _, p := range preds {
		count[p.Tile]--
	}
	exact := true
	for _, n := range count {
		exact = exact && n == 0
	}
	if exact {
		s.MultisetExact++
	}
}

// mistakes lists what a photo's predictions got wrong, labels first in
// their order: a label without a same-code match is misread when its
// any-code match is a prediction no label matched by code, and missed
// otherwise; a prediction matched by neither is extra.
func mistakes(labels, preds []Labelled, confidence []float64, same, any [][2]int) []string {
	rightL, usedP := map[int]bool{}, map[int]bool{}
	for _, m := range same {
		rightL[m[0]], usedP[m[1]] = true, true
	}
	readAs := map[int]int{}
	for _, m := range any {
		if !rightL[m[0]] && !usedP[m[1]] {
			readAs[m[0]] = m[1]
			usedP[m[1]] = true
		}
	}
	at := func(b [4]float64) string { return fmt.Sprintf("[%.0f %.0f %.0f %.0f]", b[0], b[1], b[2], b[3]) }
	var out []string
	for i, l := range labels {
		if rightL[i] {
			continue
		}
		if j, ok := readAs[i]; ok {
			out = append(out, fmt.Sprintf("misread %s as %s (%.2f) at %s", l.Tile, preds[j].Tile, confidence[j], at(l.Box)))
		} else {
			out = append(out, fmt.Sprintf("missed %s at %s", l.Tile, at(l.Box)))
		}
	}
	for j, p := range preds {
		if !usedP[j] {
			out = append(out, fmt.Sprintf("extra %s (%.2f) at %s", p.Tile, confidence[j], at(p.Box)))
		}
	}
	return out
}

// Class is the tally of one code, as scored under Mode (when red fives are
// not strict, their tiles are counted under 5m 5p 5s).
func (s *Score) Class(code string) Tally { return s.classes[code] }

// ClassF1 is the F1 of one code.
func (s *Score) ClassF1(code string) float64 { return s.Class(code).F1() }

// Group is the tally of a rare group (GroupRedFives … GroupSideways; see
// Score for how each is counted). An unknown name has an empty tally.
func (s *Score) Group(name string) Tally {
	if name == GroupSideways {
		return s.sideways
	}
	var g Tally
	if name == "" {
		return g
	}
	for c, t := range s.classes {
		if codeGroup(c) == name {
			g.Labels += t.Labels
			g.Predicted += t.Predicted
			g.Matched += t.Matched
		}
	}
	return g
}

// GroupF1 is the F1 of a rare group.
func (s *Score) GroupF1(name string) float64 { return s.Group(name).F1() }

func boxIoU(a, b [4]float64) float64 {
	ix := min(a[2], b[2]) - max(a[0], b[0])
	iy := min(a[3], b[3]) - max(a[1], b[1])
	if ix <= 0 || iy <= 0 {
		return 0
	}
	in := ix * iy
	u := (a[2]-a[0])*(a[3]-a[1]) + (b[2]-b[0])*(b[3]-b[1]) - in
	if u <= 0 {
		return 0
	}
	return in / u
}

// greedyMatch pairs labels and predictions one to one, best IoU first.
func greedyMatch(labels, preds []Labelled, sameCode bool) [][2]int {
	type cand struct {
		v    float64
		i, j int
	}
	var cs []cand
	for i, l := range labels {
		for j, p := range preds {
			if sameCode && l.Tile != p.Tile {
				continue
			}
			if v := boxIoU(l.Box, p.Box); v >= 0.5 {
				cs = append(cs, cand{v, i, j})
			}
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].v != cs[b].v {
			return cs[a].v > cs[b].v
		}
		if cs[a].i != cs[b].i {
			return cs[a].i < cs[b].i
		}
		return cs[a].j < cs[b].j
	})
	usedL, usedP := map[int]bool{}, map[int]bool{}
	var out [][2]int
	for _, c := range cs {
		if usedL[c.i] || usedP[c.j] {
			continue
		}
		usedL[c.i], usedP[c.j] = true, true
		out = append(out, [2]int{c.i, c.j})
	}
	return out
}

// sizeBandName names size band i: "under 20 px", "20-30 px", "70 px or more".
func sizeBandName(i int) string {
	switch {
	case i <= 0:
		return fmt.Sprintf("under %.0f px", sizeEdges[0])
	case i >= len(sizeEdges):
		return fmt.Sprintf("%.0f px or more", sizeEdges[len(sizeEdges)-1])
	}
	return fmt.Sprintf("%.0f-%.0f px", sizeEdges[i-1], sizeEdges[i])
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// F1 is the tile F1 over same-code matches.
func (s *Score) F1() float64 {
	p, r := ratio(s.Matched, s.Predicted), ratio(s.Matched, s.Labels)
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// String prints the metrics in eval_recognition.py's order.
func (s *Score) String() string { return s.Report(false) }

// MistakesReport lists, photo by photo, what the reading got wrong (see
// PhotoMistakes), one photo a line.
func (s *Score) MistakesReport() string {
	var b strings.Builder
	fmt.Fprintf(&b, "photos with a mistake: %d of %d\n", len(s.Photos), s.Images)
	for _, p := range s.Photos {
		fmt.Fprintf(&b, "  %s: %s\n", p.Photo, strings.Join(p.Mistakes, "; "))
	}
	return b.String()
}

// Report prints the metrics in eval_recognition.py's order, the code mode
// after the first line, then the per-code block when perClass is set and
// the rare groups that have labels. The last line is always
// `tile_f1=… image_exact=…`.
func (s *Score) Report(perClass bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "images: %d   labelled tiles: %d   predicted tiles: %d\n", s.Images, s.Labels, s.Predicted)
	if s.Taught > 0 {
		fmt.Fprintf(&b, "left out: %d photos the bank was taught from\n", s.Taught)
	}
	fmt.Fprintf(&b, "codes: %s\n", s.Mode)
	fmt.Fprintf(&b, "tile precision: %.4f  (%d/%d)\n", ratio(s.Matched, s.Predicted), s.Matched, s.Predicted)
	fmt.Fprintf(&b, "tile recall:    %.4f  (%d/%d)\n", ratio(s.Matched, s.Labels), s.Matched, s.Labels)
	fmt.Fprintf(&b, "tile F1:        %.4f\n", s.F1())
	fmt.Fprintf(&b, "localisation recall (any code, IoU>=0.50): %.4f  (%d/%d)\n", ratio(s.Localised, s.Labels), s.Localised, s.Labels)
	fmt.Fprintf(&b, "class accuracy over localised matches:    %.4f  (%d/%d)\n", ratio(s.LocalisedRight, s.Localised), s.LocalisedRight, s.Localised)
	fmt.Fprintf(&b, "image exact:    %.4f  (%d/%d)\n", ratio(s.ImageExact, s.Images), s.ImageExact, s.Images)
	fmt.Fprintf(&b, "multiset exact: %.4f  (%d/%d)\n", ratio(s.MultisetExact, s.Images), s.MultisetExact, s.Images)
	type conf struct {
		k [2]string
		n int
	}
	var cs []conf
	for k, n := range s.Confusions {
		cs = append(cs, conf{k, n})
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].n != cs[b].n {
			return cs[a].n > cs[b].n
		}
		return cs[a].k[0]+cs[a].k[1] < cs[b].k[0]+cs[b].k[1]
	})
	b.WriteString("top confusions (label -> predicted: count):\n")
	if len(cs) == 0 {
		b.WriteString("  none\n")
	}
	for _, c := range cs[:min(15, len(cs))] {
		fmt.Fprintf(&b, "  %s -> %s: %d\n", c.k[0], c.k[1], c.n)
	}
	if perClass {
		codes := make([]string, 0, len(s.classes))
		for c := range s.classes {
			codes = append(codes, c)
		}
		sort.Slice(codes, func(a, b int) bool {
			ca, cb := codes[a], codes[b]
			if ca[len(ca)-1] != cb[len(cb)-1] {
				return ca[len(ca)-1] < cb[len(cb)-1]
			}
			return ca < cb
		})
		b.WriteString("per class: code  labelled  predicted  precision  recall      F1\n")
		for _, c := range codes {
			t := s.classes[c]
			fmt.Fprintf(&b, "  %-4s %8d %10d %10.4f %7.4f %7.4f\n", c, t.Labels, t.Predicted, t.Precision(), t.Recall(), t.F1())
		}
	}
	var rare []string
	for _, g := range rareGroups {
		if t := s.Group(g); t.Labels > 0 {
			rare = append(rare, fmt.Sprintf("  %-13s F1 %.4f  precision %.4f (%d/%d)  recall %.4f (%d/%d)\n",
				g, t.F1(), t.Precision(), t.Matched, t.Predicted, t.Recall(), t.Matched, t.Labels))
		}
	}
	if len(rare) > 0 {
		b.WriteString("rare classes (sideways: right code and flagged rotated):\n")
		b.WriteString(strings.Join(rare, ""))
	}
	if s.Labels > 0 {
		b.WriteString("by tile size (short side of the labelled box): labelled  found  read right of found\n")
		for i, t := range s.sizes {
			if t.Labels > 0 {
				fmt.Fprintf(&b, "  %-15s %8d %6.4f %6.4f\n", sizeBandName(i), t.Labels, ratio(t.Localised, t.Labels), ratio(t.Right, t.Localised))
			}
		}
	}
	if len(s.Elapsed) > 0 {
		d := append([]time.Duration(nil), s.Elapsed...)
		sort.Slice(d, func(a, b int) bool { return d[a] < d[b] })
		fmt.Fprintf(&b, "time per photo: median %v, slowest %v\n", d[len(d)/2].Round(time.Millisecond), d[len(d)-1].Round(time.Millisecond))
	}
	fmt.Fprintf(&b, "tile_f1=%.4f image_exact=%.4f\n", s.F1(), ratio(s.ImageExact, s.Images))
	return b.String()
}

// EvaluateDir recognises every photo of a labelled folder (<stem>.jpg with
// <stem>.txt, PARTIAL.txt naming photos labelled only in part) and scores it.
func EvaluateDir(rec *Recognizer, dir string) (*Score, error) {
	partial := map[string]bool{}
	if data, err := os.ReadFile(filepath.Join(dir, "PARTIAL.txt")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if s := strings.TrimSpace(strings.SplitN(line, "#", 2)[0]); s != "" {
				partial[strings.TrimSuffix(s, ".jpg")] = true
			}
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no .jpg photos in %s", dir)
	}
	sort.Strings(names)
	// Every label file is read before any photo: a bad line stops the run
	// at once, and the code mode depends on the whole folder.
	labels := make([][]Labelled, len(names))
	for i, name := range names {
		if labels[i], err = ReadLabels(strings.TrimSuffix(name, ".jpg") + ".txt"); err != nil {
			return nil, err
		}
	}
	s := &Score{Mode: CodeModeFor(labels)}
	for i, name := range names {
		stem := strings.TrimSuffix(name, ".jpg")
		if slices.Contains(rec.taught, filepath.Base(stem)) {
			// A photo the bank learned from says nothing of how well it reads.
			s.Taught++
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		r := rec.Recognize(filepath.Base(stem), data)
		s.Elapsed = append(s.Elapsed, time.Since(start))
		s.AddPhoto(filepath.Base(stem), labels[i], r.Tiles, partial[filepath.Base(stem)])
	}
	return s, nil
}
