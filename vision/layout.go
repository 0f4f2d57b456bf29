package vision

import (
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
	if turnedQuarter(tiles) {
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
		if strings.HasSuffix(t.Tile, "f") || strings.HasSuffix(t.Tile, "k") {
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
		case isKong(tiles, run) && (tiles[run[0]].Tile == "0z" || tiles[run[len(run)-1]].Tile == "0z"):
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
	return groups, handRequest(tiles, groups)
}

// handRequest builds the hand request when the hand, the winning tile and
// the melds make exactly a complete hand: 14 tiles with each kong counted as
// three. Loose groups (discards, the wall) are left out of it.
func handRequest(tiles []TileSeen, groups []Group) *scoring.Request {
	req := &scoring.Request{}
	var concealed []string
	count := 0
	for _, g := range groups {
		codes := codesOf(tiles, g.Tiles)
		switch g.Kind {
		case "hand", "win":
			concealed = append(concealed, codes...)
			count += len(codes)
		case "meld", "ankan":
			typ := meldType(tiles, g.Tiles)
			if g.Kind == "ankan" {
				typ = "ankan"
				codes = kongFaces(codes)
			}
			req.Melds = append(req.Melds, scoring.MeldSpec{Type: typ, Tiles: compact(codes), From: g.From})
			count += 3
		case "flowers":
			req.Flowers = compact(codes)
		case "dora":
			var up []string
			for _, c := range codes {
				if c != "0z" {
					up = append(up, c)
				}
			}
			req.DoraIndicators = compact(up)
		}
	}
	if count != 14 {
		return nil
	}
	for _, c := range concealed {
		if c == "0z" {
			return nil
		}
	}
	req.Hand = compact(concealed)
	req.WinTile = concealed[len(concealed)-1]
	return req
}

// compact writes codes in CONTRACT notation, digits grouped before their
// suit letter: 2s 3s 7z 7z → "23s77z".
func compact(codes []string) string {
	ts, err := scoring.ParseTiles(strings.Join(codes, ""))
	if err != nil {
		return strings.Join(codes, "")
	}
	return scoring.FormatTiles(ts)
}

func codesOf(tiles []TileSeen, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = tiles[j].Tile
	}
	return out
}

// kongFaces replaces the backs of a concealed kong by its face-up tile.
func kongFaces(codes []string) []string {
	face := ""
	for _, c := range codes {
		if c != "0z" {
			face = c
		}
	}
	out := make([]string, len(codes))
	for i := range out {
		out[i] = face
	}
	return out
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
	face := ""
	for _, i := range run {
		c := normalFive(tiles[i].Tile)
		if c == "0z" {
			continue
		}
		if face != "" && c != face {
			return false
		}
		face = c
	}
	return face != ""
}

// isDeadWall says whether a run mixes backs and face-up tiles the way the
// dead wall does: at least two backs, and face-up tiles (the indicators)
// that are fewer than the backs.
func isDeadWall(tiles []TileSeen, run []int) bool {
	backs := 0
	for _, i := range run {
		if tiles[i].Tile == "0z" {
			backs++
		}
	}
	return backs >= 2 && len(run)-backs >= 1 && len(run)-backs < backs
}

// meldType names the set a run of tiles makes ("pon", "chi", "minkan"), or "".
func meldType(tiles []TileSeen, run []int) string {
	codes := codesOf(tiles, run)
	for i := range codes {
		codes[i] = normalFive(codes[i])
	}
	switch len(codes) {
	case 4:
		if codes[0] == codes[1] && codes[1] == codes[2] && codes[2] == codes[3] && codes[0] != "0z" {
			return "minkan"
		}
	case 3:
		if codes[0] == codes[1] && codes[1] == codes[2] && codes[0] != "0z" {
			return "pon"
		}
		ts, err := scoring.ParseTiles(strings.Join(codes, ""))
		if err != nil || len(ts) != 3 || !ts[0].Suited() {
			return ""
		}
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		if ts[0].Suit() == ts[2].Suit() && ts[1] == ts[0]+1 && ts[2] == ts[0]+2 {
			return "chi"
		}
	}
	return ""
}

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
