package tournament

import (
	"fmt"

	"mjscan/scoring"
)

// settleFixed settles a hand of a game with a fixed number of hands and no
// dealer repeat (MCR, Zung Jung, WSM).
func (g *Game) settleFixed(s *Settled) error {
	rec := &s.Hand
	s.next = g.position()
	switch rec.Play.Outcome {
	case Win:
		if err := g.fixedWin(rec); err != nil {
			return err
		}
	case Draw:
		rec.Explain = append(rec.Explain, "draw: nobody scores")
	case FalseWin:
		// Seed 000 (MCR): the declarer "may not declare a win for the
		// remainder of the hand" and seed 004 (WSM): "the play of the hand
		// continues": the deal does not move.
		return g.falseWin(s)
	case Chombo:
		return fmt.Errorf("%s has no chombo: record a false win", g.Rules.Name)
	}
	s.next.dealt++
	s.next.dealer, s.next.round = s.next.dealt%4, s.next.dealt/4
	return nil
}

func (g *Game) fixedWin(rec *HandRecord) error {
	p := rec.Play
	req := *p.Hand
	if err := g.fillRules(&req); err != nil {
		return err
	}
	if req.SeatWind == "" {
		req.SeatWind = SeatWind(p.Player, g.dealer).String()
	}
	if req.RoundWind == "" {
		req.RoundWind = scoring.Wind(g.round).String()
	}
	req.Tsumo = p.From == NoSeat
	if p.From != NoSeat {
		ext := scoring.RequestExt{}
		if req.Extra != nil {
			ext = *req.Extra
		}
		ext.Discarder = SeatWind(p.From, g.dealer).String()
		req.Extra = &ext
	}
	res := g.score(&req)
	if !res.OK {
		return notAWin(res)
	}
	rec.Result = &res
	how := "by self-draw"
	if p.From != NoSeat {
		how = "on " + g.Players[p.From] + "'s discard"
	}
	rec.Explain = append(rec.Explain, fmt.Sprintf("%s wins %s: %s", g.Players[p.Player], how, describe(&res)))
	if g.Rules.WinBonus > 0 {
		g.bonusPayments(rec, res.Fan)
		return nil
	}
	got := 0
	for _, pay := range res.Points.Payments {
		w, err := scoring.ParseWind(pay.From)
		if err != nil {
			return fmt.Errorf("the engine named an unknown payer %q", pay.From)
		}
		s := seatAt(w, g.dealer)
		if s == p.Player {
			return fmt.Errorf("the engine charged the winner")
		}
		rec.Deltas[s] -= pay.Amount
		rec.Explain = append(rec.Explain, fmt.Sprintf("%s (%s) pays %d%s", g.Players[s], w, pay.Amount, note(pay.Note)))
		got += pay.Amount
	}
	if got != res.Points.Total {
		return fmt.Errorf("the engine's payments add up to %d, its total says %d", got, res.Points.Total)
	}
	rec.Deltas[p.Player] += got
	return nil
}

// bonusPayments is MCR's settlement (seed 000): on a self-draw every
// player pays the hand's value plus the bonus; on a discard the discarder
// pays value plus bonus and the two others the bonus alone.
func (g *Game) bonusPayments(rec *HandRecord, value int) {
	p := rec.Play
	b := g.Rules.WinBonus
	for s := 0; s < 4; s++ {
		if s == p.Player {
			continue
		}
		amount := b
		if p.From == NoSeat || p.From == s {
			amount = value + b
		}
		rec.Deltas[s] -= amount
		rec.Deltas[p.Player] += amount
		rec.Explain = append(rec.Explain, fmt.Sprintf("%s pays %d", g.Players[s], amount))
	}
}

// falseWin settles a declared win that was not one. The kind comes from
// scoring the declared hand when it is given.
func (g *Game) falseWin(s *Settled) error {
	rec := &s.Hand
	p := rec.Play
	kind := p.FalseWinKind
	if p.Hand != nil {
		req := *p.Hand
		if err := g.fillRules(&req); err != nil {
			return err
		}
		if req.SeatWind == "" {
			req.SeatWind = SeatWind(p.Player, g.dealer).String()
		}
		if req.RoundWind == "" {
			req.RoundWind = scoring.Wind(g.round).String()
		}
		req.Tsumo = p.From == NoSeat
		res := g.score(&req)
		if res.OK {
			return fmt.Errorf("the declared hand is a win (%s): record it as a win", describe(&res))
		}
		rec.Result = &res
		kind = codeOf(res)
	}
	who := g.Players[p.Player]
	if g.Rules.FalseWinBelowMinimum == 0 && g.Rules.FalseWinNotAWin == 0 {
		// WSM (seed 004): the exposed tiles become penalty tiles and play
		// goes on; no points change hands.
		entry := Penalty{Player: who, Reason: "false win: exposed tiles become penalty tiles " + p.PenaltyTiles, Game: g.ID}
		s.entries = append(s.entries, entry)
		rec.Explain = append(rec.Explain, fmt.Sprintf("%s declared a false win: no payment, the exposed tiles %s are penalty tiles (seed 004)", who, p.PenaltyTiles))
		return nil
	}
	var each int
	switch kind {
	case scoring.CodeBelowMinimum:
		each = g.Rules.FalseWinBelowMinimum
		rec.Explain = append(rec.Explain, fmt.Sprintf("%s declared a win under the minimum: pays %d to each player (seed 000)", who, each))
	case "":
		return fmt.Errorf("a false win needs the declared hand or its kind (%s or %s)", scoring.CodeBelowMinimum, scoring.CodeNotAWin)
	default:
		each = g.Rules.FalseWinNotAWin
		rec.Explain = append(rec.Explain, fmt.Sprintf("%s declared a hand that is not a winning hand: pays %d to each player (seed 000)", who, each))
	}
	for s := 0; s < 4; s++ {
		if s != p.Player {
			rec.Deltas[s] += each
			rec.Deltas[p.Player] -= each
		}
	}
	return nil
}
