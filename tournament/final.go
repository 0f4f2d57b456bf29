package tournament

import (
	"fmt"
	"sort"
)

// Final is a game's settlement: the raw points at the end and the score
// the tournament counts.
type Final struct {
	Settlement Settlement `json:"settlement"`
	// Raw are the points at the end, leftover riichi sticks included.
	Raw [4]int `json:"raw"`
	// Leftover counts the riichi sticks given to first place.
	Leftover int `json:"leftover_sticks,omitempty"`
	// Place is each player's placement, 1 to 4; ties are broken by
	// original seat (seed 000) except for table points, which are shared.
	Place [4]int `json:"place"`
	// Score is the game's score in the tournament (MSMC final score,
	// MCR raw points, Zung Jung and WSM points).
	Score [4]int `json:"score"`
	// TablePoints are MCR's rank points (4/2/1/0, shared on ties).
	TablePoints [4]float64 `json:"table_points,omitempty"`
	Explain     []string   `json:"explain"`
}

// Placement orders seats by points, highest first; equal points go to the
// earlier original seat (seed 000: the original dealer wins all ties, the
// original North loses them).
func Placement(points [4]int) [4]int {
	order := [4]int{0, 1, 2, 3}
	sort.SliceStable(order[:], func(i, j int) bool { return points[order[i]] > points[order[j]] })
	return order
}

// settleFinal computes the game's Final from its current scores.
func (g *Game) settleFinal() *Final {
	f := &Final{Settlement: g.Rules.Settlement, Raw: g.Scores}
	if g.Sticks > 0 && g.Rules.LeftoverSticksToFirst {
		first := Placement(f.Raw)[0]
		f.Raw[first] += g.Sticks * riichiBet
		f.Leftover = g.Sticks
		f.Explain = append(f.Explain, fmt.Sprintf("the %d riichi sticks left on the table go to first place, %s (seed 000)", g.Sticks, g.Players[first]))
	}
	order := Placement(f.Raw)
	for i, s := range order {
		f.Place[s] = i + 1
	}
	switch g.Rules.Settlement {
	case SettleMSMC:
		var lines []string
		f.Score, lines = MSMCScore(f.Raw)
		f.Explain = append(f.Explain, lines...)
	case SettleTablePoints:
		f.Score = f.Raw
		f.TablePoints = TablePoints(f.Raw)
		f.Explain = append(f.Explain, fmt.Sprintf("table points 4/2/1/0, shared on ties: %v", f.TablePoints))
	default:
		f.Score = f.Raw
	}
	return f
}

// MSMCScore is seed 000's final scoring of one game's raw points, with the
// steps explained:
//
//	all players subtract 30,000; first place adds 20,000; everyone divides
//	by 1,000, rounding a negative score up and a positive one down (towards
//	zero); placement bonus +20, +10, −10, −20 (ties: original seat order);
//	first place absorbs whatever keeps the four from adding up to 0.
//
// Placement is by the game's points: dividing never reorders players, it
// can only make two of them equal, and then the one placed higher in the
// game keeps the higher bonus.
func MSMCScore(raw [4]int) (score [4]int, explain []string) {
	order := Placement(raw)
	first := order[0]
	for s := range raw {
		v := raw[s] - 30000
		if s == first {
			v += 20000
		}
		// Go's integer division truncates towards zero: down for positive
		// scores, up for negative ones, as the seed asks.
		score[s] = v / 1000
	}
	explain = append(explain, fmt.Sprintf("(points − 30,000, first +20,000) ÷ 1,000 towards zero: %v", score))
	bonus := [4]int{20, 10, -10, -20}
	for i, s := range order {
		score[s] += bonus[i]
	}
	explain = append(explain, fmt.Sprintf("placement bonus +20/+10/−10/−20: %v", score))
	sum := 0
	for _, v := range score {
		sum += v
	}
	if sum != 0 {
		score[first] -= sum
		explain = append(explain, fmt.Sprintf("first place adjusted by %d so the scores add up to 0: %v", -sum, score))
	}
	return score, explain
}

// TablePoints gives MCR rank points: 4, 2, 1 and 0 for first to fourth;
// players tied on points share the table points of the places they hold.
// (MCR tournament practice; the seeds give no other split.)
func TablePoints(raw [4]int) [4]float64 {
	rank := [4]float64{4, 2, 1, 0}
	order := Placement(raw)
	var out [4]float64
	for i := 0; i < 4; {
		j := i
		for j < 4 && raw[order[j]] == raw[order[i]] {
			j++
		}
		share := 0.0
		for k := i; k < j; k++ {
			share += rank[k]
		}
		share /= float64(j - i)
		for k := i; k < j; k++ {
			out[order[k]] = share
		}
		i = j
	}
	return out
}
