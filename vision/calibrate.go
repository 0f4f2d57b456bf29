package vision

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gocv.io/x/gocv"

	"mjscan/scoring"
)

// GridRows is the order of the tiles in a calibration photo, row by row
// from the top, each row left to right: the characters, the circles, the
// bamboos, the honours (winds east south west north, then the white, green
// and red dragons); then, when the set has them, the flowers and seasons;
// the three red fives with a tile's back; the Vietnamese kings and queens;
// and the jokers (Vietnamese, then the American). The first four rows are
// required; the others may each be left out, and some laid out short
// (see rowFits).
var GridRows = [][]string{
	{"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"},
	{"1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"},
	{"1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"},
	{"1z", "2z", "3z", "4z", "5z", "6z", "7z"},
	{"1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"},
	{"0m", "0p", "0s", "0z"},
	{"1k", "2k", "3k", "4k", "5k", "6k", "7k", "8k"},
	{"1j", "2j", "3j", "4j", "5j", "6j", "7j", "8j", "9j"},
}

// How many of GridRows every calibration photo holds, and the optional
// rows that may be laid out short.
const (
	requiredRows = 4
	extraRow     = 5 // the red fives and a back
	jokerRow     = 7
)

// rowFits gives the codes of grid row g laid out with n tiles, or nil when
// that row cannot hold n tiles: every row in full; the red fives without
// the back (a bare back is not always found); the eight Vietnamese jokers
// without the American one, or the American joker alone.
func rowFits(g, n int) []string {
	if g < 0 || g >= len(GridRows) {
		return nil
	}
	row := GridRows[g]
	switch {
	case n == len(row):
		return row
	case (g == extraRow || g == jokerRow) && n == len(row)-1:
		return row[:n]
	case g == jokerRow && n == 1:
		return row[len(row)-1:]
	}
	return nil
}

// rowWants says what grid row g holds, for an error message.
func rowWants(g int) string {
	row := GridRows[g]
	s := fmt.Sprintf("%d (%s)", len(row), strings.Join(row, " "))
	switch g {
	case extraRow:
		s += " or the three red fives without the back"
	case jokerRow:
		s += ", 8 without the American joker, or 1 (9j) alone"
	}
	return s
}

// GridUsage explains the calibration layout to a person.
const GridUsage = `Lay the tiles face up and upright, in rows from the top, with small gaps
between tiles and between rows, and photograph them from straight above:
  row 1: 1m 2m 3m 4m 5m 6m 7m 8m 9m   (characters)
  row 2: 1p 2p 3p 4p 5p 6p 7p 8p 9p   (circles)
  row 3: 1s 2s 3s 4s 5s 6s 7s 8s 9s   (bamboos)
  row 4: 1z 2z 3z 4z 5z 6z 7z         (east south west north, white green red)
  row 5: 1f 2f 3f 4f 5f 6f 7f 8f      (flowers then seasons; optional)
  row 6: 0m 0p 0s 0z                  (red fives, then a tile face down; optional)
  row 7: 1k 2k 3k 4k 5k 6k 7k 8k      (kings E S W N, then queens; optional)
  row 8: 1j 2j 3j 4j 5j 6j 7j 8j 9j   (Vietnamese jokers, then the American; optional)
Leave out the rows a set does not have; the rows below move up. The
face-down tile may be left out, and so may either kind of joker. A set with
kings or jokers lays out its flowers too (a row of 8 right after the
honours is read as the flowers).`

// ErrBadGrid says the calibration photo does not hold the tiles in the
// documented grid; the wrapping error says which row is wrong.
var ErrBadGrid = errors.New("the tiles are not laid out in the calibration grid")

// BankFormat and BankVersion head every bank file; a file of another
// format or a newer version is refused rather than misread.
const (
	BankFormat = "mjscan-template-bank"
	// 2: taught examples and the set's own head (teach.go); 3: a taught
	// set may be read with its lightness inverted (Inverted); 4: the head
	// names the classifier whose features it was fitted on (Head.Features);
	// 5: the outline of the set's tiles (Outline)
	BankVersion = 5
)

// Template sizes: each tile is cut upright with cropTile's margin and kept
// at bankWidth×bankHeight. A tile being read is matched with bankShift
// pixels of play on every side: the detector's boxes wobble, and hold the
// side of the tile as well as its face, more or less of it from photo to
// photo (measured: play of 1 or 2 pixels found a third fewer tiles than 5).
const (
	bankWidth  = 24
	bankHeight = 32
	bankShift  = 5
)

