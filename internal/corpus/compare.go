package corpus

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"mjscan/scoring"
)

// Compare checks a result against a corpus expectation field by field, as
// shared/corpora/compare.py does, and returns the fields that differ.
func Compare(expect map[string]any, res scoring.Result) []string {
	b, _ := json.Marshal(res)
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	var diffs []string
	differ := func(field string, want, have any) {
		diffs = append(diffs, fmt.Sprintf("%s: want %v, got %v", field, want, have))
	}
	if ok, _ := expect["ok"].(bool); !ok {
		wantCode := dig(expect, "error", "code")
		if gotCode := dig(got, "error", "code"); !reflect.DeepEqual(wantCode, gotCode) {
			differ("error.code", wantCode, gotCode)
		}
	}
	for _, f := range []string{"ok", "han", "fu", "yakuman", "limit", "fan", "value", "score"} {
		if want, present := expect[f]; present && !reflect.DeepEqual(want, got[f]) {
			differ(f, want, got[f])
		}
	}
	if want := dig(expect, "points", "total"); want != nil {
		if have := dig(got, "points", "total"); !reflect.DeepEqual(want, have) {
			differ("points.total", want, have)
		}
	}
	if want, present := expect["yaku"]; present && !yakuEqual(want, got["yaku"]) {
		differ("yaku", want, got["yaku"])
	}
	if want, present := expect["fans"]; present && !fansEqual(want, got["fans"]) {
		differ("fans", want, got["fans"])
	}
	return diffs
}

func dig(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

func yakuEqual(want, got any) bool {
	w, _ := want.([]any)
	g, _ := got.([]any)
	gm := map[float64]any{}
	for _, y := range g {
		m, _ := y.(map[string]any)
		id, _ := m["id"].(float64)
		if _, dup := gm[id]; dup {
			return false
		}
		gm[id] = m["han"]
	}
	if len(gm) != len(w) {
		return false
	}
	for _, y := range w {
		m, _ := y.(map[string]any)
		id, _ := m["id"].(float64)
		han, ok := gm[id]
		if !ok {
			return false
		}
		if wh, has := m["han"]; has && !reflect.DeepEqual(wh, han) {
			return false
		}
	}
	return true
}

func fansEqual(want, got any) bool {
	key := func(list any) []string {
		l, _ := list.([]any)
		var out []string
		for _, f := range l {
			m, _ := f.(map[string]any)
			out = append(out, fmt.Sprint(m["id"], "x", m["count"]))
		}
		sort.Strings(out)
		return out
	}
	return reflect.DeepEqual(key(want), key(got))
}
