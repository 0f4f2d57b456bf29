package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

const readmeHand = `{"id":"c1","rules":"riichi","hand":"234m345p456s678s55p","win_tile":"8s","tsumo":true,"riichi":true,"seat_wind":"S","round_wind":"E"}`

func TestScoreKnownRiichiHand(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := postJSON(t, ts.URL+"/v1/scores", readmeHand)
	if a.status != http.StatusOK {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	if a.str("id") != "c1" || a.json["ok"] != true || a.num("han") != 4 || a.num("fu") != 20 {
		t.Errorf("want c1 ok 4 han 20 fu, got %s", a.body)
	}
	pts := a.json["points"].(map[string]any)
	if pts["total"].(float64) != 5200 {
		t.Errorf("points.total %v, want 5200", pts["total"])
	}
	if pays, _ := pts["payments"].([]any); len(pays) != 3 {
		t.Errorf("want 3 payments (dealer and two others), got %v", pts["payments"])
	}
	if a.json["breakdown"] == nil {
		t.Error("no breakdown")
	}
	v, _ := a.json["versions"].(map[string]any)
	if v["engine"] != "test" || v["rules"] != "riichi" || v["api"] != "v1" || v["rule_set"] == "" {
		t.Errorf("versions %v", v)
	}
	if h := a.header.Get("Mjscan-Version"); !strings.Contains(h, "engine=test") {
		t.Errorf("Mjscan-Version header %q", h)
	}
}

// TestScoreEveryRuleSet sends the first cases of every public corpus
// through HTTP and checks that the service answers exactly what the engine
// does, for every rule set the rulebook has (and a clear 400 for the ones
// it does not have yet).
func TestScoreEveryRuleSet(t *testing.T) {
	dir := corporaDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no corpora in %s", dir)
	}
	_, ts := newTestServer(t, nil, nil)
	seen := map[string]int{}
	for _, f := range files {
		for _, line := range firstLines(t, f, 15) {
			req, e := scoring.DecodeRequest(line)
			if e != nil {
				t.Fatalf("%s: %v", f, e)
			}
			a := postJSON(t, ts.URL+"/v1/scores", string(line))
			if _, ok := rulebook.Lookup(req.Rules); !ok {
				wantProblem(t, a, http.StatusBadRequest, scoring.CodeBadRequest)
				continue
			}
			seen[req.Rules]++
			want := rulebook.Score(&req)
			switch {
			case want.OK && a.status != http.StatusOK:
				t.Errorf("%s: status %d for a scoring hand: %s", req.ID, a.status, a.body)
			case !want.OK:
				wantProblem(t, a, scoringStatus(want.Error.Code), want.Error.Code)
			}
			// Every member of the engine's result comes back unchanged.
			wb, _ := json.Marshal(want)
			var wm map[string]any
			json.Unmarshal(wb, &wm)
			for k, wv := range wm {
				if !reflect.DeepEqual(a.json[k], wv) {
					t.Errorf("%s: %q = %v over HTTP, %v from the engine", req.ID, k, a.json[k], wv)
				}
			}
		}
	}
	for _, name := range rulebook.Names() {
		if seen[name] == 0 && name != "sanma" {
			t.Errorf("rule set %s has no corpus case sent through HTTP", name)
		}
	}
	t.Logf("cases per rule set over HTTP: %v", seen)
}

func corporaDir(t testing.TB) string {
	t.Helper()
	d, err := corpus.Dir()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func firstLines(t testing.TB, path string, n int) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out [][]byte
	for sc.Scan() && len(out) < n {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, []byte(l))
		}
	}
	return out
}

