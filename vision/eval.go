package vision

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Labelled is one tile of a labelled photo: its code and box.
type Labelled struct {
	Tile string
	Box  [4]float64
}

// ReadLabels reads a label file: one `CODE x0 y0 x1 y1` line per tile.
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
		if len(p) != 5 {
			return nil, fmt.Errorf("%s line %d: want `CODE x0 y0 x1 y1`", path, n)
		}
		l := Labelled{Tile: evalCode(p[0])}
		for i := 0; i < 4; i++ {
			if l.Box[i], err = strconv.ParseFloat(p[i+1], 64); err != nil {
				return nil, fmt.Errorf("%s line %d: %v", path, n, err)
			}
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// evalCode counts red fives as fives, as the labels do.
func evalCode(c string) string {
	if len(c) == 2 && c[0] == '0' && c[1] != 'z' {
		return "5" + c[1:]
	}
	return c
}

// Score tallies recognition against labels the way
// shared/data/photos/eval_recognition.py does: greedy one-to-one matching at
// IoU ≥ 0.5 (a tile match also needs the same code), backs ignored, and in
// photos with partial labels, predictions that overlap no label ignored.
type Score struct {
	Images, ImageExact, MultisetExact int
	Labels, Predicted, Matched        int
	Localised, LocalisedRight         int
	Confusions                        map[[2]string]int
	Elapsed                           []time.Duration
}

// Add scores one photo.
func (s *Score) Add(labels []Labelled, tiles []TileSeen, partial bool) {
	var preds []Labelled
	for _, t := range tiles {
		if t.Tile == "0z" {
			continue
		}
		p := Labelled{Tile: evalCode(t.Tile), Box: [4]float64{float64(t.Box[0]), float64(t.Box[1]), float64(t.Box[2]), float64(t.Box[3])}}
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
	}
	same := greedyMatch(labels, preds, true)
	any := greedyMatch(labels, preds, false)
	s.Images++
	s.Labels += len(labels)
	s.Predicted += len(preds)
	s.Matched += len(same)
	s.Localised += len(any)
	if s.Confusions == nil {
		s.Confusions = map[[2]string]int{}
	}
	for _, m := range any {
		if labels[m[0]].Tile == preds[m[1]].Tile {
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
func (s *Score) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "images: %d   labelled tiles: %d   predicted tiles: %d\n", s.Images, s.Labels, s.Predicted)
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
	s := &Score{}
	for _, name := range names {
		stem := strings.TrimSuffix(name, ".jpg")
		labels, err := ReadLabels(stem + ".txt")
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		r := rec.Recognize(filepath.Base(stem), data)
		s.Elapsed = append(s.Elapsed, time.Since(start))
		s.Add(labels, r.Tiles, partial[filepath.Base(stem)])
	}
	return s, nil
}
