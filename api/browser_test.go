//go:build browser

// The end-to-end test of the phone page in real headless Chromium. It needs
// Debian's chromium (or MJSCAN_CHROMIUM naming a Chrome binary) and runs with
//
//	go test -tags browser -run Browser ./api/
package api

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
	"mjscan/vision"
)

// steps runs browser actions one by one so a failure names the step.
func steps(t *testing.T, ctx context.Context, names []string, acts ...chromedp.Action) {
	t.Helper()
	for i, a := range acts {
		if err := chromedp.Run(ctx, a); err != nil {
			var html string
			chromedp.Run(ctx, chromedp.OuterHTML("main", &html, chromedp.ByQuery))
			t.Fatalf("step %d (%s): %v\npage: %.3000s", i, names[i], err, html)
		}
	}
}

func chromium(t *testing.T) string {
	if p := os.Getenv("MJSCAN_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium found: apt-get install chromium, or set MJSCAN_CHROMIUM")
	return ""
}

func browser(t *testing.T) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Flag("disable-gpu", true), chromedp.WindowSize(412, 915)) // a phone's viewport
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	// This chromedp predates some of the newest Chrome's event fields;
	// those events are not used here, so their decode errors are noise.
	quiet := func(format string, args ...any) {
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "could not unmarshal event") {
			t.Log(msg)
		}
	}
	ctx, cancel2 := chromedp.NewContext(actx, chromedp.WithErrorf(quiet))
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 45*time.Second)
	t.Cleanup(cancel3)
	watchCSP(t, ctx)
	return ctx
}

