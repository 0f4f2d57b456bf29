package vision

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"mjscan/scoring"
)

// layout groups the tiles by their geometry, the way a player lays them out:
// rows of tiles, each cut into groups at gaps wider than half a tile. The
// biggest group is the concealed hand (a lone tile set apart just after it
// is the winning tile), groups of three or four that make a set are melds
// (a sideways tile marks the one called, a back at each end a concealed
// kong), a run of backs with face-up tiles among them is the dead wall with
// its dora indicators turned up, and flowers and seasons (and Vietnamese
// kings and queens) go aside. When the tiles make a complete
// hand, layout also returns it as a hand request (the caller picks the rules).
//
// It reorders nothing in tiles: groups hold indexes into it.
func layout(tiles []TileSeen) ([]Group, *scoring.Request) {
	if len(tiles) == 0 {
		return nil, nil
	}
	if lev, ok := levelled(tiles); ok {
		tiles = lev
	} else if turnedQuarter(tiles) {
		// The photo is turned a quarter (most tiles lie wider than tall):
		// rows run down the photo, so group on the transposed boxes.
		turned := make([]TileSeen, len(tiles))
		for i, t := range tiles {
			turned[i] = t
			turned[i].Box = [4]int{t.Box[1], t.Box[0], t.Box[3], t.Box[2]}
		}
		tiles = turned
	}
	var flowers, rest []int
	for i, t := range tiles {
		if s := t.Tile.Suit(); s == scoring.Flower || s == scoring.King {
			flowers = append(flowers, i)
		} else {
			rest = append(rest, i)
		}
	}
	short := medianShortSide(tiles)
	var runs [][]int
	for _, row := range rowsOf(tiles, rest, short) {
		runs = append(runs, splitAtGaps(tiles, row, short)...)
	}
	var groups []Group
	handAt := -1
	for i, run := range runs {
		if handAt < 0 || len(run) > len(runs[handAt]) {
			handAt = i
		}
	}
	var win []int
	for i, run := range runs {
		switch {
		case i == handAt:
			groups = append(groups, Group{Kind: "hand", Tiles: run})
		case len(run) == 1 && i == handAt+1 && sameRow(tiles, runs[handAt], run, short) && win == nil:
			win = run
			groups = append(groups, Group{Kind: "win", Tiles: run})
		case isKong(tiles, run) && (tiles[run[0]].Tile == scoring.Back || tiles[run[len(run)-1]].Tile == scoring.Back):
			groups = append(groups, Group{Kind: "ankan", Tiles: run})
		case meldType(tiles, run) != "":
			groups = append(groups, Group{Kind: "meld", Tiles: run, From: calledFrom(tiles, run)})
		case isDeadWall(tiles, run):
			groups = append(groups, Group{Kind: "dora", Tiles: run})
		default:
			groups = append(groups, Group{Kind: "loose", Tiles: run})
		}
	}
	if len(flowers) > 0 {
		groups = append(groups, Group{Kind: "flowers", Tiles: flowers})
	}
	if hand, complete := HandFromGroups(tiles, groups); complete {
		return groups, hand
	}
	return groups, nil
}

// HandFromGroups builds the hand request that groups make of tiles: the
// concealed tiles (the hand, then a winning tile set apart, which is then
// the winning tile), the called melds and concealed kongs, the flowers and
// the dora indicators turned up; loose groups (discards, the wall) are left
// out. complete says whether it is a whole hand: 14 tiles with each kong
// counted as three, and no face-down tile among the concealed ones. It is
// the one place where groups become a hand: the recogniser's hand, the
// service's and the phone page's (through POST /v1/hands) all come from it.
// Every index in groups must be one of tiles' (CheckGroups).
func HandFromGroups(tiles []TileSeen, groups []Group) (req *scoring.Request, complete bool) {
	req = &scoring.Request{}
	var concealed []scoring.Tile
	count := 0
	for _, g := range groups {
		ts := tilesAt(tiles, g.Tiles)
		switch g.Kind {
		case "hand", "win":
			concealed = append(concealed, ts...)
			count += len(ts)
		case "meld", "ankan":
			typ := meldType(tiles, g.Tiles)
			if g.Kind == "ankan" {
				typ = "ankan"
				ts = kongFaces(ts)
			} else if typ == "" {
				typ = guessMeldType(ts)
			}
			req.Melds = append(req.Melds, scoring.MeldSpec{Type: typ, Tiles: scoring.FormatTiles(ts), From: g.From})
			count += 3
		case "flowers":
			req.Flowers = scoring.FormatTiles(ts)
		case "dora":
			var up []scoring.Tile
			for _, t := range ts {
				if t != scoring.Back {
					up = append(up, t)
				}
			}
			req.DoraIndicators = scoring.FormatTiles(up)
		}
	}
	complete = count == 14
	for _, t := range concealed {
		if t == scoring.Back {
			complete = false
		}
	}
	req.Hand = scoring.FormatTiles(concealed)
	if len(concealed) > 0 {
		req.WinTile = concealed[len(concealed)-1].String()
	}
	return req, complete
}

