package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"mjscan/scoring"
	"mjscan/vision"
)

// maxPhotoBytes bounds a photo file before it is read; the header check in
// vision.DecodePhoto bounds its pixels.
const maxPhotoBytes = 64 << 20

func cmdRecognize(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("recognize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		jsonl   = fs.Bool("jsonl", false, `read {"id","path"} lines on stdin and write one CONTRACT recognition line each`)
		asJSON  = fs.Bool("json", false, "print the recognition as CONTRACT JSON instead of text")
		overlay = fs.String("overlay", "", "write the photo with boxes and tile codes drawn to this PNG file")
		eval    = fs.String("eval", "", "score recognition against a labelled folder (shared/data/photos/dev format) and print the metrics")
		byClass = fs.Bool("per-class", false, "with --eval: also print precision, recall and F1 per tile code")
		byPhoto = fs.Bool("mistakes", false, "with --eval: also list, photo by photo, each tile misread, missed or read where no tile is labelled")
		workers = fs.Int("workers", 0, "photos read at once (default: one per CPU)")
		bank    = fs.String("bank", "", "read with the template bank of your own tile set (made by mjscan calibrate)")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mjscan recognize [--bank bank.mjb] PHOTO [--overlay out.png] [--json]\n"+
			"       mjscan recognize --jsonl < requests.jsonl\n"+
			"       mjscan recognize --eval DIR [--per-class] [--mistakes]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return 2
	}
	if !*jsonl && *eval == "" && fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	cfg := vision.Config{Workers: *workers}
	if *bank != "" {
		b, err := vision.ReadBankFile(*bank)
		if err != nil {
			fmt.Fprintln(stderr, "mjscan recognize --bank:", err)
			return 1
		}
		cfg.Bank = b
	}
	rec, err := vision.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "mjscan recognize:", err)
		return 1
	}
	defer rec.Close()
	switch {
	case *jsonl:
		if err := recognizeLines(rec, *workers, stdin, stdout); err != nil {
			fmt.Fprintln(stderr, "mjscan recognize:", err)
			return 1
		}
		return 0
	case *eval != "":
		rep, err := vision.EvaluateDir(rec, *eval)
		if err != nil {
			fmt.Fprintln(stderr, "mjscan recognize --eval:", err)
			return 1
		}
		if *byPhoto {
			fmt.Fprint(stdout, rep.MistakesReport())
		}
		fmt.Fprint(stdout, rep.Report(*byClass))
		return 0
	}
	path := fs.Arg(0)
	r := recognizeFile(rec, "cli", path)
	if *overlay != "" && r.OK {
		if err := drawOverlay(path, r, *overlay); err != nil {
			fmt.Fprintln(stderr, "mjscan recognize --overlay:", err)
			return 1
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		fmt.Fprint(stdout, renderRecognition(r))
	}
	if !r.OK {
		return 1
	}
	return 0
}

