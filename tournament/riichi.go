package tournament

import (
	"fmt"
	"slices"

	"mjscan/scoring"
)

// riichiBet is what a riichi declaration puts on the table.
const riichiBet = 1000

// settleRiichi settles a riichi hand: riichi bets, the win (engine
// payments, honba and sticks included), the draw (tenpai payments) or the
// chombo, and where the deal moves on.
func (g *Game) settleRiichi(s *Settled) error {
	rec := &s.Hand
	p := rec.Play
	for _, d := range p.DeadHands {
		if slices.Contains(p.Riichi, d) {
			return fmt.Errorf("%s has a dead hand and may not declare riichi (seed 000)", g.Players[d])
		}
	}
	bets := func() {
		for _, seat := range p.Riichi {
			rec.Deltas[seat] -= riichiBet
			rec.Explain = append(rec.Explain, fmt.Sprintf("%s declares riichi and puts 1,000 on the table", g.Players[seat]))
		}
		rec.SticksAfter = rec.SticksBefore + len(p.Riichi)
	}
	next := g.position()
	pass := func() {
		next.dealer++
		if next.dealer == 4 {
			next.dealer, next.round = 0, next.round+1
		}
	}
	switch p.Outcome {
	case Win:
		bets()
		if err := g.riichiWin(rec); err != nil {
			return err
		}
		if p.Player == g.dealer {
			next.honba++
		} else {
			next.honba = 0
			pass()
		}
	case Draw:
		bets()
		dealerReady, err := g.riichiDraw(rec)
		if err != nil {
			return err
		}
		next.honba++
		if !dealerReady {
			pass()
		}
	case Chombo:
		// Seed 000: riichi bets of this hand go back to their owners, the
		// sticks of earlier hands stay; seat winds do not change and no
		// repeat counter is added.
		rec.SticksAfter = rec.SticksBefore
		if len(p.Riichi) > 0 {
			rec.Explain = append(rec.Explain, "the riichi bets of this hand are returned to their owners")
		}
		g.chombo(rec)
	case FalseWin:
		return fmt.Errorf("riichi has no false-win payment: a revealed false win is a chombo, an unrevealed one a dead hand (seed 000)")
	}
	s.next = next
	return nil
}

