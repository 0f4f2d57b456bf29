package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

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
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mjscan calibrate PHOTO [--out bank.mjb] [--overlay out.png]\n\n"+
			"Builds a template bank from one photo of your own tile set; recognition\n"+
			"then reads that set with it: mjscan recognize --bank bank.mjb PHOTO\n"+
			"(mjscan serve: MJSCAN_BANK=bank.mjb).\n\n%s\n\n", vision.GridUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *out == "" {
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
			r.Tiles = append(r.Tiles, vision.TileSeen{Tile: t.Code, Box: t.Box, Confidence: 1})
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
