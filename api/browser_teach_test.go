//go:build browser

package api

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"mjscan/referee"
	"mjscan/vision"
)

// teachingRecognizer reads the photos it is given as a fake does, learns
// a tile set from the labels the page sends (kept, so a test checks what
// the player taught), and reads with a set by answering, for each tile
// whose box it was taught, the code it was taught there.
type teachingRecognizer struct {
	fakeRecognizer
	mu     sync.Mutex
	taught [][]vision.Labelled // each photo's labels, in the order taught
	// blurred are codes it finds blurred while it has only one example
	// of them: their trust is 0 (vision.Bank.Blurred names them).
	blurred map[string]bool
	// knownFrom: a set taught from this many photos or more is one it
	// already reads (vision.Bank.Known); 0 for never.
	knownFrom int
}

func (r *teachingRecognizer) TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error) {
	b := &vision.Bank{Format: vision.BankFormat, Version: vision.BankVersion, Width: 24, Height: 32}
	if base != nil {
		b.Examples, b.Taught = append(b.Examples, base.Examples...), append(b.Taught, base.Taught...)
	}
	r.mu.Lock()
	for _, p := range photos {
		r.taught = append(r.taught, p.Labels)
		for _, l := range p.Labels {
			b.Examples = append(b.Examples, vision.Example{Code: l.Tile, BGR: make([]byte, 60*80*3), Photo: p.Name})
		}
		b.Taught = append(b.Taught, p.Name)
	}
	r.mu.Unlock()
	examples := map[string]int{}
	for _, e := range b.Examples {
		examples[e.Code]++
	}
	h := &vision.Head{Dim: 1, Scale: 1}
	for c := range examples {
		h.Codes = append(h.Codes, c)
		h.W, h.B = append(h.W, 0), append(h.B, 0)
	}
	sort.Strings(h.Codes)
	for _, c := range h.Codes {
		h.Trust = append(h.Trust, 1)
		if r.blurred[c] && examples[c] == 1 {
			h.Trust[len(h.Trust)-1] = 0
		}
	}
	if r.knownFrom > 0 && len(b.Taught) >= r.knownFrom {
		h.Prior, h.Tiles = 1, 60
	}
	b.Head = h
	return b, nil
}

func (r *teachingRecognizer) WithSet(b *vision.Bank) Recognizer { return setRecognizer{r} }

func (r *teachingRecognizer) labels() [][]vision.Labelled {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]vision.Labelled(nil), r.taught...)
}

type setRecognizer struct{ r *teachingRecognizer }

func (s setRecognizer) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	rec, err := s.r.fakeRecognizer.Recognize(ctx, photo)
	if err != nil {
		return nil, err
	}
	out := *rec
	out.Tiles = append([]vision.TileSeen(nil), rec.Tiles...)
	for _, photo := range s.r.labels() {
		for _, l := range photo {
			for i, t := range out.Tiles {
				if [4]float64{float64(t.Box[0]), float64(t.Box[1]), float64(t.Box[2]), float64(t.Box[3])} == l.Box {
					out.Tiles[i].Tile, out.Tiles[i].Confidence, out.Tiles[i].Alternatives = tileOf(l.Tile), 0.99, nil
				}
			}
		}
	}
	return &out, nil
}

// gridRecognition is a calibration grid's four required rows as a reader
// finds them: boxes in no particular order, each read (wrongly, for some)
// with its own code; the page must lay them out by position.
func gridRecognition() (vision.Recognition, []string) {
	rec := vision.Recognition{OK: true, Width: 640, Height: 640}
	var want []string
	for r, row := range vision.GridRows[:4] {
		for k, code := range row {
			want = append(want, code)
			box := [4]int{10 + k*60, 40 + r*110 + k%2*6, 60 + k*60, 110 + r*110 + k%2*6} // a slightly uneven row
			read := code
			if k == 4 {
				read = "9p" // misread: the grid's place says what it is
			}
			rec.Tiles = append(rec.Tiles, vision.TileSeen{Tile: tileOf(read), Box: box, Confidence: 0.8})
		}
	}
	// Shuffle by a fixed rule: the page may not rely on the reader's order.
	sort.Slice(rec.Tiles, func(i, j int) bool {
		return (rec.Tiles[i].Box[0]*7+rec.Tiles[i].Box[1])%97 < (rec.Tiles[j].Box[0]*7+rec.Tiles[j].Box[1])%97
	})
	return rec, want
}

