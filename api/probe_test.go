package api

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/referee"
)

// Defects found by probing the running service as a hostile client
// (December 2026): each test failed before its fix.

// TestPathIDsWithControlCharacters: a NUL in a game's, tournament's or
// table's id in the path answered 500 on PostgreSQL (which refuses a NUL
// in any text it is sent) where SQLite answered 404. A name the record
// could never hold names nothing in it: 404 on both, as for any unknown
// id.
func TestPathIDsWithControlCharacters(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		for _, id := range []string{"%00", "Q%001", "%ff%fe", "%1b", strings.Repeat("x", referee.MaxNameLen+1)} {
			for _, r := range []struct{ method, path, token, body string }{
				{"GET", "/v1/games/" + id, testRefereeToken, ""},
				{"GET", "/v1/games/" + id + "/mjai", testRefereeToken, ""},
				{"POST", "/v1/games/" + id + "/hands", testRefereeToken, `{"outcome":"draw"}`},
				{"POST", "/v1/games/" + id + "/hands/1/correct", testRefereeToken, `{"outcome":"draw"}`},
				{"POST", "/v1/games/" + id + "/end", testOrganizerToken, ""},
				{"GET", "/v1/tournaments/" + id, testOrganizerToken, ""},
				{"POST", "/v1/tournaments/" + id + "/games", testOrganizerToken, `{"game":"Q1","stage":"final"}`},
				{"POST", "/v1/tournaments/" + id + "/penalties", testOrganizerToken, `{"player":"Aiko","points":-10,"reason":"late"}`},
				{"GET", "/v1/tables/" + id, testOrganizerToken, ""},
				{"GET", "/v1/tables/" + id + "/frame", testOrganizerToken, ""},
				{"POST", "/v1/tables/" + id + "/calibrate", testOrganizerToken, ""},
				{"POST", "/v1/tables/" + id + "/score-now", testRefereeToken, `{"seat":"S","request":{"rules":"riichi"}}`},
			} {
				a := s.call(r.method, r.path, r.token, r.body)
				if a.status != 404 {
					t.Errorf("%s %.60s: %d, want 404: %.200s", r.method, r.path, a.status, a.body)
					continue
				}
				wantProblem(t, a, 404, codeNotFound)
			}
		}
		// The game is untouched, and still found by its own id.
		if a := s.call("GET", "/v1/games/Q1", testRefereeToken, ""); a.status != 200 {
			t.Fatalf("Q1: %d %s", a.status, a.body)
		}
	})
}

// TestRecordPhotoLearnsNothingOfOtherTables: a table token asking for
// another table's record photo was answered 403 ("a table token sees its
// own table's records only") and for a record that does not exist 404, so
// it learned which record ids exist elsewhere (#16 A11, as GET
// /v1/records/{id} already answers). Both are now "no record with this
// id"; and a photo of an earlier game at the same table is not the
// token's either, as its record is not.
func TestRecordPhotoLearnsNothingOfOtherTables(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		if a := s.call("POST", "/v1/games/Q1/end", testOrganizerToken, ""); a.status != 200 {
			t.Fatalf("end Q1: %d %s", a.status, a.body)
		}
		own := s.newGameAt("Q3", "table 1", "msmc-2016")
		s.newGameAt("Q2", "table 2", "msmc-2016")
		earlier := storeRecord(t, s.store, "table 1", jpegLike(64, 1)) // game Q1, at the token's table
		theirs := storeRecord(t, s.store, "table 2", jpegLike(64, 2))
		missing := fmt.Sprintf("GET /v1/records/%d/photo", theirs.ID+1000)
		ask := func(req string) *answer {
			method, path, _ := strings.Cut(req, " ")
			return s.call(method, path, own, "")
		}
		for _, id := range []int64{theirs.ID, earlier.ID} {
			sameTourProblem(t, fmt.Sprintf("record %d's photo", id), ask(fmt.Sprintf("GET /v1/records/%d/photo", id)), ask(missing), 404)
			sameTourProblem(t, fmt.Sprintf("record %d", id), ask(fmt.Sprintf("GET /v1/records/%d", id)), ask(missing), 404)
		}
		// Staff still get the photo.
		if a := s.call("GET", fmt.Sprintf("/v1/records/%d/photo", theirs.ID), testRefereeToken, ""); a.status != 200 {
			t.Fatalf("referee reading the photo: %d %s", a.status, a.body)
		}
	})
}

