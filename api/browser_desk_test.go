//go:build browser

// The end-to-end tests of the referee's and the organiser's desks in real
// headless Chromium, at a phone's size (390×844), with screenshots at
// 390×844 and 1366×900 under MJSCAN_SCREENSHOTS (see browser_test.go).
package api

import (
	"context"
	"encoding/base64"
	csvpkg "encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// captureDownloads keeps every file the page offers for download (a
// Blob behind an a[download]) instead of saving it, so that a test reads
// what the person would get.
const captureDownloads = `(() => {
  window.__files = [];
  const make = URL.createObjectURL;
  URL.createObjectURL = function (b) { const u = make.call(URL, b); window.__blobs = window.__blobs || {}; window.__blobs[u] = b; return u; };
  HTMLAnchorElement.prototype.click = function () {
    if (this.download && window.__blobs && window.__blobs[this.href]) window.__blobs[this.href].text().then((t) => window.__files.push({name: this.download, text: t}));
  };
  return true;
})()`

// downloaded waits for the page's nth download and answers it.
func downloaded(t *testing.T, ctx context.Context, n int) (name, body string) {
	t.Helper()
	var f struct{ Name, Text string }
	run(t, ctx, fmt.Sprintf("download %d", n),
		pageWaits(fmt.Sprintf(`window.__files.length > %d`, n)),
		chromedp.Evaluate(fmt.Sprintf(`window.__files[%d]`, n), &f))
	return f.Name, f.Text
}

// slowPhotos wraps the page's fetch so that a record's photo arrives
// 300 ms late, as on a slow connection.
const slowPhotos = `(() => { const real = window.fetch;
  window.fetch = async function (p, init) {
    if (/\/photo$/.test(String(p))) await new Promise((r) => setTimeout(r, 300));
    return real.call(window, p, init);
  };
  return true; })()`

// loseFirstAnswer wraps the page's fetch: every POST is noted in
// window.__sent as [path, Idempotency-Key], and the first POST to path
// reaches the service but its answer is lost, as a dropped connection
// loses it.
func loseFirstAnswer(path string) string {
	return fmt.Sprintf(`(() => { window.__sent = []; const real = window.fetch; let lost = false;
  window.fetch = async function (p, init) {
    const post = init && init.method === "POST";
    if (post) window.__sent.push([String(p), (init.headers && init.headers["Idempotency-Key"]) || ""]);
    const resp = await real.call(window, p, init);
    if (post && !lost && String(p) === %q) { lost = true; throw new TypeError("Failed to fetch"); }
    return resp;
  };
  return true; })()`, path)
}

func signIn(t *testing.T, ctx context.Context, url, token string) {
	t.Helper()
	var stored, href string
	run(t, ctx, "sign in at "+url,
		chromedp.Navigate(url),
		visible("#token"),
		chromedp.SendKeys("#token", token, chromedp.ByQuery),
		click("#signin-go"),
		visible("#signed"),
		chromedp.Evaluate(`Object.keys(sessionStorage).map(k => sessionStorage.getItem(k)).join(" ")`, &stored),
		chromedp.Evaluate(`location.href`, &href),
	)
	if !strings.Contains(stored, token) || strings.Contains(href, token) {
		t.Errorf("the token is kept in sessionStorage (%q) and never in the URL (%q)", stored, href)
	}
}

// fitsPhone fails when the page is wider than a phone's screen (390 px):
// a desk scrolls down, never sideways. It names what sticks out.
func fitsPhone(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	var wide []string
	run(t, ctx, "fits a phone: "+where, chromedp.Evaluate(`[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && e.getClientRects().length).map(e => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).slice(0, 8)`, &wide))
	if len(wide) > 0 {
		t.Errorf("%s: wider than a phone: %v", where, wide)
	}
}

// typeText sets a field's text as typing does: the value, then the
// input event the page listens to.
func typeText(sel, value string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, sel, value), nil)
}

// tapTargets fails when a control the desk shows is smaller than 44 px
// either way, a phone's least tap target (a checkbox or radio by the
// label around it). It names what is too small.
func tapTargets(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	var small []string
	run(t, ctx, "tap targets: "+where, chromedp.Evaluate(`[...document.querySelectorAll("header a, main button, main a, main input, main select, main textarea, main summary")]
	  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
	  .map((e) => [e, /^(checkbox|radio)$/.test(e.type) ? (e.closest("label") || e) : e])
	  .filter(([e, box]) => { const r = box.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
	  .map(([e, box]) => { const r = box.getBoundingClientRect(); return e.tagName + "#" + e.id + "." + e.className + " " + JSON.stringify(e.textContent.trim().slice(0, 20)) + " " + Math.round(r.width) + "×" + Math.round(r.height); })`, &small))
	if len(small) > 0 {
		t.Errorf("%s: tap targets under 44 px: %v", where, small)
	}
}