func recognizeFile(rec *vision.Recognizer, id, path string) vision.Recognition {
	fail := func(format string, a ...any) vision.Recognition {
		return vision.Recognition{ID: id, Tiles: []vision.TileSeen{}, Error: scoring.Errorf(scoring.CodeBadRequest, format, a...)}
	}
	if path == "" {
		return fail(`no photo: give its file name in "path"`)
	}
	st, err := os.Stat(path)
	if err != nil {
		return fail("cannot read the photo %q: %v", path, errors.Unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return fail("%q is not a photo file", path)
	}
	if st.Size() > maxPhotoBytes {
		return fail("the photo is %d MB; at most %d MB are accepted", st.Size()>>20, maxPhotoBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail("cannot read the photo %q: %v", path, errors.Unwrap(err))
	}
	return rec.Recognize(id, data)
}

// recognizeLines is the CONTRACT batch surface: one recognition line per
// input line, in order, ids echoed; a bad line gets an error line. Photos
// are read by several workers at once while the output keeps input order.
func recognizeLines(rec *vision.Recognizer, workers int, in io.Reader, out io.Writer) error {
	if workers <= 0 {
		workers = 2
	}
	type job struct {
		line []byte
		res  chan vision.Recognition
	}
	queue := make(chan job, workers)
	w := bufio.NewWriterSize(out, 64<<10)
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		enc := json.NewEncoder(w)
		for j := range queue {
			r := <-j.res
			if werr == nil {
				werr = enc.Encode(r)
			}
		}
	}()
	sem := make(chan struct{}, workers)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var rerr error
	for {
		if !sc.Scan() {
			rerr = sc.Err()
			if errors.Is(rerr, bufio.ErrTooLong) {
				// A line past the limit still gets its error line; the rest of
				// the input cannot be realigned, so reading stops there.
				j := job{res: make(chan vision.Recognition, 1)}
				j.res <- vision.Recognition{Tiles: []vision.TileSeen{}, Error: scoring.Errorf(scoring.CodeBadRequest, "request line longer than %d bytes", maxLine)}
				queue <- j
			}
			break
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		j := job{line: append([]byte(nil), line...), res: make(chan vision.Recognition, 1)}
		queue <- j
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			j.res <- recognizeLine(rec, j.line)
		}()
	}
	close(queue)
	wg.Wait()
	if err := w.Flush(); werr == nil {
		werr = err
	}
	if rerr != nil && !errors.Is(rerr, bufio.ErrTooLong) {
		return rerr
	}
	return werr
}

func recognizeLine(rec *vision.Recognizer, line []byte) vision.Recognition {
	var req struct {
		ID   json.RawMessage `json:"id"`
		Path string          `json:"path"`
	}
	if err := json.Unmarshal(line, &req); err != nil {
		return vision.Recognition{Tiles: []vision.TileSeen{}, Error: scoring.Errorf(scoring.CodeBadRequest, `request is not a JSON object {"id","path"}: %v`, err)}
	}
	var id string
	if len(req.ID) > 0 && json.Unmarshal(req.ID, &id) != nil {
		id = strings.Trim(string(req.ID), `"`)
	}
	return recognizeFile(rec, id, req.Path)
}

// renderRecognition writes a recognition for a person: the tiles in reading
// order with their confidence, then the groups and the hand they make.
func renderRecognition(r vision.Recognition) string {
	var b strings.Builder
	if !r.OK {
		fmt.Fprintf(&b, "could not read the photo: %s\n", r.Error.Message)
		return b.String()
	}
	fmt.Fprintf(&b, "%d tiles in a %d×%d photo\n", len(r.Tiles), r.Width, r.Height)
	for _, g := range r.Groups {
		codes := make([]string, len(g.Tiles))
		for i, k := range g.Tiles {
			t := r.Tiles[k]
			codes[i] = t.Tile.String()
			if t.Rotated {
				codes[i] += "(sideways)"
			}
		}
		fmt.Fprintf(&b, "  %-8s %s", g.Kind, strings.Join(codes, " "))
		if g.From != "" {
			fmt.Fprintf(&b, "  (called from %s)", g.From)
		}
		b.WriteByte('\n')
	}
	var unsure []string
	for _, t := range r.Tiles {
		if t.Confidence < 0.6 {
			s := fmt.Sprintf("%s %.0f%%", t.Tile, 100*t.Confidence)
			for _, a := range t.Alternatives {
				s += fmt.Sprintf(", %s %.0f%%", a.Tile, 100*a.Confidence)
			}
			unsure = append(unsure, fmt.Sprintf("  at [%d %d %d %d]: %s", t.Box[0], t.Box[1], t.Box[2], t.Box[3], s))
		}
	}
	if len(unsure) > 0 {
		fmt.Fprintf(&b, "unsure readings (check these):\n%s\n", strings.Join(unsure, "\n"))
	}
	if r.Hand != nil {
		fmt.Fprintf(&b, "hand: %s win %s", r.Hand.Hand, r.Hand.WinTile)
		for _, m := range r.Hand.Melds {
			fmt.Fprintf(&b, ", %s %s", m.Type, m.Tiles)
		}
		if r.Hand.Flowers != "" {
			fmt.Fprintf(&b, ", flowers %s", r.Hand.Flowers)
		}
		fmt.Fprintf(&b, "\nscore it with: mjscan score %q --win %s", handMPSZ(r.Hand), r.Hand.WinTile)
		if r.Hand.Flowers != "" {
			fmt.Fprintf(&b, " --flowers %s", r.Hand.Flowers)
		}
		b.WriteByte('\n')
	} else {
		b.WriteString("no complete hand of 14 tiles found in the layout\n")
	}
	return b.String()
}

// handMPSZ writes a recognised hand in the score command's notation: each
// called meld marks its first tile with the seat it came from.
func handMPSZ(h *scoring.Request) string {
	s := h.Hand
	mark := map[string]string{"left": "-", "across": "=", "right": "+"}
	for _, m := range h.Melds {
		t := m.Tiles
		if k := mark[m.From]; k != "" && len(t) > 1 {
			t = t[:1] + k + t[1:]
		}
		s += "," + t
	}
	return s
}

// drawOverlay writes the photo with each tile's box and code drawn as a PNG.
func drawOverlay(path string, r vision.Recognition, out string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	png, err := vision.Overlay(data, &r)
	if err != nil {
		return err
	}
	return os.WriteFile(out, png, 0o644)
}