// maxBankBytes bounds a bank file once unzipped: 46 templates of
// 30×40 colour pixels hold under 200 kB, maxExamples taught tiles about
// 23 MB.
const maxBankBytes = 32 << 20

// Bank holds one template per tile of a user's own set, cut from one
// calibration photo. Recognition matches each tile against it to confirm
// or overturn the network's reading.
type Bank struct {
	Format    string     `json:"format"`
	Version   int        `json:"version"`
	Width     int        `json:"width"`  // template size in pixels
	Height    int        `json:"height"` //
	Templates []Template `json:"templates"`
	// Examples are the taught tiles, Head the set's own classifier fitted
	// on them (version 2; see Teach), Taught the photos they came from.
	Examples []Example `json:"examples,omitempty"`
	Head     *Head     `json:"head,omitempty"`
	Taught   []string  `json:"taught,omitempty"`
	// Inverted says the set's photos are read with their lightness turned
	// over (version 3; see invertLightness): its tiles have dark faces.
	Inverted bool `json:"inverted,omitempty"`
	// Outline says how the detector's boxes of this set's tiles are moved
	// to the tiles' whole outline, as its teaching photos' labels box them
	// (version 5; see outline.go).
	Outline *Outline `json:"outline,omitempty"`

	prep *bankPrep // the templates as matched, made once (view)
}

