package classical

import (
	"fmt"

	"mjscan/scoring"
)

// loser is a losing hand scored for the settlement: its sets and bonus
// tiles, with the doubles every player earns (seed 000: "everyone reveals
// their hands and calculates their own scores").
type loser struct {
	Seat    string   `json:"seat"`
	Hand    string   `json:"hand"`
	Items   []item   `json:"items,omitempty"`
	Doubles []double `json:"doubles,omitempty"`
	Base    int      `json:"base"`
	NDouble int      `json:"doubles_total"`
	Score   int      `json:"score"`
	seat    scoring.Wind
}

// losers scores the other players' hands. Each must name its seat wind (all
// four differ) and hold 13 tiles counting melds as three.
func (f *facts) losers(players []scoring.Request, win *input) ([]loser, *scoring.Error) {
	if len(players) > 3 {
		return nil, scoring.Errorf(scoring.CodeBadRequest, "extra.players: %d hands, but a table has three losers", len(players))
	}
	seats := map[scoring.Wind]bool{f.h.Seat: true}
	table := scoring.CountOf(f.h.AllTiles())
	var bonusSeen [scoring.NumTiles]bool
	for _, t := range f.h.Flowers {
		bonusSeen[t] = true
	}
	var out []loser
	for i := range players {
		p := &players[i]
		if p.SeatWind == "" {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "extra.players[%d]: give the seat_wind of each losing hand", i)
		}
		seat, err := scoring.ParseWind(p.SeatWind)
		if err != nil {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "extra.players[%d]: seat_wind: %v", i, err)
		}
		if seats[seat] {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "extra.players[%d]: seat %s is taken: the four players sit at four different winds", i, seat)
		}
		seats[seat] = true
		lh, e := parseLoser(p)
		if e != nil {
			return nil, scoring.Errorf(e.Code, "extra.players[%d]: %s", i, e.Message)
		}
		for _, t := range lh.AllTiles() {
			if table[t.Kind()]++; table[t.Kind()] > 4 {
				return nil, scoring.Errorf(scoring.CodeTooManyCopies, "extra.players[%d]: the table holds %d copies of %s: a set has four", i, table[t.Kind()], t.Kind())
			}
		}
		for _, t := range lh.Flowers {
			if bonusSeen[t] {
				return nil, scoring.Errorf(scoring.CodeTooManyCopies, "extra.players[%d]: %s is laid aside twice at the table: there is one of each bonus tile", i, t)
			}
			bonusSeen[t] = true
		}
		lh.Seat, lh.Round = seat, f.h.Round
		out = append(out, f.scoreLoser(lh))
	}
	return out, nil
}

// parseLoser reads a losing hand: concealed tiles (no winning tile), melds
// and bonus tiles.
func parseLoser(p *scoring.Request) (*scoring.Hand, *scoring.Error) {
	q := *p
	q.WinTile = ""
	if q.Hand == "" {
		return nil, scoring.Errorf(scoring.CodeBadRequest, "the hand is empty")
	}
	h, err := scoring.ParseHand(&q)
	if err != nil {
		return nil, err
	}
	if e := h.CheckMeldShapes(); e != nil {
		return nil, e
	}
	for _, t := range h.Concealed {
		if !t.Playing() {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "%s cannot be in a losing hand's concealed tiles", t)
		}
	}
	for _, t := range h.Flowers {
		if t < scoring.Flower1 || t >= scoring.King1 {
			return nil, scoring.Errorf(scoring.CodeBadRequest, "%s is not a flower or season", t)
		}
	}
	if n := len(h.Concealed) + 3*len(h.Melds); n != 13 {
		return nil, scoring.Errorf(scoring.CodeWrongTileCount, "a losing hand holds 13 tiles counting each meld as three, this one %d", n)
	}
	return h, nil
}

// scoreLoser: exposed and concealed pungs and kongs (three or four alike in
// the concealed tiles count as a concealed pung: seed 000, "non-declared
// gongs can only be counted as pungs"), bonus tiles, and the doubles.
func (f *facts) scoreLoser(h *scoring.Hand) loser {
	l := loser{Seat: h.Seat.String(), seat: h.Seat, Hand: scoring.FormatMPSZ(h.Concealed, h.Melds)}
	lf := &facts{h: h, rules: f.rules, round: f.round}
	add := func(p int, reason, set string) {
		l.Items = append(l.Items, item{p, reason, set})
		l.Base += p
	}
	dbl := func(n int, reason, set string) {
		l.Doubles = append(l.Doubles, double{n, reason, set})
		l.NDouble += n
	}
	pung := func(kind scoring.SetKind, t scoring.Tile, exposed bool) {
		s := set{kind: kind, tile: t}
		n := 3
		if kind == scoring.Kong {
			n = 4
		}
		for k := 0; k < n; k++ {
			s.slots = append(s.slots, slot{t, t})
		}
		add(setPoints(kind, t, exposed), setName(kind, t, exposed), setTiles(&s))
		lf.setDoubles(&s, dbl)
	}
	for _, m := range h.Melds {
		switch {
		case m.Type == scoring.Chi:
		case m.IsKong():
			pung(scoring.Kong, m.Tiles[0].Kind(), m.Open())
		default:
			pung(scoring.Pung, m.Tiles[0].Kind(), true)
		}
	}
	c := h.Counts()
	for t := scoring.Tile(0); t < scoring.NumKinds; t++ {
		if c[t] >= 3 {
			pung(scoring.Pung, t, false)
		}
	}
	if f.rules.BonusTiles {
		for _, t := range h.Flowers {
			add(4, "bonus tile", t.String())
		}
		lf.bonusDoubles(h.Flowers, dbl)
	}
	var tiles []scoring.Tile
	for _, t := range h.AllTiles() {
		tiles = append(tiles, t.Kind())
	}
	suits, honors := flush(tiles)
	switch {
	case suits == 0:
		dbl(3, "all honours", "")
	case suits == 1 && honors:
		dbl(1, "half flush (one suit and honours)", "")
	case suits == 1:
		dbl(3, "full flush (one suit, no honours)", "")
	}
	l.Score = f.rules.cap(doubled(l.Base, l.NDouble), false)
	return l
}

// dealerFactor: East receives double and pays double in every exchange
// (seed 000 and seed 001).
func dealerFactor(a, b scoring.Wind) int {
	if a == scoring.WindEast || b == scoring.WindEast {
		return 2
	}
	return 1
}

// settle lists the payments: every loser pays the winner the winner's
// score; then, unless only the winner is scored, each loser is paid his own
// score by the other two losers (the winner takes no part). Losers whose
// hands are not given pay the winner only.
func (f *facts) settle(score int, table []loser) (pay []scoring.Payment, total int) {
	win := f.h.Seat
	given := map[scoring.Wind]bool{}
	for _, l := range table {
		given[l.seat] = true
	}
	for w := scoring.Wind(0); w < 4; w++ {
		if w == win {
			continue
		}
		amt := score * dealerFactor(w, win)
		pay = append(pay, scoring.Payment{From: w.String(), To: win.String(), Amount: amt, Note: "loser pays the winner's score"})
		total += amt
	}
	for i, a := range table {
		for j, b := range table {
			if i == j {
				continue
			}
			// b pays a the value of a's hand.
			amt := a.Score * dealerFactor(a.seat, b.seat)
			if amt > 0 {
				pay = append(pay, scoring.Payment{From: b.Seat, To: a.Seat, Amount: amt, Note: fmt.Sprintf("loser %s is paid his hand (%d) by loser %s", a.Seat, a.Score, b.Seat)})
			}
		}
	}
	return pay, total
}