func (g *Game) riichiWin(rec *HandRecord) error {
	p := rec.Play
	req := *p.Hand
	if err := g.fillRules(&req); err != nil {
		return err
	}
	req.SeatWind = SeatWind(p.Player, g.dealer).String()
	req.RoundWind = scoring.Wind(g.round).String()
	req.Honba = g.honba
	req.RiichiSticks = rec.SticksAfter
	req.Tsumo = p.From == NoSeat
	declared := slices.Contains(p.Riichi, p.Player)
	if declared && !req.DoubleRiichi {
		req.Riichi = true
	}
	if (req.Riichi || req.DoubleRiichi) && !declared {
		return fmt.Errorf("the hand claims riichi but %s is not among this hand's riichi declarations", g.Players[p.Player])
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
	got := 0
	for _, pay := range res.Points.Payments {
		switch pay.From {
		case "riichi sticks":
			if pay.Amount != rec.SticksAfter*riichiBet {
				return fmt.Errorf("the engine paid %d for riichi sticks, the table holds %d", pay.Amount, rec.SticksAfter*riichiBet)
			}
			rec.SticksAfter = 0
			rec.Explain = append(rec.Explain, fmt.Sprintf("%s takes the %d riichi sticks on the table", g.Players[p.Player], pay.Amount/riichiBet))
		case "discarder":
			if p.From == NoSeat {
				return fmt.Errorf("the engine charged a discarder for a self-draw")
			}
			rec.Deltas[p.From] -= pay.Amount
			rec.Explain = append(rec.Explain, fmt.Sprintf("%s pays %d", g.Players[p.From], pay.Amount))
		default:
			s, err := g.payer(pay.From, p.Player)
			if err != nil {
				return err
			}
			if s == p.Player {
				return fmt.Errorf("the engine charged the winner")
			}
			rec.Deltas[s] -= pay.Amount
			rec.Explain = append(rec.Explain, fmt.Sprintf("%s pays %d%s", g.Players[s], pay.Amount, note(pay.Note)))
		}
		got += pay.Amount
	}
	if got != res.Points.Total {
		return fmt.Errorf("the engine's payments add up to %d, its total says %d", got, res.Points.Total)
	}
	rec.Deltas[p.Player] += got
	return nil
}

// payer is the original seat of a payer the engine names: by seat wind
// ("E"…"N"), or (responsibility, pao) by where the player sits from the
// winner: "left" plays just before the winner, "right" just after,
// "across" opposite.
func (g *Game) payer(from string, winner int) (int, error) {
	switch from {
	case "left":
		return (winner + 3) % 4, nil
	case "right":
		return (winner + 1) % 4, nil
	case "across":
		return (winner + 2) % 4, nil
	}
	w, err := scoring.ParseWind(from)
	if err != nil {
		return 0, fmt.Errorf("the engine named an unknown payer %q", from)
	}
	return seatAt(w, g.dealer), nil
}

// riichiDraw pays for readiness at an exhaustive draw and says whether the
// dealer was ready (the dealer then keeps the deal).
func (g *Game) riichiDraw(rec *HandRecord) (bool, error) {
	p := rec.Play
	for _, s := range p.PoolOfDreams {
		if slices.Contains(p.DeadHands, s) {
			return false, fmt.Errorf("%s has a dead hand and cannot earn a Pool of Dreams (seed 000)", g.Players[s])
		}
	}
	var ready []int
	for _, s := range p.Tenpai {
		if slices.Contains(p.DeadHands, s) {
			rec.Explain = append(rec.Explain, fmt.Sprintf("%s has a dead hand: never tenpai at a draw (seed 000)", g.Players[s]))
			continue
		}
		ready = append(ready, s)
	}
	if len(p.PoolOfDreams) > 0 {
		// Seed 000: "If a chombo and win happen at the same time
		// (including a Pool of Dreams), the win takes priority and the
		// chombo is ignored" — so a riichi without tenpai goes unpunished.
		rec.Explain = append(rec.Explain, fmt.Sprintf("exhaustive draw with a Pool of Dreams; %d riichi sticks stay on the table", rec.SticksAfter))
		g.poolOfDreams(rec)
		return slices.Contains(ready, g.dealer), nil
	}
	for _, s := range p.Riichi {
		if !slices.Contains(ready, s) {
			return false, fmt.Errorf("%s declared riichi and is not tenpai at the draw: that is a chombo (seed 000), record it as one", g.Players[s])
		}
	}
	rec.Explain = append(rec.Explain, fmt.Sprintf("exhaustive draw; %d riichi sticks stay on the table", rec.SticksAfter))
	if n := len(ready); n > 0 && n < 4 {
		gain, loss := g.Rules.NotenPayment/n, g.Rules.NotenPayment/(4-n)
		for s := 0; s < 4; s++ {
			if slices.Contains(ready, s) {
				rec.Deltas[s] += gain
				rec.Explain = append(rec.Explain, fmt.Sprintf("%s is tenpai and receives %d", g.Players[s], gain))
			} else {
				rec.Deltas[s] -= loss
				rec.Explain = append(rec.Explain, fmt.Sprintf("%s is not tenpai and pays %d", g.Players[s], loss))
			}
		}
	}
	return slices.Contains(ready, g.dealer), nil
}

// poolOfDreams pays each Pool of Dreams as a self-drawn mangan (4,000 all
// for the dealer; 2,000, and 4,000 from the dealer, for a non-dealer),
// without honba, in place of the tenpai payments; the riichi sticks stay
// for the next winner. (Seed 000 names the Pool of Dreams but not its
// payment; this is the usual one.)
func (g *Game) poolOfDreams(rec *HandRecord) {
	for _, w := range rec.Play.PoolOfDreams {
		for s := 0; s < 4; s++ {
			if s == w {
				continue
			}
			amount := 2000
			if w == g.dealer || s == g.dealer {
				amount = 4000
			}
			rec.Deltas[s] -= amount
			rec.Deltas[w] += amount
			rec.Explain = append(rec.Explain, fmt.Sprintf("Pool of Dreams: %s pays %d to %s", g.Players[s], amount, g.Players[w]))
		}
	}
}

// chombo charges the offender (seed 000): a dealer pays ChomboDealer to
// each player, a non-dealer ChomboDealer to the dealer and ChomboOther to
// the two others.
func (g *Game) chombo(rec *HandRecord) {
	off := rec.Play.Player
	for s := 0; s < 4; s++ {
		if s == off {
			continue
		}
		amount := g.Rules.ChomboOther
		if off == g.dealer || s == g.dealer {
			amount = g.Rules.ChomboDealer
		}
		rec.Deltas[off] -= amount
		rec.Deltas[s] += amount
		rec.Explain = append(rec.Explain, fmt.Sprintf("chombo: %s pays %d to %s", g.Players[off], amount, g.Players[s]))
	}
}

// fillRules sets the game's rule set on a hand and refuses another one.
func (g *Game) fillRules(req *scoring.Request) error {
	// A hand need not repeat what its game says: no rules is the game's
	// rule set and preset, the game's rule set alone its preset too.
	if req.Rules == "" {
		req.Rules = g.Rules.Rules
	}
	if req.Rules == g.Rules.Rules && req.Preset == "" {
		req.Preset = g.Rules.Preset
	}
	if req.Rules != g.Rules.Rules || req.Preset != g.Rules.Preset {
		return fmt.Errorf("the hand is scored under %s/%s but the game plays %s/%s: leave rules and preset out of the hand", shown(req.Rules), shown(req.Preset), g.Rules.Rules, g.Rules.Preset)
	}
	return nil
}

// notAWin explains an engine refusal in the referee's terms.
func notAWin(res scoring.Result) error {
	msg := "the engine did not accept the hand"
	if res.Error != nil {
		msg = res.Error.Message
	}
	return &scoring.Error{Code: codeOf(res), Message: msg + ": not recorded as a win (a revealed false win is a chombo or a false win)"}
}

func codeOf(res scoring.Result) string {
	if res.Error != nil {
		return res.Error.Code
	}
	return scoring.CodeNotAWin
}

func describe(res *scoring.Result) string {
	switch {
	case res.Han > 0 || res.Yakuman > 0:
		s := fmt.Sprintf("%d han %d fu", res.Han, res.Fu)
		if res.Yakuman > 0 {
			s = fmt.Sprintf("%d× yakuman", res.Yakuman)
		}
		if res.Limit != "" {
			s += " (" + res.Limit + ")"
		}
		return fmt.Sprintf("%s, %d in all", s, res.Points.Total)
	case res.Fan > 0:
		return fmt.Sprintf("%d fan", res.Fan)
	case res.Value != nil && *res.Value > 0:
		return fmt.Sprintf("%d points, %d in all", *res.Value, res.Points.Total)
	}
	return fmt.Sprintf("%d in all", res.Points.Total)
}

func note(n string) string {
	if n == "" {
		return ""
	}
	return " (" + n + ")"
}
