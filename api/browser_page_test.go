//go:build browser

// The player's page, issue 18 items 4, 6, 7 and 9: tap entry, the result
// as players know it, the photo shrunk and sent with progress and a cancel,
// and a journey by keyboard alone. Run with
//
//	go test -count=1 -tags browser -run Browser ./api/
package api

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
	"mjscan/vision"
)

// tap presses a tile of the entry palette.
func tap(code string) chromedp.Action {
	return click(fmt.Sprintf(`#palette .tile[data-tile=%q]`, code))
}

func value(sel string, out *string) chromedp.Action {
	return chromedp.Value(sel, out, chromedp.ByQuery)
}

// TestBrowserTapEntryWithMelds: a hand entered by taps alone. Under riichi
// the concealed tiles are tapped, a chi and a pon from across made with
// their buttons, a dora indicator picked by tapping it; the notation box
// shows what the taps built, and the score is the engine's for that hand.
// Under MCR, written in the MCR tools' brackets, a concealed kan and an
// added kan are made, the flowers tapped go to Flowers, and the score is
// the engine's again; a bracket hand typed in the box reads too. The
// palette offers jokers, kings and queens only where the rule set plays
// them.
func TestBrowserTapEntryWithMelds(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	ctx := browser(t)
	var box, meld0, meld1, dora, total string
	var jokers int
	run(t, ctx, "open the page",
		chromedp.Navigate(ts.URL+"/"),
		visible("#tiles-panel"),
		pageWaits(`document.querySelectorAll("#palette .tile").length > 30`),
		count(`#palette .tile[data-tile$="j"], #palette .tile[data-tile$="k"]`, &jokers))
	if jokers != 0 {
		t.Errorf("riichi's palette offers %d jokers, kings or queens", jokers)
	}
	run(t, ctx, "tap the concealed tiles",
		tap("2m"), tap("3m"), tap("4m"), tap("5p"), tap("5p"), tap("6s"), tap("7s"), tap("8s"),
		visible(`#row-hand .tile.win[data-tile="8s"]`))
	run(t, ctx, "a chi of 345p, a pon of red dragons from across, the 4p dora indicator",
		click(`#tap-modes [data-mode="chi"]`), tap("3p"),
		click(`#tap-modes [data-mode="pon"]`), visible("#called-from"), choose("#called-from", "across"), tap("7z"),
		click(`#tap-modes [data-mode="dora"]`), tap("4p"),
		visible("#row-meld-1"), visible(`#row-dora .tile[data-tile="4p"]`),
		value("#notation", &box), text("#row-meld-0 h3", &meld0), text("#row-meld-1 h3", &meld1), value("#dora", &dora))
	if box != "234m55p678s,3-45p,777=z" {
		t.Errorf("the notation box shows %q for the taps", box)
	}
	if !strings.Contains(meld0, "chow from left") || !strings.Contains(meld1, "pung from across") || dora != "4p" {
		t.Errorf("melds %q, %q; dora %q", meld0, meld1, dora)
	}
	shots(t, ctx, "tap-entry")
	run(t, ctx, "score it",
		click("#tsumo"), choose("#seat", "S"), click("#score"), visible("#result-total"), text("#result-total", &total))
	riichi := scoring.Request{Rules: "riichi", Hand: "234m55p678s", WinTile: "8s", Tsumo: true, SeatWind: "S", RoundWind: "E", DoraIndicators: "4p",
		Melds: []scoring.MeldSpec{{Type: "chi", Tiles: "345p", From: "left"}, {Type: "pon", Tiles: "777z", From: "across"}}}
	if w := engineTotal(t, riichi); total != w {
		t.Errorf("riichi: shown %q, the engine gives %q", total, w)
	}

	var flowers string
	run(t, ctx, "MCR in brackets: clear, then a concealed kan of East, an added kan of 9p and two flowers",
		choose("#rules", "mcr"), choose("#notation-kind", "mcr"),
		click("#clear"),
		tap("2m"), tap("3m"), tap("4m"), tap("5p"), tap("5p"), tap("6s"), tap("7s"), tap("8s"),
		click(`#tap-modes [data-mode="ankan"]`), tap("1z"),
		click(`#tap-modes [data-mode="kakan"]`), choose("#called-from", "left"), tap("9p"),
		tap("1f"), tap("2f"),
		visible(`#row-flowers .tile[data-tile="2f"]`),
		value("#notation", &box), value("#flowers", &flowers),
		count(`#palette .tile[data-tile$="j"]`, &jokers))
	if box != "[EEEE][9999p,5]234m55p678s" || flowers != "12f" {
		t.Errorf("MCR: the box shows %q, flowers %q", box, flowers)
	}
	if jokers != 0 {
		t.Errorf("MCR's palette offers %d jokers", jokers)
	}
	run(t, ctx, "score it under MCR", click("#ron"), choose("#seat", "E"), click("#score"), visible("#result-total"), text("#result-total", &total))
	mcrReq := scoring.Request{Rules: "mcr", Hand: "234m55p678s", WinTile: "8s", SeatWind: "E", RoundWind: "E", Flowers: "12f",
		Melds: []scoring.MeldSpec{{Type: "ankan", Tiles: "1111z"}, {Type: "kakan", Tiles: "9999p", From: "left"}}}
	if w := engineTotal(t, mcrReq); total != w {
		t.Errorf("MCR: shown %q, the engine gives %q", total, w)
	}
	run(t, ctx, "a bracket hand typed in the box",
		click("#clear"),
		chromedp.SendKeys("#notation", "[CCC,2]234m67s34555p8s", chromedp.ByQuery),
		visible(`#row-hand .tile.win[data-tile="8s"]`),
		text("#row-meld-0 h3", &meld0))
	if !strings.Contains(meld0, "pung from across") {
		t.Errorf("the bracket pung reads as %q", meld0)
	}
	run(t, ctx, "back to MPSZ: the box says the same hand in it",
		choose("#notation-kind", "mpsz"), value("#notation", &box))
	if box != "234m67s34555p8s,777=z" {
		t.Errorf("in MPSZ the box shows %q", box)
	}
	run(t, ctx, "Vietnamese offers kings, queens and jokers; a king tapped is a bonus tile",
		choose("#rules", "vietnamese"),
		pageWaits(`!!document.querySelector('#palette .tile[data-tile="1k"]') && !!document.querySelector('#palette .tile[data-tile="8j"]')`),
		click("#clear"), tap("1k"), value("#flowers", &flowers))
	if flowers != "1k" {
		t.Errorf("a king tapped went to flowers %q", flowers)
	}
	axeCheck(t, ctx, "tap entry")
}