// TestTrailingJSONRefused: the tournament routes read the first JSON
// value of a body and dropped what followed, so a second hand sent in the
// same body ({…}{…}) or trailing garbage was answered 200/201 as if the
// body were one hand. They now refuse it as /v1/scores does, and record
// nothing.
func TestTrailingJSONRefused(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		if a := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
			t.Fatalf("hand 1: %d %s", a.status, a.body)
		}
		for _, r := range []struct{ path, body, at string }{
			{"/v1/games/Q1/hands", `{"outcome":"draw"}{"outcome":"draw"}`, "19"},
			{"/v1/games/Q1/hands", "{\"outcome\":\"draw\"}\n x", "21"},
			{"/v1/games/Q1/hands/1/correct", `{"outcome":"draw"} []`, "20"},
			{"/v1/records/1/confirm", `{} {}`, "4"},
		} {
			a := s.call("POST", r.path, testRefereeToken, r.body)
			wantProblem(t, a, 400, "bad_request")
			if want := "something follows it at character " + r.at + "; send one JSON object only"; !strings.Contains(a.str("detail"), want) {
				t.Errorf("%s %q: detail %q, want it to say %q", r.path, r.body, a.str("detail"), want)
			}
		}
		a := s.call("GET", "/v1/games/Q1", testRefereeToken, "")
		if hands := a.json["hands"].([]any); len(hands) != 1 || a.json["corrected"] != nil {
			t.Fatalf("a refused body changed the game: %s", a.body)
		}
	})
}

// TestRecordRefusalSaidOnce: a control character in a hand's text was
// refused with its sentence said twice over ("the entry holds … text: the
// entry holds … text"), naming "the entry", the game log's, not the field
// the player sent. It is said once, naming the field.
func TestRecordRefusalSaidOnce(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		for _, path := range []string{"/v1/games/Q1/hands", "/v1/games/Q1/hands/1/correct"} {
			if path != "/v1/games/Q1/hands" {
				if a := s.call("POST", "/v1/games/Q1/hands", testRefereeToken, `{"outcome":"draw"}`); a.status != 201 {
					t.Fatalf("hand 1: %d %s", a.status, a.body)
				}
			}
			a := s.call("POST", path, testRefereeToken, `{"outcome":"draw","note":"late\u0007"}`)
			wantProblem(t, a, 400, "bad_request")
			d := a.str("detail")
			const want = `the request's "note" holds a control character (U+0007): remove it; only tabs and line breaks are allowed in this text`
			if d != want {
				t.Errorf("%s: detail %q, want %q", path, d, want)
			}
		}
	})
}

// TestConfirmNoteNamed: a confirmation's note that was too long or held a
// control character was refused as "ruling is 5084 characters long" or
// "ruling holds a control character", a field the referee never sent
// (the note goes into the ruling). The note is checked as the note, and
// the proposal still awaits the referee.
func TestConfirmNoteNamed(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		a := s.call("POST", "/v1/records", testRefereeToken, `{"table":"table 1","game":"Q1","hand":1,"asked_by":"table 1","rule_set":"riichi/msmc-2016",`+
			`"ruling":"proposed by the camera: awaiting the referee","request":{"rules":"riichi","hand":"234m234p234s678s55p","win_tile":"8s"},"computed":{"ok":true,"rules":"riichi"}}`)
		if a.status != 201 {
			t.Fatalf("proposal: %d %s", a.status, a.body)
		}
		at := fmt.Sprintf("/v1/records/%d/confirm", int(a.json["record"].(map[string]any)["id"].(float64)))
		for _, r := range []struct{ note, want string }{
			{strings.Repeat("a", 5000), "the note is 5000 characters long: say it in at most 500"},
			{`late\u0000`, "the note holds a control character (U+0000): remove it; only tabs and line breaks are allowed in it"},
		} {
			a := s.call("POST", at, testRefereeToken, `{"note":"`+r.note+`"}`)
			wantProblem(t, a, 400, "bad_request")
			if d := a.str("detail"); d != r.want {
				t.Errorf("note %.20q: detail %q, want %q", r.note, d, r.want)
			}
		}
		if a := s.call("POST", at, testRefereeToken, `{"note":"as read,\nchecked twice"}`); a.status != 201 {
			t.Fatalf("confirm with a fine note: %d %s", a.status, a.body)
		}
	})
}

