package rulebook

import (
	"encoding/json"
	"testing"

	"mjscan/internal/corpus"
	"mjscan/scoring"
)

func TestUnknownRuleSet(t *testing.T) {
	res := Score(&scoring.Request{ID: "x", Rules: "poker", Hand: "123m"})
	if res.OK || res.Error == nil || res.Error.Code != scoring.CodeBadRequest || res.ID != "x" {
		t.Fatalf("got %+v", res)
	}
}

func TestBadJSONIsABadRequest(t *testing.T) {
	for _, line := range []string{`{`, `[]`, `{"hand": 5}`, `null`} {
		res := ScoreJSON([]byte(line))
		if res.OK || res.Error == nil || res.Error.Code != scoring.CodeBadRequest {
			t.Errorf("%s: got %+v", line, res)
		}
	}
}

// FuzzScoreJSON drives the whole path from request bytes to result: any
// input must give a result, never a panic, and a result that is ok must
// carry no error.
func FuzzScoreJSON(f *testing.F) {
	for _, name := range []string{"riichi_lib.jsonl", "mcr_lib.jsonl", "zung_jung_public.jsonl", "wsm_public.jsonl",
		"hk_public.jsonl", "classical_public.jsonl", "vietnamese_public.jsonl", "american_public.jsonl"} {
		cases, err := corpus.Load(name)
		if err != nil {
			f.Fatal(err)
		}
		for i, c := range cases {
			if i%8 == 0 {
				f.Add([]byte(c.Raw))
			}
		}
	}
	f.Add([]byte(`{"id":"a","rules":"sanma","hand":"111m456p123456s99p","win_tile":"9p","nuki":2,"riichi":true}`))
	f.Add([]byte(`{"rules":"riichi","hand":"19m19p19s12345677z","melds":[{"type":"ankan","tiles":"1111z"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res := ScoreJSON(data)
		if res.OK == (res.Error != nil) {
			t.Fatalf("ok=%v with error %+v", res.OK, res.Error)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
	})
}