// TestBrowserResultDisplay: the result as players know it, for a browser
// whose first language is Japanese. The riichi hand is drawn with its
// called tiles sideways (the chi's first, the pon-from-across's middle),
// the winning tile apart and the dora indicator as a tile; each yaku has
// its han and a line on what earns it, named in Japanese until the switch
// says English; the wait, the dealer, the self-draw split as 2000/3900 (the
// engine's payments) and each player's change of score are shown; and the
// screen has scrolled to the result.
func TestBrowserResultDisplay(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	ctx := browser(t)
	var langs []string
	run(t, ctx, "a Japanese browser",
		chromedp.ActionFunc(func(ctx context.Context) error {
			return emulation.SetUserAgentOverride("Mozilla/5.0 (Linux; Android 14) mjscan-test").WithAcceptLanguage("ja-JP,ja,en").Do(ctx)
		}),
		chromedp.Navigate(ts.URL+"/"),
		visible("#tiles-panel"),
		chromedp.Evaluate(`navigator.languages`, &langs))
	if len(langs) == 0 || !strings.HasPrefix(langs[0], "ja") {
		t.Fatalf("navigator.languages %v", langs)
	}
	var sideways []int
	var yaku, split, changes, wait, dealer, dora string
	var top float64
	run(t, ctx, "score a hand with a chi and a pon from across, self-drawn by South",
		chromedp.SendKeys("#notation", "234m55p678s,3-45p,777=z", chromedp.ByQuery),
		visible(`#row-meld-1`),
		chromedp.SendKeys("#dora", "4p", chromedp.ByQuery),
		click("#tsumo"), choose("#seat", "S"),
		chromedp.ScrollIntoView("#score", chromedp.ByQuery),
		click("#score"), visible("#result-total"),
		chromedp.Evaluate(`[...document.querySelectorAll("#result-hand .tiles.meld")].map(m => [...m.children].findIndex(c => c.classList.contains("sideways")))`, &sideways),
		text("#result-yaku", &yaku), text("#result-split", &split), text("#result-changes", &changes),
		text("#result-wait", &wait), text("#result-dealer", &dealer), text("#result-dora", &dora),
		chromedp.Evaluate(`document.getElementById("result").getBoundingClientRect().top`, &top))
	if fmt.Sprint(sideways) != "[0 1]" {
		t.Errorf("the sideways tile of each meld is at %v, want the chi's first and the pon's middle", sideways)
	}
	var n int
	run(t, ctx, "the winning tile apart, the dora indicator a tile", count(`#result-hand .win-apart .tile-pic.win[aria-label*="8"]`, &n))
	if n != 1 || !strings.Contains(dora, "Dora indicators") {
		t.Errorf("%d winning tiles set apart; dora row %q", n, dora)
	}
	if !strings.Contains(yaku, "役牌 中") || !strings.Contains(yaku, "ドラ") || !strings.Contains(yaku, "A pung of red dragons") || !strings.Contains(yaku, "3 han") {
		t.Errorf("the yaku of a Japanese browser: %q", yaku)
	}
	// The split and the changes are the engine's payments, said as players say them.
	req := scoring.Request{Rules: "riichi", Hand: "234m55p678s", WinTile: "8s", Tsumo: true, SeatWind: "S", RoundWind: "E", DoraIndicators: "4p",
		Melds: []scoring.MeldSpec{{Type: "chi", Tiles: "345p", From: "left"}, {Type: "pon", Tiles: "777z", From: "across"}}}
	pays := map[string]int{}
	res := scoreOf(t, req)
	for _, p := range res.Points.Payments {
		pays[p.From] = p.Amount
	}
	if want := fmt.Sprintf("%d/%d", pays["W"], pays["E"]); !strings.Contains(split, want) {
		t.Errorf("the split says %q, want %q", split, want)
	}
	for _, want := range []string{fmt.Sprintf("South (S), the winner+%d", res.Points.Total), fmt.Sprintf("East (E)−%d", pays["E"]), fmt.Sprintf("West (W)−%d", pays["W"])} {
		if !strings.Contains(changes, want) {
			t.Errorf("the changes of score say %q, want %q", changes, want)
		}
	}
	if !strings.Contains(wait, "two-sided") || !strings.Contains(dealer, "no, the winner is South") {
		t.Errorf("wait %q, dealer %q", wait, dealer)
	}
	if top < -1 || top > 100 {
		t.Errorf("the result's top is at %.0f px: the page did not scroll to it", top)
	}
	shots(t, ctx, "result-riichi-ja")
	run(t, ctx, "switch the names to English",
		click(`.lang-switch button[data-lang="en"]`),
		pageWaits(`document.querySelector('.lang-switch button[data-lang="en"]').getAttribute("aria-pressed") === "true"`),
		text("#result-yaku", &yaku))
	if !strings.HasPrefix(strings.TrimPrefix(yaku, "YakuHanWhat earns it"), "Chun") {
		t.Errorf("after the switch to English the yaku read %q", yaku)
	}
	axeCheck(t, ctx, "a result with its names")
	var fans string
	run(t, ctx, "MCR: the switch names the fans in Chinese",
		choose("#rules", "mcr"),
		click("#score"), visible("#result-fans"), // under MCR's 8 points: the fans are shown all the same
		click(`.lang-switch button[data-lang="local"]`),
		pageWaits(`document.querySelector('.lang-switch button[data-lang="local"]').getAttribute("aria-pressed") === "true"`),
		text("#result-fans", &fans))
	if !strings.Contains(fans, "箭刻") {
		t.Errorf("MCR's fans in Chinese: %q", fans)
	}
	shots(t, ctx, "result-mcr-zh")
}