// guessMeldType names a group called a meld whose tiles make no set (a
// player corrected one of them): its size and first tiles say what it was
// meant to be, and the engine then says what is wrong with it.
func guessMeldType(ts []scoring.Tile) string {
	switch {
	case len(ts) == 4:
		return "minkan"
	case len(ts) >= 2 && ts[0].Kind() == ts[1].Kind():
		return "pon"
	}
	return "chi"
}

// GroupKinds are the kinds of group layout makes.
var GroupKinds = []string{"hand", "win", "meld", "ankan", "dora", "flowers", "loose"}

// CheckGroups says whether groups can be made into a hand of tiles: known
// kinds, and indexes into tiles, each used once.
func CheckGroups(tiles []TileSeen, groups []Group) error {
	used := make([]bool, len(tiles))
	for i, g := range groups {
		known := false
		for _, k := range GroupKinds {
			known = known || g.Kind == k
		}
		if !known {
			return fmt.Errorf("group %d has the kind %q: one of %s", i+1, g.Kind, strings.Join(GroupKinds, ", "))
		}
		for _, j := range g.Tiles {
			if j < 0 || j >= len(tiles) {
				return fmt.Errorf("group %d names tile %d, but there are %d tiles (counted from 0)", i+1, j, len(tiles))
			}
			if used[j] {
				return fmt.Errorf("tile %d is in two groups", j)
			}
			used[j] = true
		}
	}
	return nil
}

func tilesAt(tiles []TileSeen, idx []int) []scoring.Tile {
	out := make([]scoring.Tile, len(idx))
	for i, j := range idx {
		out[i] = tiles[j].Tile
	}
	return out
}

// kongFaces replaces the backs of a concealed kong by its face-up tile.
func kongFaces(ts []scoring.Tile) []scoring.Tile {
	face := scoring.Back
	for _, t := range ts {
		if t != scoring.Back {
			face = t
		}
	}
	out := make([]scoring.Tile, len(ts))
	for i := range out {
		out[i] = face
	}
	return out
}

// Rows at a slant: a hand photographed at an angle runs neither across
// nor down the photo, and rowsOf, which gathers tiles at one height, cuts
// it into pieces of one or two tiles (two dev photos of a hand laid
// diagonally came out as nine loose groups).
const (
	// slantedRows: rows running further than this from across or down
	// the photo (in radians) are levelled; nearer, rowsOf takes them as
	// they are, as it always has.
	slantedRows = 8 * math.Pi / 180
	// rowsAgree: how far the directions from each tile to its nearest
	// neighbour must agree (the length of their mean on the doubled
	// angle, 0 to 1) before they are taken for the rows' slant; a pile
	// of scattered tiles has none.
	rowsAgree = 0.6
)

// levelled gives the tiles as if the photo were turned so that their rows
// run across it, when the rows run at a slant (slantedRows, rowsAgree):
// each tile's centre turned about the photo's origin, and a box of the
// rows' step (the median distance from a tile to its nearest neighbour)
// about it, three wide to four high. ok is false, and tiles unchanged,
// when the rows run across or down the photo already or no slant is
// clear.
func levelled(tiles []TileSeen) ([]TileSeen, bool) {
	if len(tiles) < 3 {
		return tiles, false
	}
	pts := make([][2]float64, len(tiles))
	for i, t := range tiles {
		pts[i][0], pts[i][1] = centre(t)
	}
	near, dist := nearest(pts)
	var c2, s2 float64
	steps := make([]float64, 0, len(tiles))
	for i, p := range pts {
		if dist[i] == 0 {
			continue
		}
		o := pts[near[i]]
		a := math.Atan2(o[1]-p[1], o[0]-p[0])
		c2, s2 = c2+math.Cos(2*a), s2+math.Sin(2*a)
		steps = append(steps, dist[i])
	}
	if len(steps) < 3 || math.Hypot(c2, s2) < rowsAgree*float64(len(steps)) {
		return tiles, false
	}
	slant := math.Atan2(s2, c2) / 2 // the rows' direction, within ±90°
	if off := math.Abs(slant); off < slantedRows || off > math.Pi/2-slantedRows {
		return tiles, false
	}
	sort.Float64s(steps)
	step := steps[len(steps)/2]
	cos, sin := math.Cos(slant), math.Sin(slant)
	out := make([]TileSeen, len(tiles))
	for i, t := range tiles {
		x, y := pts[i][0], pts[i][1]
		lx, ly := x*cos+y*sin, -x*sin+y*cos
		out[i] = t
		out[i].Box = [4]int{
			int(math.Round(lx - step/2)), int(math.Round(ly - step*2/3)),
			int(math.Round(lx + step/2)), int(math.Round(ly + step*2/3)),
		}
	}
	return out, true
}