// TestNotationNamesWholeCharacters: a character outside the notation
// was named by its first byte, so a mahjong tile emoji (U+1F004) came back
// as "unexpected 'ð'" and a byte that is not UTF-8 as 'ÿ'. The message
// names the character the player typed, and a broken byte as such.
func TestNotationNamesWholeCharacters(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	for _, c := range []struct{ query, want string }{
		{"notation=mcr&mpsz=%F0%9F%80%84", `unexpected '🀄': MCR notation uses`},
		{"notation=mcr&mpsz=%5B%F0%9F%80%84%5D", `unexpected '🀄': MCR notation uses`},
		{"notation=mcr&mpsz=%FF%FE", `unexpected byte 0xff (not UTF-8 text)`},
		{"mpsz=12%C3%A9m", `unexpected 'é': want a digit`},
		{"mpsz=123m,1%F0%9F%80%842m", `unexpected '🀄' in a meld`},
		{"mpsz=%FF", `unexpected byte 0xff (not UTF-8 text)`},
	} {
		a := get(t, ts.URL+"/v1/notation?"+c.query)
		wantProblem(t, a, 400, "bad_request")
		if d := a.str("detail"); !strings.Contains(d, c.want) {
			t.Errorf("%s: detail %q, want it to say %q", c.query, d, c.want)
		}
	}
}

// TestTableFramePNG: a camera may answer a PNG (the camera takes JPEG or
// PNG), but the frame was always labelled image/jpeg, with nosniff, so
// the desk was handed a PNG said to be a JPEG. The label is the frame's
// own.
func TestTableFramePNG(t *testing.T) {
	frame := pngOf(200, 100)
	cam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(frame) }))
	defer cam.Close()
	s := startTourService(t, referee.Config{SQLitePath: filepath.Join(t.TempDir(), "r.db")}, nil)
	if a := s.call("POST", "/v1/tables", testOrganizerToken, `{"table":"table 1","snapshot_url":"`+cam.URL+`/snapshot.png"}`); a.status != 201 {
		t.Fatalf("register: %d %s", a.status, a.body)
	}
	a := s.call("GET", "/v1/tables/table%201/frame", testOrganizerToken, "")
	if a.status != 200 || a.header.Get("Content-Type") != "image/png" || !bytes.Equal(a.body, frame) {
		t.Fatalf("a PNG frame: %d as %q, %d bytes", a.status, a.header.Get("Content-Type"), len(a.body))
	}
}

// TestIdempotencyMessagesFitTheRoute: a key reused with another body on a
// JSON route (recording a hand) was answered "already used for a
// different upload: use a new key for a new photo", and one still running
// "the first upload … is still being read": words for the photo routes
// only, as "send a smaller photo" was on JSON routes (#16 A14). They
// speak of the request, on every route.
func TestIdempotencyMessagesFitTheRoute(t *testing.T) {
	tourBackends(t, func(t *testing.T, c referee.Config) {
		s := startTourService(t, c, nil)
		s.newGameAt("Q1", "table 1", "msmc-2016")
		send := func(body string) *answer {
			req, _ := http.NewRequest("POST", s.u+"/v1/games/Q1/hands", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+testRefereeToken)
			req.Header.Set("Idempotency-Key", "hand-1")
			return do(t, req)
		}
		if a := send(`{"outcome":"draw"}`); a.status != 201 {
			t.Fatalf("hand 1: %d %s", a.status, a.body)
		}
		a := send(`{"outcome":"draw","note":"another"}`)
		wantProblem(t, a, 422, codeIdemConflict)
		if d, want := a.str("detail"), "this Idempotency-Key was already used with a different request: send a new key with each new request"; d != want {
			t.Errorf("key reused: %q, want %q", d, want)
		}
		if d, want := idemInFlight().Detail, "the first request with this Idempotency-Key is still running: try again in a moment"; d != want {
			t.Errorf("key in flight: %q, want %q", d, want)
		}
	})
}

// TestForbiddenSaysAnOrganiser: the organiser's token on a referee's
// route was told "a organizer token may not do this".
func TestForbiddenSaysAnOrganiser(t *testing.T) {
	ts := newTournamentServer(t)
	for token, want := range map[string]string{
		testOrganizerToken: "an organizer token may not do this; ask the referee",
		testRefereeToken:   "a referee token may not do this; ask the organizer",
	} {
		path := "/v1/records"
		if token == testRefereeToken {
			path = "/v1/standings"
		}
		a := call(t, "POST", ts.URL+path, token, `{}`)
		if path == "/v1/standings" {
			a = call(t, "GET", ts.URL+path, token, "")
		}
		wantProblem(t, a, 403, codeForbidden)
		if d := a.str("detail"); d != want {
			t.Errorf("%s: %q, want %q", path, d, want)
		}
	}
}