func scoreOf(t *testing.T, req scoring.Request) scoring.Result {
	t.Helper()
	engineTotal(t, req)
	return rulebook.Score(&req)
}

// photoKeeper is a fake recogniser that keeps the last photo it was sent.
type photoKeeper struct {
	fakeRecognizer
	mu   sync.Mutex
	last []byte
}

func (p *photoKeeper) Recognize(ctx context.Context, photo []byte) (*vision.Recognition, error) {
	p.mu.Lock()
	p.last = append([]byte(nil), photo...)
	p.mu.Unlock()
	return p.fakeRecognizer.Recognize(ctx, photo)
}

func (p *photoKeeper) photo() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// phonePhoto is a phone's 4032×3024 photo, held sideways: its EXIF says to
// turn it a quarter clockwise (orientation 6), so upright it is 3024 wide
// and 4032 tall. Its pixels are noise, so it stays big as a JPEG.
func phonePhoto(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 4032, 3024))
	rng := rand.New(rand.NewSource(18))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.Intn(256))
	}
	for x := 0; x < 400; x++ { // a dark bar on the left edge, to see where it goes
		for y := 0; y < 3024; y++ {
			img.Set(x, y, color.Black)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	// APP1 "Exif": a little-endian TIFF header and one IFD entry,
	// Orientation (0x0112) = 6.
	var exif bytes.Buffer
	exif.WriteString("Exif\x00\x00II*\x00")
	binary.Write(&exif, binary.LittleEndian, uint32(8))
	binary.Write(&exif, binary.LittleEndian, uint16(1))
	binary.Write(&exif, binary.LittleEndian, []uint16{0x0112, 3})
	binary.Write(&exif, binary.LittleEndian, uint32(1))
	binary.Write(&exif, binary.LittleEndian, []uint16{6, 0})
	binary.Write(&exif, binary.LittleEndian, uint32(0))
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(exif.Len()+2))
	raw := b.Bytes()
	out := append(append(append([]byte{}, raw[:2]...), append(seg, exif.Bytes()...)...), raw[2:]...)
	p := filepath.Join(t.TempDir(), "phone.jpg")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBrowserPhotoShrinkProgressCancel: a phone's 4032×3024 photo, turned
// by its EXIF, is shrunk on the page before it is sent: the service gets a
// JPEG 1500×2000, upright. Over a slow link the progress bar shows the
// part sent, and Cancel stops the upload: the recogniser never sees it, no
// boxes or hand stay, and the page says so. The photo sent again, on a fast
// link, is read.
func TestBrowserPhotoShrinkProgressCancel(t *testing.T) {
	keeper := &photoKeeper{fakeRecognizer: fakeRecognizer{rec: hand017()}}
	_, ts := newTestServer(t, keeper, nil)
	photo := phonePhoto(t)
	ctx := browser(t)
	var progress float64
	var status string
	var boxes int
	run(t, ctx, "a slow link",
		chromedp.Navigate(ts.URL+"/"),
		visible("#photo-on"),
		network.Enable(),
		network.EmulateNetworkConditions(false, 20, 4<<20, 256<<10))
	run(t, ctx, "send the photo: the bar shows it going",
		chromedp.SetUploadFiles("#photo-input", []string{photo}, chromedp.ByQuery),
		visible("#photo-cancel"),
		pageWaits(`document.getElementById("photo-progress").value > 0`),
		chromedp.Evaluate(`document.getElementById("photo-progress").value`, &progress),
		text("#photo-status", &status))
	if progress <= 0 || progress >= 100 || !strings.Contains(status, "Sending the photo") {
		t.Errorf("while sending: progress %v, status %q", progress, status)
	}
	shots(t, ctx, "photo-sending")
	run(t, ctx, "cancel it",
		click("#photo-cancel"),
		pageWaits(`/cancelled/.test(document.getElementById("photo-status").textContent)`),
		count("#boxes .box", &boxes),
		text("#photo-status", &status))
	time.Sleep(300 * time.Millisecond)
	if keeper.calls.Load() != 0 || boxes != 0 || !strings.Contains(status, "no hand was taken") {
		t.Errorf("after Cancel: %d recognitions, %d boxes, status %q", keeper.calls.Load(), boxes, status)
	}
	run(t, ctx, "a fast link: send it again",
		network.EmulateNetworkConditions(false, 0, -1, -1),
		chromedp.SetUploadFiles("#photo-input", []string{photo}, chromedp.ByQuery),
		visible(`#boxes .box[data-index="13"]`),
		pageWaits(`document.getElementById("photo-sending").hidden`))
	sent := keeper.photo()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(sent))
	if err != nil || format != "jpeg" {
		t.Fatalf("the photo sent (%d bytes) is not a JPEG: %v", len(sent), err)
	}
	if cfg.Width != 1500 || cfg.Height != 2000 {
		t.Errorf("the photo sent is %d×%d, want 1500×2000 (shrunk, upright)", cfg.Width, cfg.Height)
	}
	// Upright, the dark bar on the sensor's left edge is along the top.
	img, err := jpeg.Decode(bytes.NewReader(sent))
	if err == nil {
		r, _, _, _ := img.At(750, 50).RGBA()
		if r>>8 > 60 {
			t.Errorf("the top of the photo sent is not the dark bar (red %d): it was not turned by its EXIF", r>>8)
		}
	}
	if st, err := os.Stat(photo); err == nil && int64(len(sent)) >= st.Size() {
		t.Errorf("the photo sent (%d bytes) is no smaller than the photo taken (%d)", len(sent), st.Size())
	}
}

