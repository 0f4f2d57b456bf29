package tournament

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"mjscan/scoring"
)

// MJAI writes a riichi game as an MJAI event log, one JSON object a line:
// start_game, then for each hand start_kyoku, the riichi declarations
// (reach, reach_accepted), its end (hora or ryukyoku) with deltas and
// scores, end_kyoku, and end_game. The record keeps results, not every
// draw and discard, so the dealt hands are face-down tiles ("?") and the
// log replays the scores, not the play. A chombo, which MJAI has no event
// for, is a ryukyoku with reason "chombo"; yaku carry the engine's names.
func (g *Game) MJAI(w io.Writer) error {
	if !g.Rules.Riichi {
		return fmt.Errorf("MJAI is a riichi notation; %s games cannot be written in it", g.Rules.Name)
	}
	enc := json.NewEncoder(w)
	emit := func(v map[string]any) error { return enc.Encode(v) }
	if err := emit(map[string]any{"type": "start_game", "names": g.Players[:]}); err != nil {
		return err
	}
	scores := [4]int{}
	for i := range scores {
		scores[i] = g.Rules.StartPoints
	}
	for _, h := range g.Hands {
		hidden := make([][]string, 4)
		for i := range hidden {
			hidden[i] = strings.Split(strings.Repeat("?", 13), "")
		}
		dora := "?"
		if h.Play.Hand != nil {
			if ts, err := mjaiTiles(h.Play.Hand.DoraIndicators); err == nil && len(ts) > 0 {
				dora = ts[0]
			}
		}
		kyoku := map[string]any{
			"type": "start_kyoku", "bakaze": h.RoundWind, "kyoku": h.Dealer + 1, "honba": h.Honba,
			"kyotaku": h.SticksBefore, "oya": h.Dealer, "dora_marker": dora, "scores": scores, "tehais": hidden,
		}
		if err := emit(kyoku); err != nil {
			return err
		}
		if h.Play.Outcome != Chombo {
			for _, s := range h.Play.Riichi {
				scores[s] -= riichiBet
				var d [4]int
				d[s] = -riichiBet
				if err := emit(map[string]any{"type": "reach", "actor": s}); err != nil {
					return err
				}
				if err := emit(map[string]any{"type": "reach_accepted", "actor": s, "deltas": d, "scores": scores}); err != nil {
					return err
				}
			}
		}
		scores = h.Scores
		// Deltas after the riichi bets, as MJAI's hora and ryukyoku carry them.
		end := h.Deltas
		if h.Play.Outcome != Chombo {
			for _, s := range h.Play.Riichi {
				end[s] += riichiBet
			}
		}
		var ev map[string]any
		switch h.Play.Outcome {
		case Win:
			ev = g.mjaiHora(h, end)
		case Draw:
			tenpai := [4]bool{}
			for _, s := range h.Play.Tenpai {
				tenpai[s] = true
			}
			for _, s := range h.Play.DeadHands {
				tenpai[s] = false
			}
			ev = map[string]any{"type": "ryukyoku", "reason": "fanpai", "tenpais": tenpai, "tehais": hidden}
		default:
			ev = map[string]any{"type": "ryukyoku", "reason": string(h.Play.Outcome), "actor": h.Play.Player, "tehais": hidden}
		}
		ev["deltas"], ev["scores"] = end, scores
		if err := emit(ev); err != nil {
			return err
		}
		if err := emit(map[string]any{"type": "end_kyoku"}); err != nil {
			return err
		}
	}
	end := map[string]any{"type": "end_game"}
	if g.Final != nil {
		end["scores"] = g.Final.Raw
	}
	return emit(end)
}

func (g *Game) mjaiHora(h HandRecord, deltas [4]int) map[string]any {
	p := h.Play
	target := p.From
	if target == NoSeat {
		target = p.Player
	}
	ev := map[string]any{"type": "hora", "actor": p.Player, "target": target}
	req := p.Hand
	if win, err := mjaiTiles(req.WinTile); err == nil && len(win) == 1 {
		ev["pai"] = win[0]
	}
	if hand, err := mjaiTiles(req.Hand); err == nil {
		// The hand holds the winning tile; MJAI's hora_tehais does not.
		if pai, ok := ev["pai"].(string); ok {
			for i, t := range hand {
				if t == pai {
					hand = append(hand[:i], hand[i+1:]...)
					break
				}
			}
		}
		ev["hora_tehais"] = hand
	}
	ura, _ := mjaiTiles(req.UraDoraIndicators)
	if ura == nil {
		ura = []string{}
	}
	ev["uradora_markers"] = ura
	if r := h.Result; r != nil {
		yakus := [][]any{}
		for _, y := range r.Yaku {
			v := y.Han
			if y.Yakuman > 0 {
				v = 13 * y.Yakuman
			}
			yakus = append(yakus, []any{strings.ToLower(strings.ReplaceAll(y.Name, " ", "_")), v})
		}
		ev["yakus"], ev["fu"], ev["fan"] = yakus, r.Fu, r.Han
		ev["hora_points"] = deltas[p.Player] - 1000*h.SticksBefore - 1000*len(p.Riichi) - 300*h.Honba
	}
	return ev
}

// mjaiTiles converts CONTRACT tile codes to MJAI names: 1m…9m, 5mr for a
// red five, E S W N for the winds and P F C for white, green and red.
func mjaiTiles(s string) ([]string, error) {
	ts, err := scoring.ParseTiles(s)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		switch {
		case t.IsRed():
			out = append(out, t.Kind().String()+"r")
		case t.IsHonor():
			out = append(out, [...]string{"E", "S", "W", "N", "P", "F", "C"}[t-scoring.Tile(27)])
		case t < 27:
			out = append(out, t.String())
		default:
			return nil, fmt.Errorf("tile %s has no MJAI name", t)
		}
	}
	return out, nil
}
