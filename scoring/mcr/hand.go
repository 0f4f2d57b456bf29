package mcr

import (
	"mjscan/scoring"
)

// maxConcealed bounds the concealed tiles read from a request: a hand has
// 14, and anything longer is refused as the wrong count before scoring.
const maxConcealed = 18

// meldView remembers how a meld was called, for the explanation and the
// bracket notation: the seat it came from (1 left, 2 across, 3 right, 0 for
// a concealed kong), which tile of a chow was taken, and whether a kong
// was added to a pung.
type meldView struct {
	from   uint8
	called uint8
	added  bool
}

// handInput is an input with what the explanation needs besides.
type handInput struct {
	input
	melds [4]meldView
	// discarder is the seat wind of the player who dealt in, when the
	// request names it (extra.discarder).
	discarder string
}

// buildInput checks a parsed hand against the MCR rules and turns it into
// an input. concealed holds the winning tile.
func buildInput(hi *handInput, concealed []scoring.Tile, win scoring.Tile, melds []scoring.Meld, flowers []scoring.Tile, r *scoring.Request) *scoring.Error {
	in := &hi.input
	*hi = handInput{}
	if len(melds) > 4 {
		return scoring.Errorf(scoring.CodeBadRequest, "%d melds: a hand has at most four sets", len(melds))
	}
	n := len(concealed) + 3*len(melds)
	if n != 14 {
		return scoring.Errorf(scoring.CodeWrongTileCount,
			"the hand holds %d tiles counting each meld as three; a winning hand holds 14 (concealed tiles with the winning tile, plus 3 per meld)", n)
	}
	for _, t := range concealed {
		c, ok := fromScoring(t)
		if !ok {
			return scoring.Errorf(scoring.CodeBadRequest, "%s is not an MCR playing tile: MCR plays 1–9m/p/s and 1z–7z, flowers go in \"flowers\"", t)
		}
		in.standing[c]++
	}
	w, ok := fromScoring(win)
	if !ok || in.standing[w] == 0 {
		return scoring.Errorf(scoring.CodeBadRequest, "win_tile %s is not in the hand: \"hand\" holds the concealed tiles with the winning tile included", win)
	}
	in.win = w
	in.nStanding = len(concealed) - 1
	kongs := 0
	for i := range melds {
		m := &melds[i]
		p, e := meldPack(i, m)
		if e != nil {
			return e
		}
		in.fixed[i] = p
		in.nFixed++
		switch p.kind {
		case kindChow:
			in.fixedTable[p.tile-1]++
			in.fixedTable[p.tile]++
			in.fixedTable[p.tile+1]++
		case kindPung:
			in.fixedTable[p.tile] += 3
		case kindKong:
			in.fixedTable[p.tile] += 4
			kongs++
		}
		v := &hi.melds[i]
		v.from = uint8(m.From)
		v.added = m.Type == scoring.Kakan
		if v.added {
			in.addedKongs++
		}
		if p.kind == kindChow && m.Called.Playing() {
			if c, ok := fromScoring(m.Called); ok && c >= p.tile-1 && c <= p.tile+1 {
				v.called = uint8(c - (p.tile - 1) + 1)
			}
		}
	}
	for _, t := range allTiles {
		if k := in.standing[t] + in.fixedTable[t]; k > 4 {
			return scoring.Errorf(scoring.CodeTooManyCopies, "%d copies of %s: a set has four", k, t)
		}
	}
	var seen [8]bool
	for _, f := range flowers {
		if f < scoring.Flower1 || f > scoring.Flower1+7 {
			return scoring.Errorf(scoring.CodeBadRequest, "flowers: %s is not a flower or season (1f–8f)", f)
		}
		if seen[f-scoring.Flower1] {
			return scoring.Errorf(scoring.CodeBadRequest, "flowers: %s twice, but each flower and season exists once", f)
		}
		seen[f-scoring.Flower1] = true
	}
	in.flowers = len(flowers)
	return situation(in, r, kongs)
}

