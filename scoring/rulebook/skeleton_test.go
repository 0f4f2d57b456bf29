package rulebook

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
)

// aHand parses under every rule set: what an option check needs to reach.
func aHand(rules string) *scoring.Request {
	return &scoring.Request{ID: "o", Rules: rules, Hand: "123m456p789s234s55m", WinTile: "5m", SeatWind: "S", RoundWind: "E"}
}

// TestUnknownOptionsAreRefused: every rule set refuses an option it does
// not read, in the same words, naming the option, the rule set and the
// options it has. (A misspelt option used to be ignored by every rule set
// but MCR, and the hand scored as if it had not been sent.)
func TestUnknownOptionsAreRefused(t *testing.T) {
	for _, name := range Names() {
		e, _ := Lookup(name)
		r := aHand(name)
		r.Options = map[string]any{"kiriage": true}
		res := Score(r)
		if res.OK || res.Error == nil || res.Error.Code != scoring.CodeBadRequest {
			t.Errorf("%s: an unknown option is not refused: %+v", name, res)
			continue
		}
		msg := res.Error.Message
		want := `option "kiriage" is not an option of rule set ` + name + "; its options are " + strings.Join(e.Options(), ", ")
		if msg != want {
			t.Errorf("%s: %q\nwant %q", name, msg, want)
		}
		r.Options = map[string]any{"zz": 1, "aa": 2}
		if res := Score(r); res.Error == nil || !strings.HasPrefix(res.Error.Message, `options "aa", "zz" are not options of rule set `+name+";") {
			t.Errorf("%s: two unknown options: %+v", name, res.Error)
		}
	}
}

// TestEveryOptionIsRead: each option a rule set lists is one it reads: a
// value of the wrong kind is refused with the option named. (An option
// listed but never read would be accepted and ignored.)
func TestEveryOptionIsRead(t *testing.T) {
	for _, name := range Names() {
		e, _ := Lookup(name)
		if len(e.Options()) == 0 {
			t.Errorf("%s lists no options", name)
		}
		for _, opt := range e.Options() {
			r := aHand(name)
			r.Options = map[string]any{opt: []any{}}
			res := Score(r)
			if res.Error == nil || res.Error.Code != scoring.CodeBadRequest || !strings.Contains(res.Error.Message, opt) {
				t.Errorf("%s: option %s set to [] is not refused by name: %+v", name, opt, res.Error)
			}
		}
	}
}

// TestPresetResolved: the engine resolves the preset once and the result
// names the one applied, with the request's id and rules.
func TestPresetResolved(t *testing.T) {
	for _, tc := range []struct{ rules, preset, want string }{
		{"riichi", "", "default"}, {"riichi", "sanma", "sanma"}, {"sanma", "", "sanma"}, {"sanma", "default", "default"},
		{"mcr", "", "default"}, {"mcr", "mcr-2006", "mcr-2006"},
		{"zung-jung", "", "zung-jung"}, {"zung-jung", "default", "zung-jung"}, {"wsm", "", "wsm"}, {"wsm", "default", "wsm"},
		{"hk", "", "default"}, {"classical", "old-chinese", "old-chinese"}, {"vietnamese", "", "default"}, {"american", "", "default"},
	} {
		r := aHand(tc.rules)
		r.Preset = tc.preset
		res := Score(r)
		if res.Preset != tc.want || res.ID != "o" || res.Rules != tc.rules || res.OK != (res.Error == nil) {
			t.Errorf("%s preset %q: got id %q rules %q preset %q ok %v (%v), want preset %q", tc.rules, tc.preset, res.ID, res.Rules, res.Preset, res.OK, res.Error, tc.want)
		}
	}
	r := aHand("sanma")
	r.Preset = "nope"
	if res := Score(r); res.Error == nil || res.Error.Message != `unknown sanma preset "nope": choose one of [default msmc-2016 sanma]` || res.Preset != "" {
		t.Errorf("unknown preset: %+v", res)
	}
}

// TestReadingsMatchBreakdown: for every corpus hand, the readings a
// breakdown gives a referee (scoring.Weighed) are the alternatives it
// shows, with the same chosen reading and the same worth.
func TestReadingsMatchBreakdown(t *testing.T) {
	dir, err := corpus.Dir()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	weighed := 0
	for _, f := range files {
		cases, err := corpus.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := range cases {
			res := Score(&cases[i].Request)
			var shown struct {
				Alternatives []map[string]any `json:"alternatives"`
			}
			b, _ := json.Marshal(res.Breakdown)
			_ = json.Unmarshal(b, &shown)
			w, ok := res.Breakdown.(scoring.Weighed)
			if !ok {
				if len(shown.Alternatives) > 0 {
					t.Fatalf("%s: the breakdown shows alternatives but does not list them (scoring.Weighed)", cases[i].Request.ID)
				}
				continue
			}
			alts := w.Readings()
			if len(alts) != len(shown.Alternatives) {
				t.Fatalf("%s: %d readings, %d alternatives shown", cases[i].Request.ID, len(alts), len(shown.Alternatives))
			}
			weighed += len(alts)
			for j, a := range alts {
				m := shown.Alternatives[j]
				var got map[string]any
				b, _ := json.Marshal(a.Shown)
				_ = json.Unmarshal(b, &got)
				if !reflect.DeepEqual(got, m) {
					t.Fatalf("%s reading %d: shown as %v, the breakdown has %v", cases[i].Request.ID, j, got, m)
				}
				chosen, _ := m["chosen"].(bool)
				if a.Chosen != chosen || a.Arrangement != m["arrangement"] && !(a.Arrangement == "" && m["arrangement"] == nil) {
					t.Fatalf("%s reading %d: chosen %v arrangement %q, shown %v", cases[i].Request.ID, j, a.Chosen, a.Arrangement, m)
				}
				for key, p := range map[string]*int{"han": a.Worth.Han, "fu": a.Worth.Fu, "yakuman": a.Worth.Yakuman, "total": a.Worth.Points, "value": a.Worth.Value, "score": a.Worth.Score} {
					v, present := m[key]
					if (p != nil) != present || p != nil && float64(*p) != v {
						t.Fatalf("%s reading %d: worth %s %v, shown %v", cases[i].Request.ID, j, key, p, v)
					}
				}
			}
		}
	}
	if weighed < 100 {
		t.Errorf("only %d readings weighed in the corpora", weighed)
	}
}