// Template is one tile of the set as the calibration photo shows it.
type Template struct {
	Code string `json:"code"`
	// Box is where the tile lies in the calibration photo, [x0 y0 x1 y1].
	Box [4]int `json:"box"`
	// BGR holds Width×Height×3 bytes, row by row, blue green red.
	BGR []byte `json:"bgr"`
	// Network is what the network read on this tile of the calibration
	// photo, and how sure it was (it shows how well it knows the set).
	Network    string  `json:"network,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Side is the tile's short side in pixels where it was cut (a big
	// photo is read reduced, so Box can be larger); 0 in a bank made
	// before it was kept, where Box's short side stands for it.
	Side int `json:"side,omitempty"`
}

// side is the short side of the tile the template was cut from.
func (t Template) side() int {
	if t.Side > 0 {
		return t.Side
	}
	return min(t.Box[2]-t.Box[0], t.Box[3]-t.Box[1])
}

// Codes lists the bank's tile codes in grid order.
func (b *Bank) Codes() []string {
	out := make([]string, len(b.Templates))
	for i, t := range b.Templates {
		out[i] = t.Code
	}
	return out
}

// Calibrate finds the tiles of a calibration photo (see GridRows), checks
// that the rows hold the documented counts, and cuts one template per
// tile. A photo that is not laid out as documented gives an error wrapping
// ErrBadGrid that names the row and its count, never a guess; one that is
// not a photo wraps ErrNotAPhoto or ErrTooLarge.
//
// The photo is read as it is and with its lightness inverted (a set with
// dark faces, see invertLightness); the bank comes from the reading that
// lays out the grid, and, when both do, from the one whose tiles the
// network reads right more often (or, as often, more surely).
func Calibrate(rec *Recognizer, photo []byte) (*Bank, error) {
	img, factor, err := decodeReduced(photo, reducedMinSide)
	defer img.Close()
	if err != nil {
		return nil, err
	}
	if img.Channels() != 3 || img.Cols() < 8 || img.Rows() < 8 {
		return nil, fmt.Errorf("%w: the image is too small", ErrNotAPhoto)
	}
	bank, err := calibrateView(rec, img, factor)
	inv := invertLightness(img)
	defer inv.Close()
	dark, darkErr := calibrateView(rec, inv, factor)
	switch {
	case darkErr != nil && err != nil:
		return nil, err // the photo's own error says what is wrong with it
	case darkErr == nil && (err != nil || readsBetter(dark, bank)):
		dark.Inverted = true
		bank = dark
	}
	if gridHead {
		if err := bank.Fit(rec); err != nil {
			return nil, err
		}
	}
	return bank, bank.validate()
}

// readsBetter says whether the network reads bank a's templates better
// than b's: more of them right, or as many right and more surely.
func readsBetter(a, b *Bank) bool {
	ra, rb := networkRight(a), networkRight(b)
	return ra > rb || ra == rb && networkSure(a) > networkSure(b)
}

// networkSure sums how surely the network read the bank's templates,
// right or wrong: between two views of a set it cannot read (the egypt
// grid: 5 of 46 right either way), the one it reads more surely (22.0
// against 18.6) is the way its tiles face.
func networkSure(b *Bank) float64 {
	s := 0.0
	for _, t := range b.Templates {
		s += t.Confidence
	}
	return s
}

// networkRight counts the bank's templates the network read as their code.
func networkRight(b *Bank) int {
	n := 0
	for _, t := range b.Templates {
		if t.Network == t.Code {
			n++
		}
	}
	return n
}

// calibrateView is Calibrate on one view of the decoded photo, factor
// times smaller than the photo, short of fitting the head.
func calibrateView(rec *Recognizer, img gocv.Mat, factor int) (*Bank, error) {
	boxes, reads, err := rec.forSet().findAndRead(context.Background(), img)
	if err != nil {
		return nil, err
	}
	// Weak boxes of the table's colour, or with no tile face, are left
	// out as recognition leaves them: a grid with a tile taken off must
	// say so, and the bare patch where it lay is boxed weakly (and read as
	// a tile by the S11 classifier, TestCalibrateBadLayout).
	boxes, reads = dropTable(img, boxes, reads)
	boxes, reads = dropFaceless(img, boxes, reads)
	boxes, reads = dropWeak(boxes, reads)
	// The grid's only back is the optional one at the end of row 6, and a
	// bare back is rarely found with confidence: a box the detector is
	// unsure of that reads as a back is taken for a plain patch of table
	// (the egypt grid's wood reads 0z at 93%).
	boxes, reads = keep(boxes, reads, func(b box, rd reading) bool {
		return b.score >= weakBox || rd.labels[0] != "0z"
	})
	tiles := make([]TileSeen, len(boxes))
	idx := make([]int, len(boxes))
	for i, b := range boxes {
		tiles[i].Box = [4]int{int(b.x0 + 0.5), int(b.y0 + 0.5), int(b.x1 + 0.5), int(b.y1 + 0.5)}
		idx[i] = i
	}
	if len(tiles) == 0 {
		return nil, fmt.Errorf("%w: no tiles found in the photo\n%s", ErrBadGrid, GridUsage)
	}
	if turnedQuarter(tiles) {
		return nil, fmt.Errorf("%w: most tiles lie sideways; stand them upright (or turn the photo a quarter)\n%s", ErrBadGrid, GridUsage)
	}
	// The rows are the layout step's rows, each read left to right; a grid
	// photographed at a slant is levelled first, as a hand is (levelled).
	placed := tiles
	if lev, ok := levelled(tiles); ok {
		placed = lev
	}
	short := medianShortSide(placed)
	rows := rowsOf(placed, idx, short)
	for _, row := range rows {
		sortLeftToRight(placed, row)
	}
	codes, err := gridCodes(rows)
	if err != nil {
		return nil, err
	}
	// A tile read surely as a blank face where the grid has a face is a
	// gap: the bare table where a tile is missing (a detector that finds
	// rows of backs boxes such a patch too), or a tile lying face down.
	for r, row := range rows {
		for k, i := range row {
			if i >= len(reads) {
				continue
			}
			if rd := reads[i]; len(rd.labels) > 0 && blankFace(rd.labels[0]) && rd.probs[0] >= sureBack && !blankFace(codes[r][k]) {
				return nil, fmt.Errorf("%w: row %d, tile %d (where %s goes) looks blank: a tile is missing there, or lies face down; lay the tiles out again as documented and take a new photo\n%s",
					ErrBadGrid, r+1, k+1, codes[r][k], GridUsage)
			}
		}
	}
	bank := &Bank{Format: BankFormat, Version: BankVersion, Width: bankWidth, Height: bankHeight}
	for r, row := range rows {
		for k, i := range row {
			c := cutTurned(img, boxes[i], 0, bankWidth, bankHeight, rec.cls.Preprocess)
			if c.Empty() || c.Type() != gocv.MatTypeCV8UC3 {
				c.Close()
				return nil, fmt.Errorf("%w: tile %s (row %d, tile %d) is too small to cut out; take the photo closer", ErrBadGrid, codes[r][k], r+1, k+1)
			}
			t := Template{Code: codes[r][k], Box: scaleBox(tiles[i].Box, factor), BGR: c.ToBytes(), Side: shortSide(boxes[i])}
			c.Close()
			if len(reads) == len(boxes) && len(reads[i].labels) > 0 {
				t.Network, t.Confidence = reads[i].labels[0], round3(reads[i].probs[0])
			}
			bank.Templates = append(bank.Templates, t)
		}
	}
	if gridHead {
		var cut []box
		for r, row := range rows {
			for k, i := range row {
				if bank.addExample(img, boxes[i], codes[r][k], "grid", rec.cls.Preprocess) {
					cut = append(cut, boxes[i])
				}
			}
		}
		bank.addBackground(img, cut, len(cut)/3, "grid", rec.cls.Preprocess)
		bank.Taught = nil // the grid is not a photo evaluation would meet
	}
	return bank, nil
}

// gridHead: a calibration grid also teaches the set's head (teach.go).
var gridHead = true

// scaleBox takes a box in a photo decoded at reduced size back to the
// pixels of the full photo.
func scaleBox(b [4]int, factor int) [4]int {
	return [4]int{b[0] * factor, b[1] * factor, b[2] * factor, b[3] * factor}
}

func sortLeftToRight(tiles []TileSeen, row []int) {
	for a := 1; a < len(row); a++ {
		for b := a; b > 0 && tiles[row[b]].Box[0]+tiles[row[b]].Box[2] < tiles[row[b-1]].Box[0]+tiles[row[b-1]].Box[2]; b-- {
			row[b], row[b-1] = row[b-1], row[b]
		}
	}
}

// gridCodes names the tiles of rows found in a calibration photo, or says
// which row does not hold what the grid wants there.
func gridCodes(rows [][]int) ([][]string, error) {
	counts := make([]string, len(rows))
	for i, r := range rows {
		counts[i] = fmt.Sprint(len(r))
	}
	found := fmt.Sprintf("found %d rows holding %s tiles", len(rows), strings.Join(counts, ", "))
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s (%s); lay the tiles out again as documented and take a new photo\n%s",
			ErrBadGrid, fmt.Sprintf(format, a...), found, GridUsage)
	}
	// Each row found takes the next grid row that can hold its count;
	// optional rows may be skipped, required ones not.
	var codes [][]string
	g := 0
	for i, r := range rows {
		var c []string
		h := g
		for ; h < len(GridRows) && c == nil; h++ {
			c = rowFits(h, len(r))
			if c == nil && h < requiredRows {
				break
			}
		}
		if c == nil {
			switch {
			case g >= len(GridRows):
				return nil, bad("row %d is one row too many: the grid has at most %d rows", i+1, len(GridRows))
			case g < requiredRows:
				return nil, bad("row %d has %d tiles, expected %s", i+1, len(r), rowWants(g))
			}
			var left []string
			for k := g; k < len(GridRows); k++ {
				left = append(left, rowWants(k))
			}
			return nil, bad("row %d has %d tiles, expected one of the optional rows left: %s", i+1, len(r), strings.Join(left, "; "))
		}
		codes = append(codes, c)
		g = h
	}
	if len(rows) < requiredRows {
		return nil, bad("only %d rows; the first %d rows (characters, circles, bamboos, honours) are required", len(rows), requiredRows)
	}
	return codes, nil
}

// WithBank returns a recogniser that reads with the bank's templates as
// well as the network. It shares r's networks and workers: close one of
// the two, once. A head fitted on another classifier's features is fitted
// again from the tiles the bank keeps (see New); a bank that keeps none is
// read without its head (the service refuses a set taught with other
// models that keeps no tiles before it gets here: api.useTileSet). A set
// the shipped models already read (Bank.Known) is read as they read it.
func (r *Recognizer) WithBank(b *Bank) *Recognizer {
	c := *r
	if f, err := b.fittedFor(r); err == nil {
		b = f
	} else {
		nb := *b
		nb.Head = nil
		b = &nb
	}
	c.useBank(b)
	return &c
}

// forReading is b without the tiles it keeps (up to 17 MB of cuts):
// reading needs its head, templates, outline and view, and a recogniser
// keeps a bank as long as it reads with it. The tiles are for teaching
// (Teach, Fit), which is given the bank itself.
func (b *Bank) forReading() *Bank {
	if b == nil || len(b.Examples) == 0 {
		return b
	}
	c := *b
	c.Examples = nil
	return &c
}

// ErrOutdatedBank says a taught set's head was fitted on the features of
// a classifier this mjscan does not ship, and the set keeps no tiles to
// fit it again from.
var ErrOutdatedBank = errors.New("the tile set was taught with other models than this mjscan reads with")

// fittedFor gives a bank whose head reads r's classifier's features: b
// itself when its head was fitted on them (or names no classifier: banks
// before version 4, all taught with the classifier that first gave
// features), otherwise a copy whose head is fitted again from the tiles b
// keeps. Features of another network mean nothing to a head: read with
// one, it reads noise.
func (b *Bank) fittedFor(r *Recognizer) (*Bank, error) {
	if b == nil || b.Head == nil {
		return b, nil
	}
	sameSize := r.cls.Features != nil && b.Head.Dim == r.cls.Features.Size
	if sameSize && (b.Head.Features == "" || b.Head.Features == r.features()) {
		return b, nil
	}
	if b.Tiles() == 0 {
		return nil, fmt.Errorf("%w (its head reads %s, this mjscan %s) and it keeps no tiles to learn from again: teach the set again (mjscan calibrate)", ErrOutdatedBank, b.Head.Features, r.features())
	}
	c := *b
	c.Head = nil
	c.Version = BankVersion
	c.prep = nil
	if err := c.Fit(r); err != nil {
		return nil, err
	}
	return &c, nil
}

// Save writes the bank as gzip'd JSON.
func (b *Bank) Save(w io.Writer) error {
	if err := b.validate(); err != nil {
		return err
	}
	z := gzip.NewWriter(w)
	if err := json.NewEncoder(z).Encode(b); err != nil {
		return err
	}
	return z.Close()
}

// WriteFile saves the bank to a file.
func (b *Bank) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := b.Save(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// LoadBank reads a bank written by Save and checks every field.
func LoadBank(r io.Reader) (*Bank, error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, errors.New("not a template bank: the file is not gzip'd (make one with mjscan calibrate)")
	}
	data, err := io.ReadAll(io.LimitReader(z, maxBankBytes+1))
	if err != nil {
		return nil, fmt.Errorf("template bank damaged: %v", err)
	}
	if len(data) > maxBankBytes {
		return nil, fmt.Errorf("template bank larger than %d MB", maxBankBytes>>20)
	}
	var b Bank
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("template bank damaged: %v", err)
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	// A bank taught before the head kept its trust trusts every code. Its
	// examples say how sharp each code was taught, so the trust is
	// measured from them as Fit measures it (for a bank that trusts every
	// code the measure gives nil again).
	if b.Head != nil && b.Head.Trust == nil {
		b.Head.Trust = b.trust(b.Head.Codes)
	}
	return &b, nil
}

// ReadBankFile loads a bank from a file.
func ReadBankFile(path string) (*Bank, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := LoadBank(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

func (b *Bank) validate() error {
	switch {
	case b.Format != BankFormat:
		return fmt.Errorf("not a template bank: format %q, want %q", b.Format, BankFormat)
	case b.Version < 1 || b.Version > BankVersion:
		return fmt.Errorf("template bank version %d; this mjscan reads versions 1 to %d", b.Version, BankVersion)
	case b.Width < 2*bankShift+8 || b.Height < 2*bankShift+8 || b.Width > 256 || b.Height > 256:
		return fmt.Errorf("template bank: templates of %d×%d pixels; want %d to 256 a side", b.Width, b.Height, 2*bankShift+8)
	}
	seen := map[string]bool{}
	for i, t := range b.Templates {
		if ts, err := scoring.ParseTiles(t.Code); err != nil || len(ts) != 1 {
			return fmt.Errorf("template bank: template %d has code %q, not a tile code", i+1, t.Code)
		}
		if seen[t.Code] {
			return fmt.Errorf("template bank: two templates for %s", t.Code)
		}
		seen[t.Code] = true
		if len(t.BGR) != b.Width*b.Height*3 {
			return fmt.Errorf("template bank: template %s holds %d bytes, want %d×%d×3", t.Code, len(t.BGR), b.Width, b.Height)
		}
	}
	for i, e := range b.Examples {
		if e.Code != noTile && !labelCode(e.Code) {
			return fmt.Errorf("template bank: example %d has code %q, not a tile code", i+1, e.Code)
		}
		if len(e.BGR) != exampleWidth*exampleHeight*3 {
			return fmt.Errorf("template bank: example %d (%s) holds %d bytes, want %d×%d×3", i+1, e.Code, len(e.BGR), exampleWidth, exampleHeight)
		}
	}
	if err := b.Outline.validate(); err != nil {
		return err
	}
	if b.Head != nil {
		// A taught set reads with its head; its templates are extras.
		return b.Head.validate()
	}
	for _, row := range GridRows[:requiredRows] {
		for _, c := range row {
			if !seen[c] {
				return fmt.Errorf("template bank: no template for %s", c)
			}
		}
	}
	return nil
}
