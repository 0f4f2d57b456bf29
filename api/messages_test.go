package api

import (
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// internals are pieces of Go's own error text that a player must never see.
var internals = []string{"json:", "Go struct", "Go value", "unmarshal", "must be a int", "of type", "int64", "float64", "main.", "scoring.", "newGame", "panic", "goroutine"}

func noInternals(t *testing.T, a *answer) {
	t.Helper()
	for _, k := range []string{"title", "detail"} {
		for _, bad := range internals {
			if strings.Contains(a.str(k), bad) {
				t.Errorf("%s shows Go internals (%q): %s", k, bad, a.str(k))
			}
		}
	}
}

// TestJSONErrorsInPlayerWords: a JSON body Go cannot decode is a 400 that
// names the field, what it must hold and what it held, or where the JSON
// breaks, on every JSON route; never Go's own words.
func TestJSONErrorsInPlayerWords(t *testing.T) {
	ts := newTournamentServer(t)
	cases := []struct {
		name, path, token, body string
		detail                  string // the player message, or a piece of it
	}{
		{"text field given a number", "/v1/scores", "", `{"rules":1}`,
			`the field "rules" has the wrong type: it must be text in quotes, not a number`},
		{"number field given text", "/v1/scores", "", `{"rules":"riichi","hand":"234m345p456s678s55p","nuki":"one"}`,
			`the field "nuki" has the wrong type: it must be a whole number, not text`},
		{"fraction", "/v1/scores", "", `{"rules":"riichi","nuki":1.5}`,
			`the field "nuki" must be a whole number, not 1.5`},
		{"huge number", "/v1/scores", "", `{"rules":"riichi","nuki":99999999999999999999}`,
			`the field "nuki" must be a whole number from -9223372036854775808 to 9223372036854775807, not 99999999999999999999`},
		{"exponent", "/v1/scores", "", `{"rules":"riichi","nuki":1e2}`,
			`the field "nuki" must be written as a whole number in digits, not 1e2`},
		{"flag given text", "/v1/scores", "", `{"rules":"riichi","tsumo":"yes"}`,
			`the field "tsumo" has the wrong type: it must be true or false, not text`},
		{"list item of the wrong kind", "/v1/scores", "", `{"rules":"riichi","melds":[1]}`,
			`the field "melds" is a list whose every item must be an object ({…}), not a number`},
		{"list given text", "/v1/scores", "", `{"rules":"riichi","melds":"123m"}`,
			`the field "melds" has the wrong type: it must be a list ([…]), not text`},
		{"nested field", "/v1/scores", "", `{"rules":"riichi","melds":[{"type":"chi","tiles":123}]}`,
			`the field "melds.tiles" has the wrong type: it must be text in quotes, not a number`},
		{"not an object", "/v1/scores", "", `[1,2]`,
			`the hand request must be an object ({…}), not a list`},
		{"broken JSON", "/v1/scores", "", `{"rules":"riichi",}`,
			`the hand request is not valid JSON: it breaks at character 19; look there for a missing quote, comma or brace`},
		{"cut short", "/v1/scores", "", `{"rules":"riichi","hand":`,
			`the hand request is not valid JSON: it ends too early, before a closing quote, bracket or brace`},
		{"two objects", "/v1/scores", "", `{"rules":"riichi"} {}`,
			`the hand request is not valid JSON: something follows it at character 20; send one JSON object only`},
		{"verify: the hand's field", "/v1/verify", "", `{"request":{"rules":"riichi","hand":5},"claim":{"points":1000}}`,
			`the field "request.hand" has the wrong type: it must be text in quotes, not a number`},
		{"verify: the claim's field", "/v1/verify", "", `{"request":{"rules":"riichi","hand":"234m345p456s678s55p"},"claim":{"points":"8000"}}`,
			`the field "claim.points" has the wrong type: it must be a whole number, not text`},
		{"verify: broken", "/v1/verify", "", `{"request":`,
			`the verification is not valid JSON: it ends too early, before a closing quote, bracket or brace`},
		// The attack's own message: "cannot unmarshal number into Go struct field newGame.rules".
		{"game: rules given a number", "/v1/games", testOrganizerToken, `{"id":"G1","table":"t1","rules":1,"players":["A","B","C","D"]}`,
			`the field "rules" has the wrong type: it must be text in quotes, not a number`},
		{"game: players of the wrong kind", "/v1/games", testOrganizerToken, `{"id":"G1","table":"t1","rules":"riichi","players":[1,2,3,4]}`,
			`the field "players" is a list whose every item must be text in quotes, not a number`},
		{"game: a misspelt field", "/v1/games", testOrganizerToken, `{"id":"G1","tabel":"t1"}`,
			`the request has no field "tabel": check its spelling against the API (/openapi.json)`},
		{"game: cut short", "/v1/games", testOrganizerToken, `{"id":"G1"`,
			`the request is not valid JSON: it ends too early, before a closing quote, bracket or brace`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := call(t, "POST", ts.URL+c.path, c.token, c.body)
			wantProblem(t, a, http.StatusBadRequest, scoring.CodeBadRequest)
			if a.str("detail") != c.detail {
				t.Errorf("detail\n  %s\nwant\n  %s", a.str("detail"), c.detail)
			}
			noInternals(t, a)
		})
	}
}