// tabReachesAll fails when Tab, pressed from the top of the page, does
// not reach every control the desk shows: all of it works by keyboard.
func tabReachesAll(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	var n int
	run(t, ctx, "mark the controls: "+where, chromedp.Evaluate(`(() => { const all = [...document.querySelectorAll("header a, main button, main a, main input, main select, main textarea, main summary")]
	  .filter((e) => e.getClientRects().length && !e.disabled);
	  all.forEach((e, i) => e.dataset.kb = i); document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); window.__kb = new Set();
	  document.addEventListener("focusin", (ev) => { if (ev.target.dataset.kb !== undefined) window.__kb.add(ev.target.dataset.kb); });
	  return all.length; })()`, &n))
	for i := 0; i < n+10; i++ {
		run(t, ctx, "tab", chromedp.KeyEvent(kb.Tab))
	}
	var missed []string
	run(t, ctx, "what Tab reached: "+where, chromedp.Evaluate(`[...document.querySelectorAll("[data-kb]")].filter((e) => !window.__kb.has(e.dataset.kb)).map((e) => e.tagName + "#" + e.id + " " + JSON.stringify(e.textContent.trim().slice(0, 20)))`, &missed))
	if n < 10 || len(missed) > 0 {
		t.Errorf("%s: of %d controls Tab never reached %v", where, n, missed)
	}
	run(t, ctx, "leave the keyboard: "+where, chromedp.Evaluate(`document.activeElement.blur(), true`, nil))
}

func printMedia(print bool) chromedp.Action {
	media := ""
	if print {
		media = "print"
	}
	return emulation.SetEmulatedMedia().WithMedia(media)
}

