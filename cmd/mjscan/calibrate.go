package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"mjscan/scoring"
	"mjscan/vision"
)

// cmdCalibrate builds a template bank from one photo of the user's own
// tiles laid out in the documented grid: `mjscan calibrate grid.jpg --out
// bank.mjb`, then `mjscan recognize --bank bank.mjb photo.jpg`.
func cmdCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out     = fs.String("out", "bank.mjb", "write the template bank to this file")
		overlay = fs.String("overlay", "", "write the photo with each tile's box and the code it was given to this PNG file")
		dir     = fs.String("labelled", "", "teach the set from the labelled photos of this folder (<name>.jpg beside <name>.txt, a `CODE x0 y0 x1 y1` line per tile) instead of a grid photo")
		fewest  = fs.Bool("fewest", false, "with --labelled: teach from only the fewest photos that show every tile of the folder once")
		grow    = fs.String("grow", "", "with --labelled: add the photos to this bank instead of starting a new one")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mjscan calibrate PHOTO [--out bank.mjb] [--overlay out.png]\n"+
			"       mjscan calibrate --labelled DIR [--fewest] [--grow bank.mjb] [--out bank.mjb]\n\n"+
			"Builds a template bank from one photo of your own tile set; recognition\n"+
			"then reads that set with it: mjscan recognize --bank bank.mjb PHOTO\n"+
			"(mjscan serve: MJSCAN_BANK=bank.mjb).\n\n%s\n\n", vision.GridUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return 2
	}
	if *dir != "" {
		if fs.NArg() != 0 || *out == "" || *overlay != "" {
			fs.Usage()
			return 2
		}
		return calibrateLabelled(*dir, *fewest, *grow, *out, stdout, stderr)
	}
	if fs.NArg() != 1 || *out == "" || *fewest || *grow != "" {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	data, err := readPhoto(path)
	if err != nil {
		fmt.Fprintln(stderr, "mjscan calibrate:", err)
		return 1
	}
	rec, err := vision.New(vision.Config{Workers: 1})
	if err != nil {
		fmt.Fprintln(stderr, "mjscan calibrate:", err)
		return 1
	}
	defer rec.Close()
	bank, err := vision.Calibrate(rec, data)
	if err != nil {
		fmt.Fprintln(stderr, "mjscan calibrate:", err)
		return 1
	}
	if *overlay != "" {
		r := vision.Recognition{Tiles: []vision.TileSeen{}}
		for _, t := range bank.Templates {
			if tile, err := scoring.ParseTile(t.Code); err == nil {
				r.Tiles = append(r.Tiles, vision.TileSeen{Tile: tile, Box: t.Box, Confidence: 1})
			}
		}
		png, err := vision.Overlay(data, &r)
		if err == nil {
			err = os.WriteFile(*overlay, png, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "mjscan calibrate --overlay:", err)
			return 1
		}
	}
	if err := bank.WriteFile(*out); err != nil {
		fmt.Fprintln(stderr, "mjscan calibrate:", err)
		return 1
	}
	fmt.Fprint(stdout, renderBank(bank, *out))
	return 0
}

// calibrateLabelled teaches a set from labelled photos (all of a folder's,
// or the fewest that show each tile once) and writes its bank.
func calibrateLabelled(dir string, fewest bool, grow, out string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "mjscan calibrate --labelled:", err)
		return 1
	}
	photos, err := vision.ReadLabelledDir(dir)
	if err != nil {
		return fail(err)
	}
	if fewest {
		var picked []vision.LabelledPhoto
		for _, i := range vision.FewestCovering(photos) {
			picked = append(picked, photos[i])
		}
		photos = picked
	}
	var base *vision.Bank
	if grow != "" {
		if base, err = vision.ReadBankFile(grow); err != nil {
			return fail(err)
		}
	}
	rec, err := vision.New(vision.Config{Workers: 1})
	if err != nil {
		return fail(err)
	}
	defer rec.Close()
	bank, err := vision.Teach(rec, base, photos)
	if err != nil {
		return fail(err)
	}
	if err := bank.WriteFile(out); err != nil {
		return fail(err)
	}
	fmt.Fprint(stdout, renderTaught(bank, photos, out))
	return 0
}