func TestScoreErrors(t *testing.T) {
	_, ts := newTestServer(t, nil, func(c *Config) { c.BodyLimit = 64 << 10 })
	cases := []struct {
		name, body string
		status     int
		code       string
		detail     string // a piece of the player message
	}{
		{"bad JSON", `{"rules":"riichi","hand":`, 400, scoring.CodeBadRequest, "not valid JSON"},
		{"wrong type", `{"rules":"riichi","hand":123}`, 400, scoring.CodeBadRequest, "wrong type"},
		{"empty body", ``, 400, scoring.CodeBadRequest, "empty"},
		{"no rule set", `{"hand":"234m345p456s678s55p"}`, 400, scoring.CodeBadRequest, "which rule set"},
		{"unknown rule set", `{"rules":"poker","hand":"234m345p456s678s55p"}`, 400, scoring.CodeBadRequest, "unknown rule set"},
		{"bad tile", `{"rules":"riichi","hand":"234m345p456s678s55x"}`, 400, scoring.CodeBadRequest, "hand"},
		{"not a win", `{"rules":"riichi","hand":"1234m345p456s678s5p","win_tile":"5p","seat_wind":"E","round_wind":"E"}`, 422, scoring.CodeNotAWin, ""},
		{"win tile not in hand", `{"rules":"riichi","hand":"234m345p456s55p","win_tile":"8s","melds":[{"type":"chi","tiles":"678s","from":"left"}],"seat_wind":"S","round_wind":"E"}`, 400, scoring.CodeBadRequest, "win_tile"},
		{"too many copies", `{"rules":"riichi","hand":"11111m345p456s678s","win_tile":"8s","seat_wind":"S","round_wind":"E"}`, 422, scoring.CodeTooManyCopies, ""},
		{"wrong tile count", `{"rules":"riichi","hand":"234m345p456s678s5p","win_tile":"8s","seat_wind":"S","round_wind":"E"}`, 422, scoring.CodeWrongTileCount, ""},
		{"too many tiles", `{"rules":"riichi","hand":"234m345p456s678s55p11z","win_tile":"8s","seat_wind":"S","round_wind":"E"}`, 422, scoring.CodeWrongTileCount, ""},
		{"too big", `{"rules":"riichi","hand":"` + strings.Repeat("1", 100<<10) + `"}`, 413, codeTooLarge, "64 KB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := postJSON(t, ts.URL+"/v1/scores", c.body)
			wantProblem(t, a, c.status, c.code)
			if !strings.Contains(a.str("detail"), c.detail) {
				t.Errorf("detail %q does not say %q", a.str("detail"), c.detail)
			}
			if c.status == 422 {
				// A hand that does not score still reads as a CONTRACT result.
				if a.json["ok"] != false || a.json["error"] == nil || a.json["rules"] != "riichi" {
					t.Errorf("422 body is not a result: %s", a.body)
				}
			}
		})
	}
}

func TestScoreNoYakuIsUnprocessable(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	// An open hand with a terminal chow and nothing else: no yaku.
	a := postJSON(t, ts.URL+"/v1/scores", `{"rules":"riichi","hand":"234m345p456s55p9s","win_tile":"9s","melds":[{"type":"chi","tiles":"789s","from":"left"}],"seat_wind":"S","round_wind":"E"}`)
	if a.status == http.StatusOK {
		t.Fatalf("a hand without yaku scored: %s", a.body)
	}
	wantProblem(t, a, 422, a.str("code"))
	if c := a.str("code"); c != scoring.CodeNoYaku && c != scoring.CodeNotAWin && c != scoring.CodeWrongTileCount {
		t.Errorf("code %q", c)
	}
}

func TestRouteErrors(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	wantProblem(t, get(t, ts.URL+"/v1/nothing"), 404, codeNotFound)
	wantProblem(t, get(t, ts.URL+"/v1/scores"), 405, codeMethod)
	ct, body := multipartBody(t, []byte("x"), nil)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/scores", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", ct)
	wantProblem(t, do(t, req), 415, codeUnsupportedType)
}

func TestRules(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := get(t, ts.URL+"/v1/rules")
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	rules := a.json["rules"].([]any)
	if len(rules) != len(rulebook.Names()) {
		t.Fatalf("%d rule sets listed, rulebook has %d", len(rules), len(rulebook.Names()))
	}
	first := rules[0].(map[string]any)
	if first["name"] == "" || first["presets"] == nil || first["version"] == "" {
		t.Errorf("rule set entry %v", first)
	}
}

func TestNotation(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := get(t, ts.URL+"/v1/notation?mpsz=234m345p55s%2C678%3Ds")
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	if a.str("hand") != "234m345p55s" || a.str("win_tile") != "5s" || len(a.json["tiles"].([]any)) != 8 {
		t.Errorf("notation %s", a.body)
	}
	m := a.json["melds"].([]any)[0].(map[string]any)
	if m["type"] != "pon" && m["type"] != "chi" {
		t.Errorf("meld %v", m)
	}
	wantProblem(t, get(t, ts.URL+"/v1/notation?mpsz=12x"), 400, scoring.CodeBadRequest)
	wantProblem(t, get(t, ts.URL+"/v1/notation"), 400, scoring.CodeBadRequest)
	if a.str("mpsz") != "234m345p55s,678=s" {
		t.Errorf("notation's mpsz %q", a.str("mpsz"))
	}
}