// TestBrowserRefereeDesk: the referee types the token once, opens a
// table's records, sees the camera's proposal with its photo, recognised
// tiles and the correction made, checks the player's claim (the engine's
// breakdown and total on the page), records a ruling, then overturns it
// with a new record that points at the old; the record prints without the
// desk's controls and exports as JSON.
func TestBrowserRefereeDesk(t *testing.T) {
	ts := newTournamentServer(t)
	req := scoring.Request{Rules: "riichi", Hand: "234678s777z222z44z", WinTile: "4z", SeatWind: "S", RoundWind: "E"}
	res := rulebook.Score(&req)
	if !res.OK {
		t.Fatalf("the hand does not score: %+v", res.Error)
	}
	reqJSON, _ := json.Marshal(req)
	resJSON, _ := json.Marshal(res)
	photo, err := os.ReadFile(testPhoto(t, "hand-017.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	proposal := fmt.Sprintf(`{"table":"table 1","asked_by":"table table 1","engine_version":"test","rule_set":"riichi/default",`+
		`"recognized":"234978s777z222z44z","corrections":[{"by":"player:Ben","from":"9s","to":"6s","reason":"misread"}],`+
		`"request":%s,"computed":%s,"claimed":"8000","ruling":"proposed by the camera: awaiting the referee","photo":%q}`,
		reqJSON, resJSON, base64.StdEncoding.EncodeToString(photo))
	if a := call(t, "POST", ts.URL+"/v1/records", testRefereeToken, proposal); a.status != 201 {
		t.Fatalf("seeding the proposal: %d %s", a.status, a.body)
	}
	ctx := browser(t)
	// A mistyped token is refused at the first call, and asked again.
	var refused string
	run(t, ctx, "a wrong token",
		chromedp.Navigate(ts.URL+"/referee"),
		visible("#token"),
		chromedp.SendKeys("#token", "referee-token-mistyped", chromedp.ByQuery),
		click("#signin-go"),
		visible("#find-table"),
		chromedp.SendKeys("#find-table", "table 1", chromedp.ByQuery),
		click("#find-go"),
		visible("#token"),
		text("#signin-status", &refused),
	)
	if !strings.Contains(refused, "Authorization: Bearer") || !strings.HasSuffix(refused, "Type the token again.") {
		t.Errorf("a wrong token is answered %q", refused)
	}
	signIn(t, ctx, ts.URL+"/referee", testRefereeToken)

	var listed, tiles, photoW int
	var corr string
	run(t, ctx, "open the table's records and the proposal",
		chromedp.Evaluate(captureDownloads, nil),
		chromedp.SendKeys("#find-table", "table 1", chromedp.ByQuery),
		click("#find-go"),
		visible(`#records .record-item[data-id="1"]`),
		count("#records .record-item", &listed),
		click(`#records .record-item[data-id="1"]`),
		visible("#record-photo"),
		pageWaits(`document.getElementById("record-photo").naturalWidth > 0`),
		chromedp.Evaluate(`document.getElementById("record-photo").naturalWidth`, &photoW),
		count(`#record-tiles .tile-pic img[src$=".svg"]`, &tiles),
		text("#corrections-table", &corr),
	)
	if listed != 1 || tiles != 14 || photoW != 640 {
		t.Errorf("listed %d records, drew %d tiles, the photo is %d px wide: want 1, 14 and the kept 640 px photo", listed, tiles, photoW)
	}
	if !strings.Contains(corr, "9s") || !strings.Contains(corr, "6s") || !strings.Contains(corr, "player:Ben") {
		t.Errorf("the correction reads %q", corr)
	}
	shots(t, ctx, "referee-record")
	axeCheck(t, ctx, "the referee desk, a record")

	// A hand read two ways: the claim counts the lower-paying reading.
	var readings, matching string
	run(t, ctx, "check a claim that counts the wrong reading",
		chromedp.SetValue("#verify-request", `{"rules":"riichi","hand":"111222333m789p11s","win_tile":"3m","tsumo":true,"seat_wind":"S","round_wind":"E"}`, chromedp.ByQuery),
		chromedp.SendKeys("#claim-points", "5200", chromedp.ByQuery),
		click("#verify-go"),
		visible("#verdict-readings"),
		text("#verdict-readings", &readings),
		text("#verdict-summary", &matching),
	)
	if !strings.Contains(readings, "111m 222m 333m 789p 11s") || !strings.Contains(readings, "✓ 123m 123m 123m 789p 11s") || !strings.Contains(readings, "Sanankou") ||
		!strings.Contains(matching, "matches another reading of the hand (111m 222m 333m 789p 11s)") {
		t.Errorf("the readings considered %q; the verdict %q", readings, matching)
	}
	shots(t, ctx, "referee-readings")

	// The claim form's other fields and its errors: a han and fu claim
	// and an MCR fan claim answer as the API's verify does; a claim of
	// nothing, a request that is not JSON and a hand that is no win are
	// each answered in words, with no field names of the API.
	verdictOf := func(request, claim string) (summary string, checks []string) {
		a := call(t, "POST", ts.URL+"/v1/verify", "", `{"request":`+request+`,"claim":`+claim+`}`)
		if a.status != 200 {
			t.Fatalf("the API's verify of %s %s: %d %s", request, claim, a.status, a.body)
		}
		for _, c := range a.json["checks"].([]any) {
			m := c.(map[string]any)
			checks = append(checks, fmt.Sprintf("%v%v%v", m["claimed"], m["field"], m["computed"]))
		}
		return a.str("summary"), checks
	}
	riichiHand := `{"rules":"riichi","hand":"234678s777z222z44z","win_tile":"4z","seat_wind":"S","round_wind":"E"}`
	mcrHand := `{"rules":"mcr","hand":"123m456m789m123p55s","win_tile":"5s","tsumo":true}`
	// A hand typed in MPSZ is scored with the open record's situation
	// (record 1: South's seat, East's round), as its request would be.
	for _, c := range []struct{ request, field, value, claim, api string }{
		{riichiHand, "han", "4", `{"han":4,"fu":40}`, ""},
		{mcrHand, "fan", "8", `{"fan":8}`, ""},
		{"234678s777z222z44z", "points", "8000", `{"points":8000}`, riichiHand},
	} {
		if c.api == "" {
			c.api = c.request
		}
		var got, gotChecks string
		acts := []chromedp.Action{typeText("#verify-request", c.request)}
		for _, k := range []string{"points", "han", "fu", "fan"} {
			acts = append(acts, chromedp.SetValue("#claim-"+k, "", chromedp.ByQuery))
		}
		acts = append(acts, chromedp.SendKeys("#claim-"+c.field, c.value, chromedp.ByQuery))
		if c.field == "han" {
			acts = append(acts, chromedp.SendKeys("#claim-fu", "40", chromedp.ByQuery))
		}
		var offered string
		acts = append(acts, click("#verify-go"), visible("#verdict-checks"), text("#verdict-summary", &got), text("#verdict-checks", &gotChecks),
			chromedp.Evaluate(`[...document.querySelectorAll("#verify .claim input")].filter((e) => e.getClientRects().length).map((e) => e.id).join(" ")`, &offered))
		run(t, ctx, "check a claim of "+c.claim, acts...)
		if want := map[string]string{"han": "claim-points claim-han claim-fu", "points": "claim-points claim-han claim-fu", "fan": "claim-points claim-fan"}[c.field]; offered != want {
			t.Errorf("for %s the claim form offers %q, want %q: the fields its rule set counts in", c.claim, offered, want)
		}
		summary, checks := verdictOf(c.api, c.claim)
		if !strings.HasPrefix(got, strings.ToUpper(summary[:1])+summary[1:]) || len(checks) == 0 {
			t.Errorf("the desk's verdict on %s is %q, the API's %q", c.claim, got, summary)
		}
		for _, k := range checks {
			if !strings.Contains(gotChecks, k) {
				t.Errorf("the desk's checks of %s read %q, leaving out the API's %q", c.claim, gotChecks, k)
			}
		}
	}
	for _, c := range []struct{ name, request, claim, want string }{
		{"nothing claimed", riichiHand, "", "Type what the player claimed: points, han and fu, or fan."},
		{"not JSON", `{"rules": riichi`, "8000", "The hand request is not valid JSON: fix it, type the tiles in MPSZ instead, or open a record that has one."},
		{"not MPSZ", "234678s777z222z44x", "8000", ""},
		{"no win", `{"rules":"riichi","hand":"123m456p789s1234z","win_tile":"4z"}`, "8000", ""},
	} {
		var got string
		acts := []chromedp.Action{typeText("#verify-request", c.request)}
		for _, k := range []string{"points", "han", "fu", "fan"} {
			acts = append(acts, chromedp.SetValue("#claim-"+k, "", chromedp.ByQuery))
		}
		if c.claim != "" {
			acts = append(acts, chromedp.SendKeys("#claim-points", c.claim, chromedp.ByQuery))
		}
		acts = append(acts, click("#verify-go"), visible("#verdict .error"), text("#verdict .error", &got))
		run(t, ctx, "a claim answered in words: "+c.name, acts...)
		if (c.want != "" && got != c.want) || len(got) < 20 || !strings.HasSuffix(got, ".") || strings.Contains(got, "_") {
			t.Errorf("%s: the desk says %q, want a sentence%s", c.name, got, map[bool]string{true: "", false: " " + strconv.Quote(c.want)}[c.want == ""])
		}
	}
	run(t, ctx, "clear the claim", typeText("#verify-request", riichiHand), chromedp.SetValue("#claim-fu", "", chromedp.ByQuery), chromedp.SetValue("#claim-han", "", chromedp.ByQuery), chromedp.SetValue("#claim-fan", "", chromedp.ByQuery))
	// Back to the record, and the claim checked at once, while the record
	// is still opening (its photo made slow): the check waits for the
	// record, whose arrival must not wipe the verdict.
	run(t, ctx, "back to the record", chromedp.SetValue("#claim-points", "", chromedp.ByQuery), chromedp.Evaluate(slowPhotos, nil),
		click(`#records .record-item[data-id="1"]`))
	var summary, checks, breakdown string
	run(t, ctx, "check a claim of 12000",
		chromedp.SendKeys("#claim-points", "12000", chromedp.ByQuery),
		click("#verify-go"),
		visible("#verdict-summary"),
		text("#verdict-summary", &summary),
		text("#verdict-checks", &checks),
		text("#verdict .breakdown", &breakdown),
	)
	var kept string
	run(t, ctx, "the record opened, the verdict stays",
		pageWaits(`!document.getElementById("record").hasAttribute("aria-busy") && document.getElementById("record-photo").naturalWidth === 640`),
		text("#verdict-checks", &kept))
	want := fmt.Sprint(res.Points.Total)
	if kept != checks {
		t.Errorf("once the record opened the verdict's checks read %q, want %q", kept, checks)
	}
	if !strings.HasPrefix(summary, "Disagree") || !strings.Contains(checks, "12000") || !strings.Contains(checks, want) || !strings.Contains(breakdown, want+" points") {
		t.Errorf("the verdict says %q, checks %q, breakdown %q: want a disagreement and the engine's %s", summary, checks, breakdown, want)
	}
	for _, y := range res.Yaku {
		if !strings.Contains(breakdown, y.Name) {
			t.Errorf("the breakdown %q leaves out %s", breakdown, y.Name)
		}
	}
	shots(t, ctx, "referee-verify")

	var status, force, photoNote string
	run(t, ctx, "record the ruling",
		chromedp.SendKeys("#ruling-referee", "Head referee", chromedp.ByQuery),
		click("#ruling-record"),
		pageWaits(`/Recorded as #2/.test(document.getElementById("ruling-status").textContent)`),
		text("#record-force", &force),
	)
	if force != "This ruling is in force." {
		t.Errorf("the new ruling says %q", force)
	}
	var overturnButton string
	run(t, ctx, "overturn it",
		text("#ruling-overturn", &overturnButton),
		chromedp.SetValue("#ruling-text", "", chromedp.ByQuery),
		chromedp.SendKeys("#ruling-text", "On appeal: the 6s was read right after all; 8000 stands, and the player was told why.", chromedp.ByQuery),
		click("#ruling-overturn"),
		pageWaits(`/Recorded as #3, overturning #2/.test(document.getElementById("ruling-status").textContent)`),
		visible(`#record-chain button[data-id="2"]`),
		text("#ruling-status", &status),
		visible(`#records .record-item[data-id="3"]`),
		pageWaits(`document.getElementById("record-photo").naturalWidth === 640`),
		text("#record-photo-note", &photoNote),
	)
	if overturnButton != "Overturn #2 with this ruling" {
		t.Errorf("the overturn button reads %q: want it to name the ruling it overturns", overturnButton)
	}
	if !strings.Contains(photoNote, "kept with record #1") {
		t.Errorf("the overturn's photo says %q: want the proposal's photo it rules on", photoNote)
	}
	old := call(t, "GET", ts.URL+"/v1/records/2", testRefereeToken, "")
	newer := call(t, "GET", ts.URL+"/v1/records/3", testRefereeToken, "")
	oldRec, _ := old.json["record"].(map[string]any)
	newRec, _ := newer.json["record"].(map[string]any)
	inForce, _ := old.json["in_force"].(map[string]any)
	// The ruling the desk drafted follows the last claim checked, not
	// the first.
	if oldRec["ruling"] != "Claim of 12000 points corrected: "+want+" points." || oldRec["claimed"] != "12000 points" || oldRec["referee"] != "Head referee" || !strings.Contains(fmt.Sprint(oldRec["computed"]), want) ||
		newRec["overturns"] != float64(2) || inForce["id"] != float64(3) || oldRec["table"] != "table 1" || newRec["photo_sha256"] != oldRec["photo_sha256"] {
		t.Errorf("the ruling is %v\nits overturn %v\nin force %v", oldRec, newRec, inForce)
	}
	fitsPhone(t, ctx, "the referee desk")
	tapTargets(t, ctx, "the referee desk")
	tabReachesAll(t, ctx, "the referee desk")
	shots(t, ctx, "referee-overturn")
	axeCheck(t, ctx, "the referee desk, an overturn")

	var controls, record bool
	run(t, ctx, "print the record",
		printMedia(true),
		chromedp.Evaluate(`getComputedStyle(document.getElementById("verify")).display === "none" && document.getElementById("print").getClientRects().length === 0`, &controls),
		chromedp.Evaluate(`getComputedStyle(document.getElementById("record")).display !== "none"`, &record),
	)
	if !controls || !record {
		t.Errorf("printing hides the desk's controls (%v) and shows the record (%v)", controls, record)
	}
	shots(t, ctx, "referee-print")
	run(t, ctx, "back to the screen", printMedia(false), click("#export"))
	name, body := downloaded(t, ctx, 0)
	var exported struct {
		Record  referee.Record   `json:"record"`
		InForce referee.Record   `json:"in_force"`
		Chain   []referee.Record `json:"chain"`
	}
	if err := json.Unmarshal([]byte(body), &exported); err != nil || name != "record-3.json" || exported.Record.ID != 3 || exported.Record.Overturns != 2 || len(exported.Chain) != 2 {
		t.Errorf("exported %s: %v %.300s", name, err, body)
	}
}

// testCamera is a table camera that answers the frame it is set to.
type testCamera struct {
	mu     sync.Mutex
	frame  string
	frames map[string][]byte
}

func newTestCamera(t *testing.T) (*testCamera, *httptest.Server) {
	c := &testCamera{frame: "empty", frames: map[string][]byte{}}
	for name, file := range map[string]string{"empty": "table-empty.jpg", "hand": "table-hand-south.jpg"} {
		data, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		c.frames[name] = data
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(c.frames[c.frame])
	}))
	t.Cleanup(srv.Close)
	return c, srv
}

