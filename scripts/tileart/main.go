// Command tileart draws the tile faces FluffyStuff's riichi art has not:
// flowers and seasons (1f–8f), Vietnamese kings and queens (1k–8k) and
// jokers (1j–8j), and the American joker (9j), in the same manner as the
// honour tiles there: one big coloured character, face only, on a 300×400
// canvas the page lays over the tile's front (api/web/tiles/front.svg). The
// characters and digits are written as outlines, so the pictures need no
// font on the player's device.
//
//	cd scripts/tileart && go run . [-cjk FONT] [-latin FONT] [-out DIR]
//
// The outlines come from Noto Serif CJK Bold and DejaVu Sans Bold (both
// free to embed; see api/web/tiles/LICENSE.md).
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// face is one tile's drawing: a big character, a corner number, and a
// small line of Latin text under the character.
type face struct {
	code   string
	big    string
	colour string
	corner string // a digit in the top left corner
	under  string // Latin text under the character
}

func faces() []face {
	var out []face
	flowers := []string{"梅", "蘭", "菊", "竹"}
	seasons := []string{"春", "夏", "秋", "冬"}
	for i := 0; i < 4; i++ {
		out = append(out,
			face{code: fmt.Sprintf("%df", i+1), big: flowers[i], colour: "#b5261e", corner: fmt.Sprint(i + 1)},
			face{code: fmt.Sprintf("%df", i+5), big: seasons[i], colour: "#1f6e2c", corner: fmt.Sprint(i + 1)},
			face{code: fmt.Sprintf("%dk", i+1), big: "王", colour: "#7a4b00", corner: fmt.Sprint(i + 1), under: "KING"},
			face{code: fmt.Sprintf("%dk", i+5), big: "后", colour: "#7b2a78", corner: fmt.Sprint(i + 1), under: "QUEEN"},
		)
	}
	// Vietnamese jokers in the CONTRACT's order: emperor, dots, bamboo,
	// characters, suited, wind, dragon, flower.
	for i, c := range []string{"帝", "筒", "索", "萬", "色", "風", "龍", "花"} {
		out = append(out, face{code: fmt.Sprintf("%dj", i+1), big: c, colour: "#1c3f94", under: "JOKER"})
	}
	out = append(out, face{code: "9j", big: "★", colour: "#b5261e", under: "JOKER"})
	return out
}

type outline struct {
	f   *sfnt.Font
	buf sfnt.Buffer
}

func load(path, family string) (*outline, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := sfnt.ParseCollection(b)
	if err != nil {
		return nil, err
	}
	var first *sfnt.Font
	for i := 0; i < c.NumFonts(); i++ {
		f, err := c.Font(i)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = f
		}
		if family == "" {
			break
		}
		if name, err := f.Name(nil, sfnt.NameIDFamily); err == nil && strings.Contains(name, family) {
			return &outline{f: f}, nil
		}
	}
	return &outline{f: first}, nil
}

// path writes text as one SVG path fitted into the box (x, y, w, h),
// centred, keeping its proportions.
func (o *outline) path(text string, x, y, w, h float64) (string, error) {
	const ppem = 1000
	type seg struct {
		op  sfnt.SegmentOp
		pts [3][2]float64
	}
	var segs []seg
	pen := 0.0
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, r := range text {
		gi, err := o.f.GlyphIndex(&o.buf, r)
		if err != nil || gi == 0 {
			return "", fmt.Errorf("no glyph for %q", r)
		}
		ss, err := o.f.LoadGlyph(&o.buf, gi, fixed.I(ppem), nil)
		if err != nil {
			return "", err
		}
		for _, s := range ss {
			var p seg
			p.op = s.Op
			n := map[sfnt.SegmentOp]int{sfnt.SegmentOpMoveTo: 1, sfnt.SegmentOpLineTo: 1, sfnt.SegmentOpQuadTo: 2, sfnt.SegmentOpCubeTo: 3}[s.Op]
			for k := 0; k < n; k++ {
				px, py := pen+float64(s.Args[k].X)/64, float64(s.Args[k].Y)/64
				p.pts[k] = [2]float64{px, py}
				minX, maxX = math.Min(minX, px), math.Max(maxX, px)
				minY, maxY = math.Min(minY, py), math.Max(maxY, py)
			}
			segs = append(segs, p)
		}
		adv, err := o.f.GlyphAdvance(&o.buf, gi, fixed.I(ppem), font.HintingNone)
		if err != nil {
			return "", err
		}
		pen += float64(adv) / 64
	}
	scale := math.Min(w/(maxX-minX), h/(maxY-minY))
	ox := x + (w-(maxX-minX)*scale)/2 - minX*scale
	oy := y + (h-(maxY-minY)*scale)/2 - minY*scale
	var b strings.Builder
	letters := map[sfnt.SegmentOp]string{sfnt.SegmentOpMoveTo: "M", sfnt.SegmentOpLineTo: "L", sfnt.SegmentOpQuadTo: "Q", sfnt.SegmentOpCubeTo: "C"}
	for _, s := range segs {
		if s.op == sfnt.SegmentOpMoveTo && b.Len() > 0 {
			b.WriteString("Z")
		}
		b.WriteString(letters[s.op])
		n := map[sfnt.SegmentOp]int{sfnt.SegmentOpMoveTo: 1, sfnt.SegmentOpLineTo: 1, sfnt.SegmentOpQuadTo: 2, sfnt.SegmentOpCubeTo: 3}[s.op]
		for k := 0; k < n; k++ {
			if k > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%.1f %.1f", ox+s.pts[k][0]*scale, oy+s.pts[k][1]*scale)
		}
	}
	b.WriteString("Z")
	return b.String(), nil
}

func main() {
	cjk := flag.String("cjk", "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", "a CJK font (TrueType or OpenType, or a collection)")
	latin := flag.String("latin", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "a Latin font for digits and words")
	out := flag.String("out", filepath.Join("..", "..", "api", "web", "tiles"), "where the SVGs go")
	flag.Parse()
	han, err := load(*cjk, "CJK TC")
	if err != nil {
		log.Fatal(err)
	}
	lat, err := load(*latin, "")
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range faces() {
		var body strings.Builder
		bigY, bigH := 70.0, 250.0
		if f.under != "" {
			bigY, bigH = 50.0, 220.0
		}
		o := han
		if f.big == "★" {
			o = lat
		}
		bigX, bigW := 45.0, 210.0
		if f.corner != "" {
			bigX, bigW = 64.0, 186.0 // clear of the corner number
		}
		d, err := o.path(f.big, bigX, bigY, bigW, bigH)
		if err != nil {
			log.Fatalf("%s: %v", f.code, err)
		}
		fmt.Fprintf(&body, `<path fill="%s" d="%s"/>`, f.colour, d)
		if f.corner != "" {
			d, err := lat.path(f.corner, 16, 16, 36, 44)
			if err != nil {
				log.Fatalf("%s: %v", f.code, err)
			}
			fmt.Fprintf(&body, `<path fill="#1c3f94" d="%s"/>`, d)
		}
		if f.under != "" {
			d, err := lat.path(f.under, 50, 300, 200, 52)
			if err != nil {
				log.Fatalf("%s: %v", f.code, err)
			}
			fmt.Fprintf(&body, `<path fill="%s" d="%s"/>`, f.colour, d)
		}
		svg := `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400" viewBox="0 0 300 400">` + body.String() + "</svg>\n"
		if err := os.WriteFile(filepath.Join(*out, f.code+".svg"), []byte(svg), 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Println(f.code, len(svg))
	}
}