// TestNotationMCR: with notation=mcr the MCR tools' brackets are read (C is
// the red dragon, 7z in CONTRACT codes; ",2" a pung from across; a bare
// kong concealed) and answered in CONTRACT codes; an unknown notation is
// refused in words.
func TestNotationMCR(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := get(t, ts.URL+"/v1/notation?notation=mcr&mpsz="+url.QueryEscape("[CCC,2][5555p]234m67s8s55m"))
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	if a.str("hand") != "234m678s55m" || a.str("win_tile") != "5m" || a.str("mpsz") != "234m678s55m,777=z,5555p" {
		t.Errorf("mcr notation read as %s", a.body)
	}
	melds := a.json["melds"].([]any)
	if len(melds) != 2 || melds[0].(map[string]any)["type"] != "pon" || melds[0].(map[string]any)["from"] != "across" || melds[1].(map[string]any)["type"] != "ankan" {
		t.Errorf("mcr melds %v", melds)
	}
	wantProblem(t, get(t, ts.URL+"/v1/notation?notation=mcr&mpsz=0m"), 400, scoring.CodeBadRequest)
	b := get(t, ts.URL+"/v1/notation?notation=tenhou&mpsz=123m")
	wantProblem(t, b, 400, scoring.CodeBadRequest)
	if !strings.Contains(b.str("detail"), "use mpsz") {
		t.Errorf("unknown notation: %s", b.body)
	}
}

// TestRulesListTheirTiles: GET /v1/rules says which rule sets play with
// jokers, kings and queens, so that a palette offers them there only.
func TestRulesListTheirTiles(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	a := get(t, ts.URL+"/v1/rules")
	got := map[string]string{}
	for _, r := range a.json["rules"].([]any) {
		m := r.(map[string]any)
		var codes []string
		for _, c := range m["tiles"].([]any) {
			codes = append(codes, c.(string))
		}
		got[m["name"].(string)] = strings.Join(codes, " ")
	}
	if got["riichi"] != "" || got["mcr"] != "" || got["american"] != "9j" || !strings.Contains(got["vietnamese"], "1k") || !strings.Contains(got["vietnamese"], "8j") {
		t.Errorf("rule set tiles %v", got)
	}
}

func TestVerify(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	verify := func(claim string) *answer {
		return postJSON(t, ts.URL+"/v1/verify", fmt.Sprintf(`{"request":%s,"claim":%s}`, readmeHand, claim))
	}
	a := verify(`{"points":5200,"han":4,"fu":20}`)
	if a.status != 200 || a.json["agree"] != true {
		t.Fatalf("correct claim not agreed: %s", a.body)
	}
	if !strings.HasPrefix(a.str("summary"), "Agree") || len(a.json["checks"].([]any)) != 3 {
		t.Errorf("summary/checks: %s", a.body)
	}
	a = verify(`{"points":3900,"han":3}`)
	if a.status != 200 || a.json["agree"] != false {
		t.Fatalf("wrong claim agreed: %s", a.body)
	}
	for _, want := range []string{"points claimed 3900, computed 5200", "han claimed 3, computed 4", "5200 points"} {
		if !strings.Contains(a.str("summary"), want) {
			t.Errorf("summary %q does not say %q", a.str("summary"), want)
		}
	}
	res := a.json["result"].(map[string]any)
	if res["breakdown"] == nil || res["han"].(float64) != 4 {
		t.Errorf("verdict result: %v", res)
	}

	// A hand that does not win cannot earn any claim.
	a = postJSON(t, ts.URL+"/v1/verify", `{"request":{"rules":"riichi","hand":"1234m345p456s678s5p","seat_wind":"E","round_wind":"E"},"claim":{"points":1000}}`)
	if a.status != 200 || a.json["agree"] != false || !strings.Contains(a.str("summary"), "does not score") {
		t.Errorf("not-a-win verdict: %s", a.body)
	}

	wantProblem(t, postJSON(t, ts.URL+"/v1/verify", `{"request":`+readmeHand+`,"claim":{}}`), 400, scoring.CodeBadRequest)
	wantProblem(t, postJSON(t, ts.URL+"/v1/verify", `{"claim":{"points":1}}`), 400, scoring.CodeBadRequest)
	wantProblem(t, postJSON(t, ts.URL+"/v1/verify", `{"request":{"rules":"go","hand":"1m"},"claim":{"points":1}}`), 400, scoring.CodeBadRequest)
	wantProblem(t, postJSON(t, ts.URL+"/v1/verify", `{"request":`), 400, scoring.CodeBadRequest)
}