func (c *testCamera) show(frame string) {
	c.mu.Lock()
	c.frame = frame
	c.mu.Unlock()
}

// TestBrowserOrganiserDesk: the organiser types the token once, creates
// a tournament of four and its first game (rules and preset), registers
// the table's camera and calibrates it from a frame with the felt and the
// four seats' regions drawn on it; the camera proposes South's hand, the
// organiser confirms it in one tap (a hand of the game, not an overturn),
// ends the game into the tournament, takes a penalty, and reads the
// standings and their CSV and the game's MJAI.
func TestBrowserOrganiserDesk(t *testing.T) {
	cam, camSrv := newTestCamera(t)
	s, err := New(DefaultConfig(), Deps{Version: "test", Recognizer: shippedRecognizer{shippedModels(t)}})
	if err != nil {
		t.Fatal(err)
	}
	mountOnSQLite(t, s)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)

	ctx := browser(t)
	signIn(t, ctx, ts.URL+"/organiser", testOrganizerToken)
	run(t, ctx, "watch downloads", chromedp.Evaluate(captureDownloads, nil))
	var next, east, stage string
	run(t, ctx, "create the tournament",
		chromedp.SendKeys("#tour-id", "Spring", chromedp.ByQuery),
		chromedp.SendKeys("#tour-entrants", "Aiko\nBen\nChloe\nDev", chromedp.ByQuery),
		click("#tour-create"),
		visible("#tour-next table"),
		text("#tour-next", &next),
		chromedp.Value("#game-p0", &east, chromedp.ByQuery),
		chromedp.Value("#game-stage", &stage, chromedp.ByQuery),
	)
	if !strings.Contains(next, "final") || east == "" || stage != "final" {
		t.Errorf("who plays next: %q, East prefilled %q, the game's stage %q: want the final four entrants play", next, east, stage)
	}
	// The first answer to "create the game" is lost on its way back (the
	// game is made): the desk must try again with the same key and show
	// the game, which the service made once.
	run(t, ctx, "lose the first answer to a new game", chromedp.Evaluate(loseFirstAnswer("/v1/games"), nil))
	var token, scores, rules string
	run(t, ctx, "create the game",
		chromedp.SendKeys("#game-id", "F1", chromedp.ByQuery),
		chromedp.SendKeys("#game-table", "table 1", chromedp.ByQuery),
		choose("#game-rules", "msmc-2016"),
		pageWaits(`document.querySelector('#game-preset option[value="msmc-2016"]') !== null`),
		choose("#game-preset", "msmc-2016"),
		click("#game-create"),
		visible("#game-token"),
		text("#game-token", &token),
		text("#game-scores", &scores),
		text("#game-view h3", &rules),
	)
	if !strings.HasPrefix(token, "table-") || !strings.Contains(scores, "25000") || !strings.Contains(rules, "riichi/msmc-2016") {
		t.Errorf("the game gave table token %q, scores %q, rules %q", token, scores, rules)
	}
	var tries [][]string
	run(t, ctx, "the tries of the new game", chromedp.Evaluate(`window.__sent.filter(([p]) => p === "/v1/games")`, &tries))
	if len(tries) != 2 || tries[0][1] == "" || tries[0][1] != tries[1][1] {
		t.Errorf("the desk sent the new game %v (path, Idempotency-Key): want it sent again with the same key after the lost answer", tries)
	}
	// The table's phone lost its token: the desk shows the same one again.
	var again string
	run(t, ctx, "the table's token again",
		chromedp.Evaluate(`document.getElementById("game-token").textContent = ""`, nil),
		click("#game-token-again"),
		pageWaits(`document.getElementById("game-token").textContent !== ""`),
		text("#game-token", &again),
	)
	if again != token {
		t.Errorf("the table's token again reads %q, want the one the game was created with, %q", again, token)
	}
	shots(t, ctx, "organiser-game")
	axeCheck(t, ctx, "the organiser desk, a game")

	var seats int
	var calibrated string
	run(t, ctx, "register the table's camera and calibrate it",
		chromedp.SetValue("#cam-table", "table 1", chromedp.ByQuery),
		chromedp.SendKeys("#cam-url", camSrv.URL+"/snapshot.jpg", chromedp.ByQuery),
		click("#cam-register"),
		pageWaits(`/Registered/.test(document.getElementById("cam-status").textContent)`),
		click("#cam-calibrate"),
		pageWaits(`/Calibrated/.test(document.getElementById("cam-status").textContent)`),
		pageWaits(`document.getElementById("cam-img").naturalWidth > 0`),
		count(`#cam-svg polygon[id^="seat-"]`, &seats),
		text("#cam-status", &calibrated),
	)
	if seats != 4 || !strings.Contains(calibrated, "behind East") {
		t.Errorf("%d seat regions drawn; %q", seats, calibrated)
	}
	// South's region must lie where South's hand is: the API cuts the
	// same band the page draws, and the recogniser reads South's hand
	// from it below.
	var inside bool
	run(t, ctx, "South's region lies inside the felt",
		chromedp.Evaluate(`(() => { const s = document.getElementById("seat-S").points, f = document.getElementById("felt").getBBox();
		  for (let i = 0; i < s.numberOfItems; i++) { const p = s.getItem(i); if (p.x < f.x - 1 || p.y < f.y - 1 || p.x > f.x + f.width + 1 || p.y > f.y + f.height + 1) return false; } return true; })()`, &inside))
	if !inside {
		t.Error("South's region is drawn outside the table")
	}
	shots(t, ctx, "organiser-calibrated")

	cam.show("hand")
	var proposed, confirmed string
	var tiles int
	run(t, ctx, "score now: South won from East",
		choose("#sn-seat", "S"),
		choose("#sn-from", "0"),
		click("#sn-go"),
		visible("#proposal-confirm"),
		count("#proposal-tiles .tile-pic", &tiles),
		text("#proposal-result", &proposed),
	)
	if tiles != 14 || !strings.Contains(proposed, "8000 points") {
		t.Errorf("the proposal shows %d tiles and %q", tiles, proposed)
	}
	shots(t, ctx, "organiser-score-now")
	var refField int
	run(t, ctx, "the desk asks for no other token", count(`input[type=password]:not(#token), #ref-token`, &refField))
	if refField != 0 {
		t.Errorf("the organiser desk asks for %d other tokens: the organiser token does the whole job", refField)
	}
	run(t, ctx, "confirm it in one tap",
		click("#proposal-confirm"),
		pageWaits(`/Hand 1 confirmed/.test(document.getElementById("sn-status").textContent)`),
		visible("#game-hands"),
		text("#game-scores", &confirmed),
	)
	if !strings.Contains(confirmed, "17000") || !strings.Contains(confirmed, "33000") {
		t.Errorf("after the confirmed hand the scores read %q", confirmed)
	}
	var unkeyed []string
	run(t, ctx, "the desk's writes carry keys", chromedp.Evaluate(`window.__sent.filter(([p, k]) => /\/(hands|confirm|score-now)$/.test(p) && !k).map(([p]) => p)`, &unkeyed))
	if len(unkeyed) > 0 {
		t.Errorf("sent without an Idempotency-Key: %v", unkeyed)
	}
	g := call(t, "GET", ts.URL+"/v1/games/F1", testOrganizerToken, "")
	hands, _ := g.json["hands"].([]any)
	recs := call(t, "GET", ts.URL+"/v1/records?table=table%201", testRefereeToken, "")
	list, _ := recs.json["records"].([]any)
	if len(hands) != 1 || len(list) != 2 {
		t.Fatalf("the game has %d hands and the table %d records: want the one confirmed hand, its proposal and the ruling", len(hands), len(list))
	}
	// The ruling confirms the proposal as it was (the confirm route's
	// record, pointing at the proposal), not an overturn by hand.
	proposal, ruling := list[0].(map[string]any), list[1].(map[string]any)
	if ruling["overturns"] != proposal["id"] || !strings.HasPrefix(fmt.Sprint(ruling["ruling"]), "confirmed by the organizer as the camera proposed") ||
		fmt.Sprint(ruling["request"]) != fmt.Sprint(proposal["request"]) {
		t.Errorf("the proposal %v\nwas ruled on by %v", proposal, ruling)
	}

	// The camera proposes the next hand too; the organiser corrects it
	// (the pair was two whites, not two norths) before it goes in.
	var fixedNote, snAfter string
	run(t, ctx, "score now again and correct the proposal",
		click("#sn-go"),
		visible("#proposal-correct"),
		click("#proposal-correct"),
		pageWaits(`document.getElementById("hand-request").value.includes("44z")`),
		chromedp.Evaluate(`(() => { const e = document.getElementById("hand-request"); const r = JSON.parse(e.value); r.hand = r.hand.replace("44z", "55z"); r.win_tile = "5z"; e.value = JSON.stringify(r); return true; })()`, nil),
		click("#hand-record"),
		pageWaits(`/Hand 2 recorded/.test(document.getElementById("hand-status").textContent)`),
		text("#hand-status", &fixedNote),
		text("#sn-status", &snAfter),
	)
	if !strings.Contains(snAfter, "Hand 2 recorded as corrected") {
		t.Errorf("after the corrected hand, score now still says %q", snAfter)
	}
	recs = call(t, "GET", ts.URL+"/v1/records?table=table%201", testRefereeToken, "")
	list, _ = recs.json["records"].([]any)
	g = call(t, "GET", ts.URL+"/v1/games/F1", testOrganizerToken, "")
	hands, _ = g.json["hands"].([]any)
	if len(list) != 4 || len(hands) != 2 {
		t.Fatalf("after the correction the table has %d records and the game %d hands: want 4 and 2", len(list), len(hands))
	}
	corrected := list[3].(map[string]any)
	corrections, _ := corrected["corrections"].([]any)
	played, _ := hands[1].(map[string]any)["play"].(map[string]any)["hand"].(map[string]any)
	if corrected["overturns"] != list[2].(map[string]any)["id"] || len(corrections) != 1 || !strings.Contains(fmt.Sprint(corrections[0]), "55z") ||
		played == nil || !strings.Contains(fmt.Sprint(played["hand"]), "55z") {
		t.Errorf("the corrected ruling %v\nand the hand played %v", corrected, played)
	}

	// A hand typed in at the desk, in MPSZ: Chloe wins on the East pair
	// with a pon of greens, from Dev.
	var typedNote string
	run(t, ctx, "enter a hand in MPSZ",
		choose("#hand-outcome", "win"),
		choose("#hand-player", "2"),
		choose("#hand-from", "3"),
		chromedp.SetValue("#hand-request", "123m456p789s11z,666=z", chromedp.ByQuery),
		click("#hand-record"),
		pageWaits(`/Hand 3 recorded/.test(document.getElementById("hand-status").textContent)`),
		text("#hand-status", &typedNote),
	)
	g = call(t, "GET", ts.URL+"/v1/games/F1", testOrganizerToken, "")
	hands, _ = g.json["hands"].([]any)
	if len(hands) != 3 {
		t.Fatalf("the game has %d hands after the typed one", len(hands))
	}
	third := hands[2].(map[string]any)
	deltas := fmt.Sprint(third["deltas"])
	typed, _ := third["play"].(map[string]any)["hand"].(map[string]any)
	if typed["hand"] != "123m456p789s11z" || !strings.Contains(fmt.Sprint(typed["melds"]), "666z") || !strings.Contains(typedNote, "Chloe +") || !strings.Contains(typedNote, "Dev -") {
		t.Errorf("the typed hand was recorded as %v (deltas %s); the desk says %q", typed, deltas, typedNote)
	}

	// An exhaustive draw: Aiko (in riichi) and Ben tenpai, Chloe and Dev
	// noten; the fields a draw does not take are hidden.
	var drawNote, drawHidden string
	run(t, ctx, "enter an exhaustive draw",
		choose("#hand-outcome", "draw"),
		visible("#hand-tenpai"),
		chromedp.Evaluate(`["hand-player-box", "hand-from-box", "hand-win-box"].filter((id) => !document.getElementById(id).getClientRects().length).join(" ")`, &drawHidden),
		click("#hand-tenpai-0"),
		click("#hand-tenpai-1"),
		click("#hand-riichi-0"),
	)
	tapTargets(t, ctx, "the organiser desk, a draw")
	run(t, ctx, "record the draw",
		click("#hand-record"),
		pageWaits(`/Hand 4 recorded/.test(document.getElementById("hand-status").textContent)`),
		text("#hand-status", &drawNote),
	)
	if drawHidden != "hand-player-box hand-from-box hand-win-box" {
		t.Errorf("at a draw the desk hides only %q: want the winner, the discarder and the hand hidden", drawHidden)
	}
	g = call(t, "GET", ts.URL+"/v1/games/F1", testOrganizerToken, "")
	hands, _ = g.json["hands"].([]any)
	if len(hands) != 4 {
		t.Fatalf("the game has %d hands after the draw", len(hands))
	}
	draw := hands[3].(map[string]any)
	drawPlay := draw["play"].(map[string]any)
	// Noten payments of 3000 split between the two tenpai and the two
	// noten players, Aiko's riichi stick on the table.
	if drawPlay["outcome"] != "draw" || fmt.Sprint(drawPlay["tenpai"]) != "[0 1]" || fmt.Sprint(drawPlay["riichi"]) != "[0]" ||
		fmt.Sprint(draw["deltas"]) != "[500 1500 -1500 -1500]" || !strings.Contains(drawNote, "tenpai: Aiko, Ben") || !strings.Contains(drawNote, "Aiko +500") {
		t.Errorf("the draw was recorded as %v (deltas %v); the desk says %q", drawPlay, draw["deltas"], drawNote)
	}
	var drawRow string
	run(t, ctx, "the draw in the game's hands", text("#game-hands tr:last-child", &drawRow))
	if !strings.Contains(drawRow, "draw, tenpai: Aiko, Ben") || !strings.Contains(drawRow, "Dev -1500") {
		t.Errorf("the game's hands show the draw as %q", drawRow)
	}

	// A chombo by Dev: only the offender is asked for.
	var chomboNote, chomboLabel string
	run(t, ctx, "enter a chombo",
		choose("#hand-outcome", "chombo"),
		visible("#hand-chombo-note"),
		text("#hand-player-label", &chomboLabel),
		choose("#hand-player", "3"),
		click("#hand-record"),
		pageWaits(`/Hand 5 recorded/.test(document.getElementById("hand-status").textContent)`),
		text("#hand-status", &chomboNote),
	)
	g = call(t, "GET", ts.URL+"/v1/games/F1", testOrganizerToken, "")
	hands, _ = g.json["hands"].([]any)
	if len(hands) != 5 {
		t.Fatalf("the game has %d hands after the chombo", len(hands))
	}
	chombo := hands[4].(map[string]any)
	chomboPlay := chombo["play"].(map[string]any)
	var chomboDeltas []string
	for i, d := range chombo["deltas"].([]any) {
		chomboDeltas = append(chomboDeltas, fmt.Sprintf("%s %+d", []string{"Aiko", "Ben", "Chloe", "Dev"}[i], int(d.(float64))))
	}
	if chomboLabel != "Offender" || chomboPlay["outcome"] != "chombo" || chomboPlay["player"] != float64(3) ||
		!strings.Contains(chomboNote, "chombo by Dev") || !strings.Contains(strings.ReplaceAll(chomboNote, " +0", " 0"), strings.ReplaceAll(strings.Join(chomboDeltas, ", "), " +0", " 0")) {
		t.Errorf("the chombo was recorded as %v (deltas %v); the desk (asking for the %q) says %q", chomboPlay, chombo["deltas"], chomboLabel, chomboNote)
	}
	var shownScores, formAfter string
	run(t, ctx, "the scores after the chombo", text("#game-scores", &shownScores),
		chromedp.Evaluate(`document.getElementById("hand-outcome").value + " " + document.getElementById("hand-player-label").textContent + " " + !!document.getElementById("hand-chombo-note").getClientRects().length`, &formAfter))
	if formAfter != "win Winner false" {
		t.Errorf("after the chombo the hand form reads %q: want it afresh for the next hand (a win), not the chombo again", formAfter)
	}
	for _, sc := range g.json["scores"].([]any) {
		if !strings.Contains(shownScores, fmt.Sprint(int(sc.(float64)))) {
			t.Errorf("the desk shows the scores %q, the game has %v", shownScores, g.json["scores"])
		}
	}

	var standings, penalty string
	run(t, ctx, "end the game into the finals, take a penalty",
		choose("#game-stage", "final"),
		click("#game-add"),
		pageWaits(`/added to the final/.test(document.getElementById("game-status").textContent)`),
		visible("#standings-list"),
		pageWaits(`[...document.querySelectorAll("#entrants option")].map((o) => o.value).join(" ") === "Aiko Ben Chloe Dev"`),
		chromedp.SendKeys("#pen-player", "Ben", chromedp.ByQuery),
		chromedp.SendKeys("#pen-points", "10", chromedp.ByQuery),
		chromedp.SendKeys("#pen-reason", "late to the table", chromedp.ByQuery),
		click("#pen-add"),
		pageWaits(`document.getElementById("pen-status").textContent !== ""`),
		text("#pen-status", &penalty),
		text("#standings-list", &standings),
	)
	if !strings.Contains(penalty, "10 points taken off Ben") {
		t.Errorf("the penalty says %q", penalty)
	}
	if !strings.Contains(standings, "Ben") || !strings.Contains(standings, "-10") || !strings.Contains(fixedNote, "Ben +") {
		t.Errorf("the standings read %q", standings)
	}
	fitsPhone(t, ctx, "the organiser desk")
	tapTargets(t, ctx, "the organiser desk")
	tabReachesAll(t, ctx, "the organiser desk")
	shots(t, ctx, "organiser-standings")
	axeCheck(t, ctx, "the organiser desk, the standings")

	run(t, ctx, "export the standings", click("#standings-csv"))
	name, csv := downloaded(t, ctx, 0)
	rows, err := csvpkg.NewReader(strings.NewReader(csv)).ReadAll()
	if err != nil || name != "standings-Spring.csv" || len(rows) != 5 || strings.Join(rows[0], ",") != "rank,player,stage,games,game_scores,table_points,penalty,total,tied" {
		t.Fatalf("the CSV %s reads %q (%v)", name, csv, err)
	}
	for _, r := range rows[1:] {
		score, _ := strconv.Atoi(r[4])
		total, _ := strconv.Atoi(r[7])
		want := map[bool]string{true: "10", false: "0"}[r[1] == "Ben"]
		if r[6] != want || total != score-map[bool]int{true: 10, false: 0}[r[1] == "Ben"] || !strings.Contains(standings, r[1]) {
			t.Errorf("CSV row %v: want penalty %s off the game score, as the page shows (%q)", r, want, standings)
		}
	}
	run(t, ctx, "export the game as MJAI", click("#game-mjai"))
	name, mjai := downloaded(t, ctx, 1)
	if name != "F1.mjai.jsonl" || !strings.Contains(mjai, `"type":"hora"`) {
		t.Errorf("the MJAI %s reads %.300q", name, mjai)
	}
}