// tabTo presses Tab until the focus is on sel, as a keyboard user does;
// it fails if sel is never reached.
func tabTo(sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		for i := 0; i < 400; i++ {
			var on bool
			if err := chromedp.Evaluate(fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, sel), &on).Do(ctx); err != nil {
				return err
			}
			if on {
				return nil
			}
			if err := chromedp.KeyEvent(kb.Tab).Do(ctx); err != nil {
				return err
			}
		}
		var at string
		chromedp.Evaluate(`document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : ""`, &at).Do(ctx)
		return fmt.Errorf("%s is not reached by the Tab key (the focus is on %s)", sel, at)
	})
}

func key(k string) chromedp.Action { return chromedp.KeyEvent(k) }

// TestBrowserKeyboardJourney: the whole journey with the keyboard alone.
// The photo button takes the focus; the photo's boxes are buttons with a
// name, reached by Tab, and Enter opens the fix sheet, a modal dialog that
// takes the focus and closes with Escape; a tile is fixed from the sheet;
// the tiles are then typed, the winning tile marked, the situation set,
// the hand scored and the names switched, all by keys. Every control on
// show is at least 44 px each way, every image has alt text, and axe finds
// nothing serious.
func TestBrowserKeyboardJourney(t *testing.T) {
	rec := hand017()
	rec.Tiles[3].Tile, rec.Tiles[3].Confidence = tileOf("9s"), 0.45
	rec.Tiles[3].Alternatives = []vision.Alternative{{Tile: tileOf("6s"), Confidence: 0.31}}
	_, ts := newTestServer(t, &fakeRecognizer{rec: rec}, nil)
	ctx := browser(t)
	var names []string
	var role, inDialog string
	run(t, ctx, "the photo button takes the focus",
		chromedp.Navigate(ts.URL+"/"),
		visible("#photo-on"),
		tabTo("#photo-input"))
	// Choosing the file is the system's picker; the photo comes in as if chosen.
	run(t, ctx, "a photo", chromedp.SetUploadFiles("#photo-input", []string{testPhoto(t, "hand-017.jpg")}, chromedp.ByQuery),
		visible(`#boxes .box[data-index="13"]`),
		chromedp.Evaluate(`[...document.querySelectorAll("#boxes .box")].map(b => b.tagName + ":" + b.textContent.trim())`, &names))
	for _, n := range names {
		if !strings.HasPrefix(n, "BUTTON:") || !strings.Contains(n, "fix it") {
			t.Errorf("an overlay box is %q: want a button with a name", n)
		}
	}
	run(t, ctx, "Tab to the misread box, Enter opens the fix sheet",
		tabTo(`#boxes .box[data-index="3"]`), key(kb.Enter),
		visible("#fixer"),
		chromedp.Evaluate(`document.getElementById("fixer").open && document.getElementById("fixer").matches(":modal") ? "modal dialog" : "not modal"`, &role),
		chromedp.Evaluate(`document.getElementById("fixer").contains(document.activeElement) ? "in" : "out"`, &inDialog))
	if role != "modal dialog" || inDialog != "in" {
		t.Errorf("the fix sheet is %s, the focus %s it", role, inDialog)
	}
	run(t, ctx, "Escape closes it; again, and the alternative fixes the tile",
		key(kb.Escape), pageWaits(`!document.getElementById("fixer").open`),
		tabTo(`#boxes .box[data-index="3"]`), key(kb.Enter), visible("#fixer"),
		tabTo(`#fixer-alts .tile[data-tile="6s"]`), key(kb.Enter),
		visible(`#boxes .box.fixed[data-index="3"]`),
		pageWaits(`document.getElementById("hand-check").className === "ok"`))
	checkTargets(t, ctx, "a photo")
	var total, yaku string
	run(t, ctx, "by keys: the tiles tab, the notation, the winning tile, self-draw, Score",
		tabTo("#tab-tiles"), key(kb.Enter), visible("#tiles-panel"),
		tabTo("#notation"), chromedp.KeyEvent("234m345p55p456s678s"),
		visible(`#row-hand .tile[data-index="13"]`),
		tabTo(`#row-hand .tile[data-index="2"]`), key(kb.Enter), visible("#fixer"),
		tabTo("#fixer-win"), key(kb.Enter),
		visible(`#row-hand .tile.win[data-index="2"]`),
		tabTo("#ron"), key(kb.ArrowRight), pageWaits(`document.getElementById("tsumo").checked`), // a radio group: the arrows choose
		tabTo("#riichi"), key(" "),
		tabTo("#score"), key(kb.Enter),
		visible("#result-total"), text("#result-total", &total))
	want := engineTotal(t, scoring.Request{Rules: "riichi", Hand: "234m345p55p456s678s", WinTile: "4m", Tsumo: true, Riichi: true, SeatWind: "E", RoundWind: "E"})
	if total != want {
		t.Errorf("scored by keys: %q, the engine gives %q", total, want)
	}
	run(t, ctx, "the names switch by keys",
		tabTo(`.lang-switch button[data-lang="local"]`), key(kb.Enter),
		pageWaits(`document.querySelector('.lang-switch button[data-lang="local"]').getAttribute("aria-pressed") === "true"`),
		text("#result-yaku", &yaku))
	if !strings.Contains(yaku, "立直") {
		t.Errorf("the yaku after the switch: %q", yaku)
	}
	checkTargets(t, ctx, "a result")
	axeCheck(t, ctx, "the keyboard journey")
	shots(t, ctx, "keyboard-journey")
}

// checkTargets fails on any control on show smaller than 44×44 px (a
// checkbox or radio counts by its label), and on any image without alt.
func checkTargets(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	var small, noAlt []string
	run(t, ctx, "measure the tap targets", chromedp.Evaluate(`(() => {
		const out = [];
		const seen = (e) => e.offsetParent !== null && !e.closest("[hidden], dialog:not([open])");
		document.querySelectorAll("button, select, input, summary, a[href]").forEach(e => {
			if (!seen(e) || e.id === "photo-input") return;
			const box = (e.type === "checkbox" || e.type === "radio") ? e.closest("label") : e;
			const r = box.getBoundingClientRect();
			if (r.width < 44 || r.height < 44) out.push((e.id || e.textContent.trim().slice(0, 20) || e.tagName) + " " + Math.round(r.width) + "×" + Math.round(r.height));
		});
		return out;
	})()`, &small), chromedp.Evaluate(`[...document.querySelectorAll("img")].filter(i => !i.hasAttribute("alt")).map(i => i.src)`, &noAlt))
	for _, s := range small {
		t.Errorf("%s: a tap target under 44 px: %s", where, s)
	}
	for _, s := range noAlt {
		t.Errorf("%s: an image without alt text: %s", where, s)
	}
}