// turnedQuarter says whether most tiles' boxes are wider than tall.
func turnedQuarter(tiles []TileSeen) bool {
	wide := 0
	for _, t := range tiles {
		if t.Box[2]-t.Box[0] > t.Box[3]-t.Box[1] {
			wide++
		}
	}
	return 2*wide > len(tiles)
}

func medianShortSide(tiles []TileSeen) float64 {
	s := make([]float64, len(tiles))
	for i, t := range tiles {
		s[i] = math.Min(float64(t.Box[2]-t.Box[0]), float64(t.Box[3]-t.Box[1]))
	}
	sort.Float64s(s)
	return math.Max(1, s[len(s)/2])
}

func centre(t TileSeen) (float64, float64) {
	return float64(t.Box[0]+t.Box[2]) / 2, float64(t.Box[1]+t.Box[3]) / 2
}

// rowsOf clusters tiles whose centres lie at about the same height.
func rowsOf(tiles []TileSeen, idx []int, short float64) [][]int {
	order := append([]int(nil), idx...)
	sort.SliceStable(order, func(a, b int) bool {
		_, ya := centre(tiles[order[a]])
		_, yb := centre(tiles[order[b]])
		return ya < yb
	})
	var rows [][]int
	var meanY float64
	for _, i := range order {
		_, y := centre(tiles[i])
		if len(rows) > 0 && math.Abs(y-meanY) < 0.6*short {
			r := rows[len(rows)-1]
			meanY = (meanY*float64(len(r)) + y) / float64(len(r)+1)
			rows[len(rows)-1] = append(r, i)
			continue
		}
		rows = append(rows, []int{i})
		meanY = y
	}
	return rows
}

// splitAtGaps orders a row left to right and cuts it where the gap between
// neighbours is wider than half a tile.
func splitAtGaps(tiles []TileSeen, row []int, short float64) [][]int {
	sort.SliceStable(row, func(a, b int) bool { return tiles[row[a]].Box[0] < tiles[row[b]].Box[0] })
	var out [][]int
	cur := []int{row[0]}
	for k := 1; k < len(row); k++ {
		gap := float64(tiles[row[k]].Box[0] - tiles[row[k-1]].Box[2])
		if gap > 0.5*short {
			out = append(out, cur)
			cur = nil
		}
		cur = append(cur, row[k])
	}
	return append(out, cur)
}

func sameRow(tiles []TileSeen, a, b []int, short float64) bool {
	_, ya := centre(tiles[a[0]])
	_, yb := centre(tiles[b[0]])
	return math.Abs(ya-yb) < 0.6*short
}

func isKong(tiles []TileSeen, run []int) bool {
	if len(run) != 4 {
		return false
	}
	face := scoring.NoTile
	for _, i := range run {
		k := tiles[i].Tile.Kind()
		if k == scoring.Back {
			continue
		}
		if face != scoring.NoTile && k != face {
			return false
		}
		face = k
	}
	return face != scoring.NoTile
}

// isDeadWall says whether a run mixes backs and face-up tiles the way the
// dead wall does: at least two backs, and face-up tiles (the indicators)
// that are fewer than the backs.
func isDeadWall(tiles []TileSeen, run []int) bool {
	backs := 0
	for _, i := range run {
		if tiles[i].Tile == scoring.Back {
			backs++
		}
	}
	return backs >= 2 && len(run)-backs >= 1 && len(run)-backs < backs
}

// meldType names the set a run of tiles makes ("pon", "chi", "minkan"), or "".
func meldType(tiles []TileSeen, run []int) string {
	ts := tilesAt(tiles, run)
	for i := range ts {
		ts[i] = ts[i].Kind() // a red five is a five
	}
	same := func() bool {
		for _, t := range ts[1:] {
			if t != ts[0] {
				return false
			}
		}
		return ts[0] != scoring.Back
	}
	switch len(ts) {
	case 4:
		if same() {
			return "minkan"
		}
	case 3:
		if same() {
			return "pon"
		}
		if !ts[0].Suited() {
			return ""
		}
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		if ts[0].Suit() == ts[2].Suit() && ts[1] == ts[0]+1 && ts[2] == ts[0]+2 {
			return "chi"
		}
	}
	return ""
}

// normalFive writes a red five's code as its plain five's.
func normalFive(c string) string {
	if len(c) == 2 && c[0] == '0' && c[1] != 'z' {
		return "5" + c[1:]
	}
	return c
}

// calledFrom reads the seat a meld was called from off the position of its
// sideways tile: left end from the player on the left, middle from across,
// right end from the right (the usual table custom).
func calledFrom(tiles []TileSeen, run []int) string {
	for k, i := range run {
		if !tiles[i].Rotated {
			continue
		}
		switch {
		case k == 0:
			return "left"
		case k == len(run)-1:
			return "right"
		default:
			return "across"
		}
	}
	return ""
}
