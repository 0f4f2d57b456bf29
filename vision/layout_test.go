package vision

import (
	"math"
	"reflect"
	"testing"

	"mjscan/scoring"
)

// row lays tiles out left to right at height y, tile 40×56, with a gap of
// gapAfter[i] pixels after tile i (2 px otherwise). A code ending in "*" is
// a tile lying sideways (56×40).
func row(y, x int, codes []string, gapAfter map[int]int) []TileSeen {
	var out []TileSeen
	for i, c := range codes {
		w, h, rot := 40, 56, false
		if c[len(c)-1] == '*' {
			c, w, h, rot = c[:len(c)-1], 56, 40, true
		}
		top := y + (56 - h)
		out = append(out, TileSeen{Tile: mustTile(c), Box: [4]int{x, top, x + w, top + h}, Confidence: 0.99, Rotated: rot})
		x += w + 2 + gapAfter[i]
	}
	return out
}

func split(s string) []string {
	ts, err := scoring.ParseTiles(s)
	if err != nil {
		panic(err)
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// TestLayoutClosedHand: one row of 13 tiles and the winning tile set apart.
func TestLayoutClosedHand(t *testing.T) {
	tiles := row(100, 10, split("123m456p789s11222z"), map[int]int{12: 30})
	groups, req := layout(tiles)
	if len(groups) != 2 || groups[0].Kind != "hand" || groups[1].Kind != "win" {
		t.Fatalf("groups = %+v, want hand then win", groups)
	}
	want := &scoring.Request{Hand: "123m456p789s11222z", WinTile: "2z"}
	if !reflect.DeepEqual(req, want) {
		t.Fatalf("hand request = %+v, want %+v", req, want)
	}
}

// TestLayoutCalledMelds: the concealed hand in one row and below it a pon
// called from across (sideways tile in the middle), a chi from the left, and
// a concealed kong shown with backs at both ends; a flower set aside.
func TestLayoutCalledMelds(t *testing.T) {
	tiles := row(100, 10, split("234m55p"), nil)
	tiles = append(tiles, row(200, 10, []string{"7z", "7z*", "7z"}, nil)...)
	tiles = append(tiles, row(200, 250, []string{"3s*", "4s", "5s"}, nil)...)
	tiles = append(tiles, row(200, 500, []string{"0z", "9p", "9p", "0z"}, nil)...)
	tiles = append(tiles, row(400, 10, []string{"3f"}, nil)...)
	groups, req := layout(tiles)
	kinds := []string{}
	for _, g := range groups {
		kinds = append(kinds, g.Kind+":"+g.From)
	}
	if want := []string{"hand:", "meld:across", "meld:left", "ankan:", "flowers:"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("groups %v, want %v", kinds, want)
	}
	if req == nil {
		t.Fatal("no hand request for a complete hand")
	}
	want := &scoring.Request{Hand: "234m55p", WinTile: "5p", Flowers: "3f", Melds: []scoring.MeldSpec{
		{Type: "pon", Tiles: "777z", From: "across"},
		{Type: "chi", Tiles: "345s", From: "left"},
		{Type: "ankan", Tiles: "9999p"},
	}}
	if !reflect.DeepEqual(req, want) {
		t.Fatalf("hand request = %+v\nwant %+v", req, want)
	}
	h, err := scoring.ParseHand(req)
	if err != nil {
		t.Fatalf("the recognised request does not parse: %v", err)
	}
	if len(h.Melds) != 3 || len(h.Concealed) != 5 {
		t.Fatalf("parsed hand has %d melds and %d concealed tiles", len(h.Melds), len(h.Concealed))
	}
}

// TestLayoutDeadWall: backs with face-up tiles among them are the dead wall;
// its face-up tiles, left to right, become the dora indicators of the request.
func TestLayoutDeadWall(t *testing.T) {
	tiles := row(100, 10, split("123456789m123p5s5s"), map[int]int{12: 40})
	tiles = append(tiles, row(250, 10, []string{"0z", "0z", "3z", "6p", "0z", "0z", "0z"}, nil)...)
	groups, req := layout(tiles)
	kinds := []string{}
	for _, g := range groups {
		kinds = append(kinds, g.Kind)
	}
	if want := []string{"hand", "win", "dora"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("groups %v, want %v", kinds, want)
	}
	if req == nil || req.DoraIndicators != "3z6p" || req.WinTile != "5s" {
		t.Fatalf("hand request = %+v, want dora indicators 3z6p and win tile 5s", req)
	}
}

// TestLayoutIncompleteHand: eleven loose tiles make no hand request.
func TestLayoutIncompleteHand(t *testing.T) {
	_, req := layout(row(50, 0, split("12345678m123p"), nil))
	if req != nil {
		t.Fatalf("hand request %+v from 13 tiles", req)
	}
	if g, r := layout(nil); g != nil || r != nil {
		t.Fatal("layout of no tiles")
	}
}

// TestLayoutTurnedPhoto: the same closed hand photographed turned a quarter
// (tiles lying wider than tall, the row running down the photo) is grouped
// the same way.
func TestLayoutTurnedPhoto(t *testing.T) {
	tiles := row(100, 10, split("123m456p789s11222z"), map[int]int{12: 30})
	for i := range tiles {
		b := tiles[i].Box
		tiles[i].Box = [4]int{b[1], b[0], b[3], b[2]}
	}
	groups, req := layout(tiles)
	if len(groups) != 2 || groups[0].Kind != "hand" || groups[1].Kind != "win" {
		t.Fatalf("groups = %+v, want hand then win", groups)
	}
	if req == nil || req.Hand != "123m456p789s11222z" || req.WinTile != "2z" {
		t.Fatalf("hand request = %+v", req)
	}
}

// turnedBy gives the tiles of a photo turned by deg degrees about its
// origin: each tile's centre turned, and its box the bounds of the
// turned tile.
func turnedBy(tiles []TileSeen, deg float64) []TileSeen {
	a := deg * math.Pi / 180
	c, s := math.Cos(a), math.Sin(a)
	out := make([]TileSeen, len(tiles))
	for i, t := range tiles {
		x, y := centre(t)
		w, h := float64(t.Box[2]-t.Box[0]), float64(t.Box[3]-t.Box[1])
		bw, bh := w*math.Abs(c)+h*math.Abs(s), w*math.Abs(s)+h*math.Abs(c)
		tx, ty := x*c-y*s+1000, x*s+y*c+1000
		out[i] = t
		out[i].Box = [4]int{int(tx - bw/2), int(ty - bh/2), int(tx + bw/2), int(ty + bh/2)}
	}
	return out
}

// TestLayoutSlantedPhoto: a hand, its winning tile and a called pon below
// them, photographed at a slant either way, group as they do straight; a
// photo a little askew (5 degrees) is grouped as it is.
func TestLayoutSlantedPhoto(t *testing.T) {
	tiles := row(100, 10, split("123m456p789s11z"), map[int]int{10: 30})
	tiles = append(tiles, row(200, 10, []string{"7z", "7z*", "7z"}, nil)...)
	want := &scoring.Request{Hand: "123m456p789s11z", WinTile: "1z", Melds: []scoring.MeldSpec{{Type: "pon", Tiles: "777z", From: "across"}}}
	for _, deg := range []float64{35, -35, 60, -70, 5} {
		groups, req := layout(turnedBy(tiles, deg))
		var kinds []string
		for _, g := range groups {
			kinds = append(kinds, g.Kind)
		}
		if !reflect.DeepEqual(req, want) {
			t.Errorf("turned %v degrees: groups %v, hand request %+v, want %+v", deg, kinds, req, want)
		}
	}
	if _, ok := levelled(turnedBy(tiles, 5)); ok {
		t.Error("a photo 5 degrees askew was levelled")
	}
	if _, ok := levelled(tiles); ok {
		t.Error("a straight photo was levelled")
	}
}

// mustTile types one tile code in a test.
func mustTile(code string) scoring.Tile {
	t, err := scoring.ParseTile(code)
	if err != nil {
		panic(err)
	}
	return t
}

// TestHandFromGroupsKeepsTheWinningTile: a winning tile set apart from the
// hand is the hand's last tile and its win_tile, whether or not the hand is
// complete; an incomplete hand is still built (the page shows it to be
// finished) but not called complete.
func TestHandFromGroupsKeepsTheWinningTile(t *testing.T) {
	tiles := row(100, 10, split("123m456p789s112z2z"), map[int]int{11: 30})
	groups, _ := layout(tiles)
	req, complete := HandFromGroups(tiles, groups)
	if complete || req.Hand != "123m456p789s1122z" || req.WinTile != "2z" || groups[len(groups)-1].Kind != "win" {
		t.Errorf("13 tiles with the win apart: %+v complete=%v", req, complete)
	}
	tiles = row(100, 10, split("123m456p789s11222z"), map[int]int{12: 30})
	groups, hand := layout(tiles)
	req, complete = HandFromGroups(tiles, groups)
	if !complete || !reflect.DeepEqual(req, hand) || req.WinTile != "2z" {
		t.Errorf("the complete hand %+v (complete=%v), the layout's %+v", req, complete, hand)
	}
	// A meld a player corrected into no set keeps its place and a type;
	// the engine says what is wrong with it.
	tiles = row(100, 10, split("124m"), nil)
	req, _ = HandFromGroups(tiles, []Group{{Kind: "meld", Tiles: []int{0, 1, 2}}})
	if len(req.Melds) != 1 || req.Melds[0].Type != "chi" || req.Melds[0].Tiles != "124m" {
		t.Errorf("corrected meld %+v", req.Melds)
	}
}

func TestCheckGroups(t *testing.T) {
	tiles := row(100, 10, split("123m"), nil)
	for _, g := range [][]Group{
		{{Kind: "hand", Tiles: []int{0, 3}}},
		{{Kind: "hand", Tiles: []int{-1}}},
		{{Kind: "hand", Tiles: []int{0}}, {Kind: "win", Tiles: []int{0}}},
		{{Kind: "pile", Tiles: []int{0}}},
	} {
		if err := CheckGroups(tiles, g); err == nil {
			t.Errorf("%+v passed", g)
		}
	}
	if err := CheckGroups(tiles, []Group{{Kind: "hand", Tiles: []int{0, 1}}, {Kind: "win", Tiles: []int{2}}}); err != nil {
		t.Error(err)
	}
}
