package app

import (
	"context"
	"reflect"
	"testing"

	"mjscan/calibration"
	"mjscan/scoring"
	"mjscan/vision"
)

// TestMerge is the one rule for a photo and the situation a player sent:
// the player's situation fields always, the photo's tiles unless the
// player sent tiles.
func TestMerge(t *testing.T) {
	seen := &scoring.Request{Hand: "234m345p456s678s55p", WinTile: "8s",
		Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "777z"}}, Flowers: "1f", DoraIndicators: "3z",
		SeatWind: "N", Tsumo: true} // a photo's hand carries no situation; these must not leak through
	for _, c := range []struct {
		name string
		sit  scoring.Request
		want scoring.Request
	}{
		{"situation only: the photo gives every tile",
			scoring.Request{Rules: "riichi", SeatWind: "S", Riichi: true},
			scoring.Request{ID: "id", Rules: "riichi", SeatWind: "S", Riichi: true, Hand: "234m345p456s678s55p", WinTile: "8s",
				Melds: seen.Melds, Flowers: "1f", DoraIndicators: "3z"}},
		{"a hand sent is sent whole: no melds or win tile of the photo's",
			scoring.Request{ID: "mine", Rules: "riichi", Hand: "123m456p789s11222z"},
			scoring.Request{ID: "mine", Rules: "riichi", Hand: "123m456p789s11222z", Flowers: "1f", DoraIndicators: "3z"}},
		{"a win tile sent picks the winning tile among the photo's",
			scoring.Request{Rules: "riichi", WinTile: "5p"},
			scoring.Request{ID: "id", Rules: "riichi", Hand: "234m345p456s678s55p", WinTile: "5p", Melds: seen.Melds, Flowers: "1f", DoraIndicators: "3z"}},
		{"melds, flowers and dora sent are the player's",
			scoring.Request{Rules: "mcr", Melds: []scoring.MeldSpec{{Type: "chi", Tiles: "123m"}}, Flowers: "2f", DoraIndicators: "1m"},
			scoring.Request{ID: "id", Rules: "mcr", Hand: "234m345p456s678s55p", WinTile: "8s", Melds: []scoring.MeldSpec{{Type: "chi", Tiles: "123m"}}, Flowers: "2f", DoraIndicators: "1m"}},
	} {
		sit := c.sit
		got := Merge(&sit, seen, "id")
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, *got, c.want)
		}
		if !reflect.DeepEqual(sit, c.sit) {
			t.Errorf("%s: the situation was changed", c.name)
		}
	}
	if got := Merge(&scoring.Request{Rules: "riichi"}, nil, "id"); got.Hand != "" || got.ID != "id" {
		t.Errorf("nothing seen: %+v", got)
	}
}

// fixedReader reads the same recognition from every photo.
type fixedReader struct{ rec vision.Recognition }

func (f fixedReader) Recognize(context.Context, []byte) (*vision.Recognition, error) {
	rec := f.rec
	return &rec, nil
}

// frameCamera answers the same frame to every snapshot.
type frameCamera []byte

func (f frameCamera) Snapshot(context.Context, string) ([]byte, error) { return f, nil }

// TestSnapAndScoreNowMergeAlike: a player who corrects a misread photo by
// sending the hand gets that hand scored by snap-and-score and by the
// table camera's score-now alike. (Score-now used to keep the photo's
// hand and drop the player's.)
func TestSnapAndScoreNowMergeAlike(t *testing.T) {
	frame := tableFrame(t, "table-empty.jpg")
	cal, err := calibration.Calibrate(frame, calibration.GreenFelt, "E")
	if err != nil {
		t.Fatal(err)
	}
	misread := vision.Recognition{OK: true, Hand: &scoring.Request{Hand: "234m345p456s678s59p", WinTile: "8s", DoraIndicators: "3z"}}
	a := New(Config{MaxMegapixels: 50}, Deps{Recognizer: fixedReader{misread}, Camera: frameCamera(frame)})
	sit := scoring.Request{Rules: "riichi", Hand: "234m345p456s678s55p", WinTile: "8s", SeatWind: "S", Tsumo: true, Riichi: true}

	snap, err := a.SnapAndScore(context.Background(), Photos{"photo": frame}, "", sit)
	if err != nil {
		t.Fatal(err)
	}
	now, err := a.ScoreNow(context.Background(), Table{Calibration: cal}, "S", sit)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*snap.Request, now.Request) {
		t.Errorf("the two paths merged differently:\nsnap      %+v\nscore-now %+v", *snap.Request, now.Request)
	}
	if now.Request.Hand != sit.Hand || now.Request.DoraIndicators != "3z" || !now.Result.OK {
		t.Errorf("score-now scored %+v: %+v", now.Request, now.Result.Error)
	}
}