// watchCSP fails the test when the page's Content-Security-Policy blocked
// anything it tried to do (a script, a style, the photo's blob: URL, a
// fetch): the page must work within its own policy. The listener goes in
// before any page loads; it is DevTools' script, which the policy does not
// cover.
func watchCSP(t *testing.T, ctx context.Context) {
	const listen = `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(listen).Do(ctx)
		return err
	})); err != nil {
		t.Fatalf("watching the CSP: %v", err)
	}
	t.Cleanup(func() {
		var blocked []string
		if err := chromedp.Run(ctx, chromedp.Evaluate(`window.__csp || []`, &blocked)); err != nil {
			t.Errorf("reading CSP violations: %v", err)
			return
		}
		for _, b := range blocked {
			t.Errorf("the page's CSP blocked %s", b)
		}
	})
}

// TestBrowserPhotoFixAndScore: upload the committed photo, find the one
// misread tile (9s where the hand holds 8s), tap it, pick the right tile
// from its alternatives, fill in the situation and get the expected score.
func TestBrowserPhotoFixAndScore(t *testing.T) {
	rec := handRecognition()
	rec.Tiles[13].Tile = tileOf("9s") // misread: the winning 8s
	rec.Tiles[13].Confidence = 0.41
	rec.Tiles[13].Alternatives = []vision.Alternative{{Tile: tileOf("8s"), Confidence: 0.38}}
	fake := &fakeRecognizer{rec: rec}
	_, ts := newTestServer(t, fake, nil)
	photo, _ := filepath.Abs(filepath.Join("..", "testdata", "photos", "dev-sample.jpg"))

	ctx := browser(t)
	var total, tiles string
	steps(t, ctx, []string{"Navigate \"/\"", "WaitVisible \"#photo-on\"", "SetUploadFiles \"#photo-input\"", "WaitVisible #boxes .box[data-index=\"13\"]", "Click #boxes .box[data-index=\"13\"]", "WaitVisible \"#fixer\"", "Click #fixer-alts .tile[data-tile=\"8s\"]", "Click \"#tsumo\"", "Click \"#riichi\"", "SetValue \"#seat\"", "Click \"#score\"", "WaitVisible \"#result-total\"", "Text \"#result-total\"", "Evaluate [...document.querySelectorAll(\"#hand .tile\")].map(e => e.dataset.tile).join(\"\")"},
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#photo-on", chromedp.ByQuery),
		chromedp.SetUploadFiles("#photo-input", []string{photo}, chromedp.ByQuery),
		chromedp.WaitVisible(`#boxes .box[data-index="13"]`, chromedp.ByQuery),
		chromedp.Click(`#boxes .box[data-index="13"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#fixer", chromedp.ByQuery),
		chromedp.Click(`#fixer-alts .tile[data-tile="8s"]`, chromedp.ByQuery),
		chromedp.Click("#tsumo", chromedp.ByQuery),
		chromedp.Click("#riichi", chromedp.ByQuery),
		chromedp.SetValue("#seat", "S", chromedp.ByQuery),
		chromedp.Click("#score", chromedp.ByQuery),
		chromedp.WaitVisible("#result-total", chromedp.ByQuery),
		chromedp.Text("#result-total", &total, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll("#hand .tile")].map(e => e.dataset.tile).join("")`, &tiles),
	)
	if total != "5200 points" {
		t.Errorf("score shown %q, want 5200 points", total)
	}
	if !strings.HasSuffix(tiles, "8s") || strings.Contains(tiles, "9s") {
		t.Errorf("hand after the fix %q", tiles)
	}
	if fake.calls.Load() < 1 {
		t.Error("the photo never reached the recogniser")
	}
}

// TestBrowserWinningTileSetApart: the photo shows thirteen tiles and the
// winning 8s set apart, the way players lay a won hand out, and one tile
// of the thirteen misread. After the fix the page shows the hand the
// service builds, the 8s in it as the winning tile, and scores it. (The
// page used to group the tiles itself and drop the tile set apart.)
func TestBrowserWinningTileSetApart(t *testing.T) {
	rec := handRecognition()
	rec.Groups = []vision.Group{{Kind: "hand", Tiles: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, {Kind: "win", Tiles: []int{13}}}
	rec.Tiles[13].Box = [4]int{1350, 100, 1440, 230}
	rec.Tiles[0].Tile = tileOf("1m") // misread: the 2m
	rec.Tiles[0].Alternatives = []vision.Alternative{{Tile: tileOf("2m"), Confidence: 0.3}}
	rec.Width, rec.Hand = 1450, nil
	_, ts := newTestServer(t, &fakeRecognizer{rec: rec}, nil)
	photo, _ := filepath.Abs(filepath.Join("..", "testdata", "photos", "dev-sample.jpg"))

	ctx := browser(t)
	var total, tiles, win string
	steps(t, ctx, []string{"Navigate \"/\"", "WaitVisible \"#photo-on\"", "SetUploadFiles \"#photo-input\"", "WaitVisible #hand .tile.win", "Click #boxes .box[data-index=\"0\"]", "WaitVisible \"#fixer\"", "Click #fixer-alts 2m", "WaitVisible #hand .tile[data-tile=\"2m\"]", "Click \"#tsumo\"", "Click \"#riichi\"", "SetValue \"#seat\"", "Click \"#score\"", "WaitVisible \"#result-total\"", "Text \"#result-total\"", "read the hand"},
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#photo-on", chromedp.ByQuery),
		chromedp.SetUploadFiles("#photo-input", []string{photo}, chromedp.ByQuery),
		chromedp.WaitVisible(`#hand .tile.win`, chromedp.ByQuery),
		chromedp.Click(`#boxes .box[data-index="0"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#fixer", chromedp.ByQuery),
		chromedp.Click(`#fixer-alts .tile[data-tile="2m"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#hand .tile[data-tile="2m"]`, chromedp.ByQuery),
		chromedp.Click("#tsumo", chromedp.ByQuery),
		chromedp.Click("#riichi", chromedp.ByQuery),
		chromedp.SetValue("#seat", "S", chromedp.ByQuery),
		chromedp.Click("#score", chromedp.ByQuery),
		chromedp.WaitVisible("#result-total", chromedp.ByQuery),
		chromedp.Text("#result-total", &total, chromedp.ByQuery),
		chromedp.Evaluate(`[[...document.querySelectorAll("#hand .tile")].map(e => e.dataset.tile).join(""), (document.querySelector("#hand .tile.win") || {dataset: {}}).dataset.tile || ""]`, &[]*string{&tiles, &win}),
	)
	if total != "5200 points" {
		t.Errorf("score shown %q, want 5200 points", total)
	}
	if tiles != "2m3m4m3p4p5p4s5s6s6s7s5p5p8s" || win != "8s" {
		t.Errorf("hand shown %q, winning tile %q; want the 8s set apart in it, as the winning tile", tiles, win)
	}
}

// TestBrowserNotationEntry: no photo, the hand typed in MPSZ.
func TestBrowserNotationEntry(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	ctx := browser(t)
	var total, off, fu string
	steps(t, ctx, []string{"Navigate \"/\"", "WaitVisible \"#tiles-panel\"", "read #photo-off", "SendKeys \"#notation\"", "WaitVisible #hand .tile.win[data-tile=\"8s\"]", "Click \"#tsumo\"", "Click \"#riichi\"", "SetValue \"#seat\"", "Click \"#score\"", "WaitVisible \"#result-total\"", "Text \"#result-total\"", "Text \"#result-summary\""},
		chromedp.Navigate(ts.URL+"/"),
		// No recogniser here: the page opens on tile entry and says why.
		chromedp.WaitVisible("#tiles-panel", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("photo-off").textContent`, &off),
		chromedp.SendKeys("#notation", "234m345p55p456s678s", chromedp.ByQuery),
		chromedp.WaitVisible(`#hand .tile.win[data-tile="8s"]`, chromedp.ByQuery),
		chromedp.Click("#tsumo", chromedp.ByQuery),
		chromedp.Click("#riichi", chromedp.ByQuery),
		chromedp.SetValue("#seat", "S", chromedp.ByQuery),
		chromedp.Click("#score", chromedp.ByQuery),
		chromedp.WaitVisible("#result-total", chromedp.ByQuery),
		chromedp.Text("#result-total", &total, chromedp.ByQuery),
		chromedp.Text("#result-summary", &fu, chromedp.ByQuery),
	)
	if total != "5200 points" || !strings.Contains(fu, "4 han 20 fu") {
		t.Errorf("shown %q / %q, want 5200 points, 4 han 20 fu", total, fu)
	}
	if !strings.Contains(off, "not available") {
		t.Errorf("photo-off note %q", off)
	}
}

// TestBrowserRealPhotoFixAndScore runs the whole path with the shipped
// models: upload the committed rack photo (read as 234678s 777z 222z 44z;
// vision's known-answer test holds the models to that), tap the 2s and
// change it to a 5s from the palette, and get the score the engine gives
// 345678s 777z 222z 44z.
func TestBrowserRealPhotoFixAndScore(t *testing.T) {
	models := shippedModels(t)
	photoPath, _ := filepath.Abs(filepath.Join("..", "testdata", "photos", "hand-017.jpg"))
	data, err := os.ReadFile(photoPath)
	if err != nil {
		t.Fatal(err)
	}
	read := models.Recognize("hand-017", data)
	fix := -1
	for i, tile := range read.Tiles {
		if tile.Tile == tileOf("2s") {
			fix = i
		}
	}
	if fix < 0 {
		t.Fatalf("the models read no 2s in hand-017: %+v", read.Hand)
	}
	want := scoring.Request{Rules: "riichi", Hand: "345678s77722244z", WinTile: "4z", Tsumo: true, SeatWind: "S", RoundWind: "E"}
	res := rulebook.Score(&want)
	if !res.OK {
		t.Fatalf("the corrected hand does not score: %+v", res.Error)
	}
	wantTotal := fmt.Sprintf("%d points", res.Points.Total)

	_, ts := newTestServer(t, shippedRecognizer{models}, nil)
	ctx := browser(t)
	box := fmt.Sprintf(`#boxes .box[data-index="%d"]`, fix)
	var total string
	steps(t, ctx, []string{"Navigate \"/\"", "WaitVisible \"#photo-on\"", "SetUploadFiles \"#photo-input\"", "WaitVisible " + box, "Click " + box, "WaitVisible \"#fixer\"", "Click #fixer-palette 5s", "Click \"#tsumo\"", "SetValue \"#seat\"", "Click \"#score\"", "WaitVisible \"#result-total\"", "Text \"#result-total\""},
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible("#photo-on", chromedp.ByQuery),
		chromedp.SetUploadFiles("#photo-input", []string{photoPath}, chromedp.ByQuery),
		chromedp.WaitVisible(box, chromedp.ByQuery),
		chromedp.Click(box, chromedp.ByQuery),
		chromedp.WaitVisible("#fixer", chromedp.ByQuery),
		chromedp.Click(`#fixer-palette .tile[data-tile="5s"]`, chromedp.ByQuery),
		chromedp.Click("#tsumo", chromedp.ByQuery),
		chromedp.SetValue("#seat", "S", chromedp.ByQuery),
		chromedp.Click("#score", chromedp.ByQuery),
		chromedp.WaitVisible("#result-total", chromedp.ByQuery),
		chromedp.Text("#result-total", &total, chromedp.ByQuery),
	)
	if total != wantTotal {
		t.Errorf("score shown %q, want %q", total, wantTotal)
	}
}