// TestBrowserTeachMyTiles: a photo with a tile misread; the player fixes
// it and scores the hand; the page offers to remember those tiles, and the
// set is taught from the photo sent and the tiles as confirmed (the fixed
// 6s at its box). The next photo is read with the set, which the page
// names, and the tile comes out right; a grid photo then grows the set,
// its tiles labelled by their place in the grid.
func TestBrowserTeachMyTiles(t *testing.T) {
	rec := hand017()
	rec.Tiles[3].Tile, rec.Tiles[3].Confidence = tileOf("9s"), 0.45 // the 6s, misread
	rec.Tiles[3].Alternatives = []vision.Alternative{{Tile: tileOf("6s"), Confidence: 0.31}}
	grid, gridCodes := gridRecognition()
	reader := &teachingRecognizer{fakeRecognizer: fakeRecognizer{rec: rec, byPhoto: map[string]vision.Recognition{photoBytes(t, testPhoto(t, "dev-sample.jpg")): grid}},
		blurred: map[string]bool{"6s": true}, knownFrom: 2}
	cfg := DefaultConfig()
	cfg.Workers, cfg.Queue = 2, 8
	s, err := New(cfg, Deps{Version: "test", Recognizer: reader})
	if err != nil {
		t.Fatal(err)
	}
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(t.TempDir(), "sets.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := s.UseTileSets(store, ""); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	ctx := browser(t)

	var offer, taught string
	run(t, ctx, "a photo, a tile fixed, the hand scored",
		chromedp.Navigate(ts.URL+"/"),
		visible("#photo-on"),
		chromedp.Evaluate(`localStorage.clear(), true`, nil),
		chromedp.SetUploadFiles("#photo-input", []string{testPhoto(t, "hand-017.jpg")}, chromedp.ByQuery),
		visible(`#boxes .box.low[data-index="3"]`),
		click(`#boxes .box[data-index="3"]`),
		visible(`#fixer-alts .tile[data-tile="6s"]`),
		click(`#fixer-alts .tile[data-tile="6s"]`),
		visible(`#boxes .box.fixed[data-index="3"]`),
		pageWaits(`document.getElementById("hand-check").className === "ok"`),
		click("#score"),
		visible("#result-total"),
		visible("#teach-offer"),
		text("#teach-offer-text", &offer),
	)
	if !strings.HasPrefix(offer, "Remember these 14 tiles (with the 1 you fixed) as your own tile set?") {
		t.Errorf("the offer says %q", offer)
	}
	shots(t, ctx, "teach-offer")
	axeCheck(t, ctx, "the offer to teach my tiles")
	run(t, ctx, "remember my tiles",
		chromedp.SendKeys("#teach-name", "Ben's tiles", chromedp.ByQuery),
		click("#teach-go"),
		pageWaits(`/knows/.test(document.getElementById("teach-status").textContent)`),
		text("#teach-status", &taught),
	)
	if !strings.Contains(taught, "“Ben's tiles” knows 9 kinds of tile from 1 photo (version 1). Later photos are read with it.") {
		t.Errorf("after teaching the page says %q", taught)
	}
	// The set saw the 6s only blurred, and the page asks for a sharper one.
	if !strings.Contains(taught, "It has seen 6 bamboo only blurred: remember a sharper photo of that tile, and it will read it better.") {
		t.Errorf("the page does not ask for a sharper 6s: %q", taught)
	}
	shots(t, ctx, "teach-taught")
	var asks []string
	run(t, ctx, "the words for more blurred codes", chromedp.Evaluate(`[teach.blurredWords([]),
	  teach.blurredWords(["1m", "2p"]), teach.blurredWords(["1m", "2m", "3m", "4m", "5m", "6m", "7m"])]`, &asks))
	if len(asks) != 3 || asks[0] != "" ||
		asks[1] != " It has seen 1 characters and 2 dots only blurred: remember a sharper photo of those tiles, and it will read them better." ||
		!strings.Contains(asks[2], "5 characters and 2 more kinds only blurred") {
		t.Errorf("the words for blurred codes: %q", asks)
	}
	labels := reader.labels()
	if len(labels) != 1 || len(labels[0]) != 14 {
		t.Fatalf("taught %v: want the photo's 14 tiles", labels)
	}
	var fixed bool
	for _, l := range labels[0] {
		if l.Box == [4]float64{144, 349, 181, 418} {
			fixed = l.Tile == "6s"
		}
	}
	if !fixed {
		t.Errorf("the misread tile was not taught as the 6s the player confirmed: %v", labels[0])
	}

	var read string
	run(t, ctx, "a later photo is read with the set",
		chromedp.SetUploadFiles("#photo-input", []string{testPhoto(t, "hand-017.jpg")}, chromedp.ByQuery),
		visible("#teach-read"),
		visible(`#boxes .box.sure[data-index="3"]`),
		visible(`#row-hand .tile[data-tile="6s"][data-index="3"]`),
		text("#teach-read", &read),
	)
	if !strings.HasPrefix(read, "Read with your tile set “Ben's tiles” (version 1)") {
		t.Errorf("the later recognition says %q", read)
	}
	shots(t, ctx, "teach-read-with-set")

	var rows int
	var grown string
	run(t, ctx, "a grid photo grows the set",
		click("#teach-grid summary"),
		chromedp.SetUploadFiles("#teach-grid-input", []string{testPhoto(t, "dev-sample.jpg")}, chromedp.ByQuery),
		visible("#teach-grid-go"),
		count("#teach-grid-rows .grid-row", &rows),
	)
	if rows != 4 {
		t.Errorf("the grid photo shows %d rows, want 4", rows)
	}
	shots(t, ctx, "teach-grid")
	axeCheck(t, ctx, "a grid photo read")
	run(t, ctx, "teach the grid",
		click("#teach-grid-go"),
		pageWaits(`/version 2/.test(document.getElementById("teach-status").textContent)`),
		text("#teach-status", &grown),
	)
	labels = reader.labels()
	if len(labels) != 2 || len(labels[1]) != len(gridCodes) {
		t.Fatalf("the grid taught %d photos, the last with %d labels: want %d", len(labels), len(labels[len(labels)-1]), len(gridCodes))
	}
	for _, l := range labels[1] {
		col, row := int(l.Box[0]-10)/60, int(l.Box[1]-40)/110
		if want := vision.GridRows[row][col]; l.Tile != want {
			t.Errorf("the grid tile at row %d, column %d was taught as %s, want %s", row+1, col+1, l.Tile, want)
		}
	}
	// The reader reads the set of two photos already (known): the page
	// says photos are read as before.
	if !strings.Contains(grown, "knows 34 kinds of tile from 2 photos (version 2). The service already reads these tiles well, so later photos are read as before; your set is kept.") ||
		strings.Contains(grown, "blurred") {
		t.Errorf("after the grid (a second, sharp 6s; the set now known) the page says %q", grown)
	}
	shots(t, ctx, "teach-known")

	// The grid's optional rows, as the service's calibration grid has
	// them: flowers, the red fives without the back, the American joker
	// alone; a row that fits no grid row is refused in words.
	var layouts []string
	run(t, ctx, "the grid's optional rows", chromedp.Evaluate(`(() => {
	  const grid = (counts) => { const tiles = []; counts.forEach((n, r) => { for (let k = 0; k < n; k++) tiles.push({box: [k * 60, r * 100, k * 60 + 50, r * 100 + 70]}); });
	    const g = teach.gridLabels(tiles); return g.error || g.rows.map((r) => r.join(" ")).join(" | "); };
	  return [grid([9, 9, 9, 7, 8, 3, 1]), grid([9, 9, 9, 7, 5]), grid([9, 9, 7])];
	})()`, &layouts))
	want := []string{
		"1m 2m 3m 4m 5m 6m 7m 8m 9m | 1p 2p 3p 4p 5p 6p 7p 8p 9p | 1s 2s 3s 4s 5s 6s 7s 8s 9s | 1z 2z 3z 4z 5z 6z 7z | 1f 2f 3f 4f 5f 6f 7f 8f | 0m 0p 0s | 9j",
		"Row 5 of the grid photo has 5 tiles, but the grid's next row holds 8 (1f 2f 3f 4f 5f 6f 7f 8f). Lay the rows out as shown and take the photo again.",
		"Row 3 of the grid photo has 7 tiles, but the grid's next row holds 9 (1s 2s 3s 4s 5s 6s 7s 8s 9s). Lay the rows out as shown and take the photo again.",
	}
	for i := range want {
		if i >= len(layouts) || layouts[i] != want[i] {
			t.Errorf("grid layout %d: %q, want %q", i, layouts, want[i])
		}
	}
}