// renderTaught says what a taught bank learned, from which photos.
func renderTaught(b *vision.Bank, photos []vision.LabelledPhoto, out string) string {
	var s strings.Builder
	names := make([]string, len(photos))
	for i, p := range photos {
		names[i] = p.Name
	}
	fmt.Fprintf(&s, "taught from %d photos: %s\n", len(photos), strings.Join(names, " "))
	counts := map[string]int{}
	for _, e := range b.Examples {
		counts[e.Code]++
	}
	var codes []string
	for c := range counts {
		if c != "-" {
			codes = append(codes, c)
		}
	}
	sort.Strings(codes)
	fmt.Fprintf(&s, "%d kinds of tile, %d tiles kept, %d patches where no tile is: %s\n", len(codes), b.Tiles(), counts["-"], strings.Join(codes, " "))
	s.WriteString(darkFaces(b))
	if blurred := b.Blurred(); len(blurred) > 0 {
		fmt.Fprintf(&s, "taught only from blurred tiles, so read mostly as the shipped models read them: %s (teach a sharper photo of them with --grow)\n", strings.Join(blurred, " "))
	}
	if b.Known() {
		fmt.Fprintf(&s, "the shipped models already read this set (%.0f of its %d taught tiles right), so photos are read with it as they read them\n",
			math.Round(float64(b.Head.Prior)*float64(b.Head.Tiles)), b.Head.Tiles)
	}
	fmt.Fprintf(&s, "bank written to %s (read with it: mjscan recognize --bank %s PHOTO)\n", out, out)
	return s.String()
}

// readPhoto reads a photo file, refusing what is not a file or too big.
func readPhoto(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a photo file", path)
	}
	if st.Size() > maxPhotoBytes {
		return nil, fmt.Errorf("the photo is %d MB; at most %d MB are accepted", st.Size()>>20, maxPhotoBytes>>20)
	}
	return os.ReadFile(path)
}

// renderBank says what calibration found, row by row, and how much of the
// set the network reads on its own.
func renderBank(b *vision.Bank, out string) string {
	var s strings.Builder
	at := map[string]vision.Template{}
	for _, t := range b.Templates {
		at[t.Code] = t
	}
	right := 0
	var wrong []string
	for r, row := range vision.GridRows {
		var have []string
		for _, c := range row {
			if t, ok := at[c]; ok {
				have = append(have, c)
				if t.Network == c {
					right++
				} else if t.Network != "" {
					wrong = append(wrong, fmt.Sprintf("%s (read as %s)", c, t.Network))
				}
			}
		}
		if len(have) > 0 {
			fmt.Fprintf(&s, "row %d: %-27s %d tiles\n", r+1, strings.Join(have, " "), len(have))
		} else {
			fmt.Fprintf(&s, "row %d: none (optional)\n", r+1)
		}
	}
	s.WriteString(darkFaces(b))
	fmt.Fprintf(&s, "%d templates written to %s\n", len(b.Templates), out)
	fmt.Fprintf(&s, "the network alone reads %d of the %d tiles right", right, len(b.Templates))
	if len(wrong) > 6 {
		wrong = append(wrong[:6], fmt.Sprintf("and %d more", len(wrong)-6))
	}
	if len(wrong) > 0 {
		fmt.Fprintf(&s, "; it misreads %s", strings.Join(wrong, ", "))
	}
	s.WriteString("\n")
	return s.String()
}

// darkFaces says when a bank reads its set's photos with their lightness
// inverted.
func darkFaces(b *vision.Bank) string {
	if !b.Inverted {
		return ""
	}
	return "the tiles have dark faces: photos are read with their lightness inverted, which the network reads better\n"
}
