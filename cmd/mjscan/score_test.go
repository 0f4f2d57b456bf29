package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestScoreJSONLines checks the CONTRACT batch surface: one result line per
// input line, in order, ids echoed, bad lines answered with errors.
func TestScoreJSONLines(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"a","rules":"riichi","hand":"22444m333567p444s","win_tile":"4s","tsumo":true,"seat_wind":"S","round_wind":"E"}`,
		`this is not json`,
		``,
		`{"id":"c","rules":"nope","hand":"1m"}`,
		`{"id":"d","rules":"riichi","hand":"22444m333567p44s","win_tile":"4s"}`,
		strings.Repeat("x", maxLine+10),
		`{"id":"f","rules":"riichi","hand":"234789m12345666p","win_tile":"6p","tsumo":true,"riichi":true}`,
	}, "\n")
	var out bytes.Buffer
	if code := cmdScore([]string{"--jsonl"}, strings.NewReader(in), &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 7 {
		t.Fatalf("got %d lines for 7 inputs:\n%s", len(lines), out.String()[:min(2000, out.Len())])
	}
	want := []struct {
		id   string
		ok   bool
		code string
	}{
		{"a", true, ""}, {"", false, "bad_request"}, {"", false, "bad_request"}, {"c", false, "bad_request"},
		{"d", false, "wrong_tile_count"}, {"", false, "bad_request"}, {"f", true, ""},
	}
	for i, w := range want {
		var r struct {
			ID    string
			OK    bool
			Error *struct{ Code string }
		}
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if r.ID != w.id || r.OK != w.ok || (!w.ok && (r.Error == nil || r.Error.Code != w.code)) {
			t.Errorf("line %d = %s, want id %q ok %v code %q", i, lines[i], w.id, w.ok, w.code)
		}
	}
}

func TestScoreForAPerson(t *testing.T) {
	var out, errOut bytes.Buffer
	code := cmdScore([]string{"22444m333567p44s", "--win", "4s", "--tsumo", "--seat", "S"}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"Sanankou", "Tanyao", "Menzen Tsumo", "4 han 40 fu", "mangan", "Winner receives 8000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
