package api

import (
	"encoding/json"
	"strings"
	"testing"

	"mjscan/scoring"
)

// TestRecognitionHand: the page sends a recognition's corrected tiles and
// its groups and gets the hand the service builds by the recogniser's own
// rule, the winning tile set apart included; bad input is a 400 that says
// what is wrong.
func TestRecognitionHand(t *testing.T) {
	_, ts := newTestServer(t, nil, nil)
	rec := handRecognition()
	tiles, _ := json.Marshal(rec.Tiles)
	body := `{"tiles":` + string(tiles) + `,"groups":[{"kind":"hand","tiles":[0,1,2,3,4,5,6,7,8,9,10,11,12]},{"kind":"win","tiles":[13]}]}`
	a := postJSON(t, ts.URL+"/v1/recognitions/hand", body)
	if a.status != 200 {
		t.Fatalf("%d %s", a.status, a.body)
	}
	var out GroupedHand
	if err := json.Unmarshal(a.body, &out); err != nil {
		t.Fatal(err)
	}
	if !out.Complete || out.Hand.Hand != "234m345p45667s55p8s" || out.Hand.WinTile != "8s" {
		t.Errorf("hand %+v complete=%v", out.Hand, out.Complete)
	}
	res := rulebookScore(&scoring.Request{Rules: "riichi", Hand: out.Hand.Hand, WinTile: out.Hand.WinTile, Tsumo: true, Riichi: true, SeatWind: "S"})
	if !res.OK || res.Points.Total != 5200 {
		t.Errorf("the hand built scores %+v", res)
	}

	// No groups: every tile is the hand.
	a = postJSON(t, ts.URL+"/v1/recognitions/hand", `{"tiles":[{"tile":"1m"},{"tile":"0p"}],"groups":[]}`)
	if a.status != 200 || !strings.Contains(string(a.body), `"hand":"1m0p"`) {
		t.Errorf("no groups: %d %s", a.status, a.body)
	}
	for _, c := range []struct{ body, says string }{
		{`{"tiles":[{"tile":"1m"}],"groups":[{"kind":"hand","tiles":[3]}]}`, "names tile 3"},
		{`{"tiles":[{"tile":"8z"}],"groups":[]}`, "8z is not a tile"},
		{`{"tiles":[{"tile":"1m"}],"groups":[{"kind":"pile","tiles":[0]}]}`, `"pile"`},
	} {
		a := postJSON(t, ts.URL+"/v1/recognitions/hand", c.body)
		wantProblem(t, a, 400, scoring.CodeBadRequest)
		if !strings.Contains(a.str("detail"), c.says) {
			t.Errorf("%s: detail %q does not say %q", c.body, a.str("detail"), c.says)
		}
	}
}