// TestVerifyLowerReading: 222333444m can be three pungs or three chows;
// the claim of the reading that pays less is recognised as such.
func TestVerifyLowerReading(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	hand := `{"rules":"riichi","hand":"222333444m567p88s","win_tile":"4m","riichi":true,"seat_wind":"S","round_wind":"E"}`
	req, _ := scoring.DecodeRequest([]byte(hand))
	res := rulebook.Score(&req)
	var alts []scoring.Alternative
	if w, ok := res.Breakdown.(scoring.Weighed); ok {
		alts = w.Readings()
	}
	if !res.OK || len(alts) < 2 {
		t.Fatalf("want a scoring hand with several readings, got ok=%v %d readings: %+v", res.OK, len(alts), res.Error)
	}
	var lower *scoring.Worth
	for _, a := range alts {
		if !a.Chosen && a.Worth.Han != nil {
			lower = &a.Worth
			break
		}
	}
	if lower == nil {
		t.Fatalf("no other reading in %v", alts)
	}
	claim := fmt.Sprintf(`{"han":%v,"fu":%v}`, *lower.Han, *lower.Fu)
	if *lower.Han == res.Han && *lower.Fu == res.Fu {
		t.Fatalf("the readings pay alike: pick a hand whose readings differ")
	}
	a := postJSON(t, ts.URL+"/v1/verify", `{"request":`+hand+`,"claim":`+claim+`}`)
	if a.json["agree"] != false || a.json["matching_reading"] == nil || a.json["highest_reading"] == nil {
		t.Fatalf("verdict on the lower reading: %s", a.body)
	}
	if !strings.Contains(a.str("summary"), "another reading") {
		t.Errorf("summary %q", a.str("summary"))
	}
}

// TestVerifyEveryRuleSet: for the first scoring corpus hand of each rule
// set, the computed total is agreed and a total one point off is not; the
// rule set's own measure (fan, value or score) is checked the same way.
func TestVerifyEveryRuleSet(t *testing.T) {
	dir := corporaDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	_, ts := newTestServer(t, nil, nil)
	done := map[string]bool{}
	for _, f := range files {
		for _, line := range firstLines(t, f, 40) {
			req, _ := scoring.DecodeRequest(line)
			if done[req.Rules] {
				continue
			}
			if _, ok := rulebook.Lookup(req.Rules); !ok {
				continue
			}
			res := rulebook.Score(&req)
			if !res.OK {
				continue
			}
			done[req.Rules] = true
			claim := fmt.Sprintf(`{"points":%d`, res.Points.Total)
			for _, m := range []struct {
				name string
				v    int
			}{{"fan", res.Fan}, {"value", resultValue(&res)}, {"score", res.Score}, {"han", res.Han}} {
				if m.v != 0 {
					claim += fmt.Sprintf(`,%q:%d`, m.name, m.v)
				}
			}
			a := postJSON(t, ts.URL+"/v1/verify", `{"request":`+string(line)+`,"claim":`+claim+`}}`)
			if a.status != 200 || a.json["agree"] != true {
				t.Errorf("%s (%s): the engine's own score is not agreed: %s", req.ID, req.Rules, a.body)
			}
			a = postJSON(t, ts.URL+"/v1/verify", `{"request":`+string(line)+`,"claim":{"points":`+fmt.Sprint(res.Points.Total+1)+`}}`)
			if a.status != 200 || a.json["agree"] != false || !strings.Contains(a.str("summary"), "Disagree") {
				t.Errorf("%s (%s): a wrong total is agreed: %s", req.ID, req.Rules, a.body)
			}
		}
	}
	for _, name := range rulebook.Names() {
		if !done[name] && name != "sanma" {
			t.Errorf("no scoring corpus hand verified for %s", name)
		}
	}
}

// resultValue is a result's value, 0 in a rule set that counts none.
func resultValue(r *scoring.Result) int {
	if r.Value == nil {
		return 0
	}
	return *r.Value
}