// meldPack reads one meld as a group.
func meldPack(i int, m *scoring.Meld) (pack, *scoring.Error) {
	want := 3
	if m.IsKong() {
		want = 4
	}
	if len(m.Tiles) != want {
		return pack{}, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a %s has %d tiles, got %d (%s)", i, m.Type, want, len(m.Tiles), scoring.FormatTiles(m.Tiles))
	}
	var ts [4]tile
	for j, t := range m.Tiles {
		c, ok := fromScoring(t)
		if !ok {
			return pack{}, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: %s cannot be part of a %s", i, t, m.Type)
		}
		ts[j] = c
	}
	switch m.Type {
	case scoring.Chi:
		a, b, c := ts[0], ts[1], ts[2]
		sorted := [3]tile{a, b, c}
		sort3(&sorted)
		if !sorted[0].numbered() || sorted[0]+1 != sorted[1] || sorted[1]+1 != sorted[2] {
			return pack{}, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a chow is three consecutive tiles of one suit, got %s", i, scoring.FormatTiles(m.Tiles))
		}
		return pack{kind: kindChow, tile: sorted[1], melded: true}, nil
	case scoring.Pon, scoring.Minkan, scoring.Ankan, scoring.Kakan:
		for _, t := range ts[1:want] {
			if t != ts[0] {
				return pack{}, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: a %s is one tile repeated, got %s", i, m.Type, scoring.FormatTiles(m.Tiles))
			}
		}
		if m.Type == scoring.Pon {
			return pack{kind: kindPung, tile: ts[0], melded: true}, nil
		}
		return pack{kind: kindKong, tile: ts[0], melded: m.Type != scoring.Ankan}, nil
	}
	return pack{}, scoring.Errorf(scoring.CodeBadRequest, "melds[%d]: unknown meld type", i)
}

// situation reads the win situation, refusing flags MCR does not know and
// combinations that cannot happen.
func situation(in *input, r *scoring.Request, kongs int) *scoring.Error {
	switch {
	case r.Riichi || r.DoubleRiichi || r.Ippatsu:
		return scoring.Errorf(scoring.CodeBadRequest, "MCR has no riichi: leave riichi, double_riichi and ippatsu false")
	case r.DoraIndicators != "" || r.UraDoraIndicators != "" || r.Nuki != 0:
		return scoring.Errorf(scoring.CodeBadRequest, "MCR has no dora: leave the dora indicators and nuki empty")
	case r.Tenhou || r.Chiihou || r.Renhou:
		return scoring.Errorf(scoring.CodeBadRequest, "MCR scores no Heavenly, Earthly or Human hand: leave tenhou, chiihou and renhou false")
	case r.DoubleKong:
		return scoring.Errorf(scoring.CodeBadRequest, "double_kong is a Zung Jung situation; in MCR a win on a kong replacement tile is rinshan")
	case r.Rinshan && !r.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "Out with Replacement Tile (rinshan) is a self-draw: set tsumo")
	case r.Rinshan && kongs == 0:
		return scoring.Errorf(scoring.CodeBadRequest, "Out with Replacement Tile (rinshan) follows a kong, but the hand shows none (a flower's replacement tile is a plain self-draw)")
	case r.Chankan && r.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "Robbing the Kong (chankan) is a win on another player's tile, not tsumo")
	case r.Chankan && (in.standing[in.win] != 1 || in.fixedTable[in.win] != 0):
		return scoring.Errorf(scoring.CodeBadRequest, "Robbing the Kong (chankan): the robbed tile is the fourth of its kind, but the hand holds another %s", in.win)
	case r.Haitei && !r.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "Last Tile Draw (haitei) is a self-draw of the last wall tile: set tsumo (houtei is the last discard)")
	case r.Houtei && r.Tsumo:
		return scoring.Errorf(scoring.CodeBadRequest, "Last Tile Claim (houtei) is a win on the last discard, not tsumo (haitei is the self-drawn last tile)")
	case r.LastTileOfKind && in.standing[in.win] != 1:
		return scoring.Errorf(scoring.CodeBadRequest, "Last Tile (last_tile_of_kind): the hand holds %d of %s, so the winning tile was not the last of its kind", in.standing[in.win], in.win)
	}
	if r.Tsumo {
		in.flags |= flagSelfDrawn
	}
	if r.LastTileOfKind {
		in.flags |= flagLastTile
	}
	if r.Rinshan || r.Chankan {
		in.flags |= flagKong
	}
	if r.Haitei || r.Houtei {
		in.flags |= flagWallLast
	}
	var err error
	var w scoring.Wind
	if r.SeatWind != "" {
		if w, err = scoring.ParseWind(r.SeatWind); err != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "seat_wind: %v", err)
		}
		in.seat = int(w)
	}
	if r.RoundWind != "" {
		if w, err = scoring.ParseWind(r.RoundWind); err != nil {
			return scoring.Errorf(scoring.CodeBadRequest, "round_wind: %v", err)
		}
		in.round = int(w)
	}
	return nil
}