// TestTooLargeSaysWhatWasTooLarge: a JSON body over the limit is not
// called a photo; an upload over it is.
func TestTooLargeSaysWhatWasTooLarge(t *testing.T) {
	_, ts := newTestServer(t, nil, func(c *Config) { c.BodyLimit = 64 << 10 })
	big := strings.Repeat("1", 100<<10)
	a := postJSON(t, ts.URL+"/v1/scores", `{"rules":"riichi","hand":"`+big+`"}`)
	wantProblem(t, a, http.StatusRequestEntityTooLarge, codeTooLarge)
	if d := a.str("detail"); d != "the request is larger than 64 KB, the most the service reads: send less" {
		t.Errorf("JSON body too large: %q", d)
	}
	a = postJSON(t, ts.URL+"/v1/verify", `{"request":{"rules":"riichi","hand":"`+big+`"},"claim":{"points":1}}`)
	wantProblem(t, a, http.StatusRequestEntityTooLarge, codeTooLarge)
	if strings.Contains(a.str("detail"), "photo") {
		t.Errorf("a JSON route speaks of a photo: %q", a.str("detail"))
	}
	a = postPhoto(t, ts.URL+"/v1/recognitions", []byte(big), nil, "")
	wantProblem(t, a, http.StatusRequestEntityTooLarge, codeTooLarge)
	if d := a.str("detail"); d != "the upload is larger than 64 KB: send a smaller photo" {
		t.Errorf("upload too large: %q", d)
	}
}

// TestProblemTitles: the general bad_request code on a 409 or 422 is not
// titled as a request that could not be read; a 400 still is.
func TestProblemTitles(t *testing.T) {
	for _, c := range []struct {
		status int
		code   string
		title  string
	}{
		{400, scoring.CodeBadRequest, "The request could not be read"},
		{409, scoring.CodeBadRequest, "Not possible in the current state"},
		{422, scoring.CodeBadRequest, "The request cannot be carried out"},
		{404, codeNotFound, "Not found"},
		{422, scoring.CodeNotAWin, "Not a winning hand"},
		{409, codeIdemInFlight, "Idempotency-Key in use"},
		{418, "no_such_code", "I'm a teapot"},
	} {
		if got := problem(c.status, c.code, "x").Title; got != c.title {
			t.Errorf("problem(%d, %s) title %q, want %q", c.status, c.code, got, c.title)
		}
	}
	// Over HTTP: a second game with the same id.
	ts := newTournamentServer(t)
	if a := call(t, "POST", ts.URL+"/v1/games", testOrganizerToken, gameBody); a.status != http.StatusCreated && a.status != http.StatusOK {
		t.Fatalf("first game: %d %s", a.status, a.body)
	}
	a := call(t, "POST", ts.URL+"/v1/games", testOrganizerToken, gameBody)
	wantProblem(t, a, http.StatusConflict, scoring.CodeBadRequest)
	if a.str("title") != "Not possible in the current state" {
		t.Errorf("409 titled %q", a.str("title"))
	}
}

// TestVerifyUnreadableHandIs400: a hand /v1/scores cannot read is the same
// 400 problem from /v1/verify, not a 200 "Disagree".
func TestVerifyUnreadableHandIs400(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	for _, hand := range []string{
		`{"rules":"riichi","hand":"234m345p456s678s55x"}`,
		`{"rules":"riichi","hand":"234m345p456s55p","win_tile":"8s","melds":[{"type":"chi","tiles":"678s","from":"left"}],"seat_wind":"S","round_wind":"E"}`,
		`{"rules":"mcr","hand":"123m","options":{"no_such_option":1}}`,
	} {
		sc := postJSON(t, ts.URL+"/v1/scores", hand)
		wantProblem(t, sc, http.StatusBadRequest, scoring.CodeBadRequest)
		v := postJSON(t, ts.URL+"/v1/verify", `{"request":`+hand+`,"claim":{"points":8000}}`)
		wantProblem(t, v, http.StatusBadRequest, scoring.CodeBadRequest)
		for _, k := range []string{"title", "detail", "type", "code"} {
			if v.str(k) != sc.str(k) {
				t.Errorf("%s: verify's %s %q, scores' %q", hand, k, v.str(k), sc.str(k))
			}
		}
		if v.json["ok"] != false || v.json["error"] == nil {
			t.Errorf("verify's 400 does not carry the result as /v1/scores does: %s", v.body)
		}
	}
	// A hand that reads but does not win is still a verdict.
	v := postJSON(t, ts.URL+"/v1/verify", `{"request":{"rules":"riichi","hand":"1234m345p456s678s5p","win_tile":"5p","seat_wind":"E","round_wind":"E"},"claim":{"points":8000}}`)
	if v.status != http.StatusOK || v.json["agree"] != false {
		t.Errorf("a hand that does not win: %d %s", v.status, v.body)
	}
}

// TestEnginePanicIs500: an engine that panics is the service's failure: a
// 500 with no internals shown (the panic and its stack go to the log), not
// a bad_request, on both routes that score.
func TestEnginePanicIs500(t *testing.T) {
	old := scoreHand
	t.Cleanup(func() { scoreHand = old })
	scoreHand = func(*scoring.Request) (scoring.Result, error) {
		return scoring.Result{}, &rulebook.PanicError{Value: "index out of range [7] with length 3", Stack: []byte("goroutine 7 [running]:")}
	}
	var logs syncBuffer
	s, err := New(DefaultConfig(), Deps{Version: "test", Log: log.New(&logs, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	ts := srv.URL
	hand := `{"rules":"riichi","hand":"234m345p456s678s55p","win_tile":"8s"}`
	for path, body := range map[string]string{"/v1/scores": hand, "/v1/verify": `{"request":` + hand + `,"claim":{"points":1000}}`} {
		a := postJSON(t, ts+path, body)
		wantProblem(t, a, http.StatusInternalServerError, codeInternal)
		noInternals(t, a)
		if strings.Contains(string(a.body), "index out of range") {
			t.Errorf("%s shows the panic: %s", path, a.body)
		}
	}
	if l := logs.String(); !strings.Contains(l, "index out of range") || !strings.Contains(l, "goroutine 7") {
		t.Errorf("the panic and its stack are not in the log: %q", l)
	}
}
