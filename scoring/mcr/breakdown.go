package mcr

import "mjscan/scoring"

// Breakdown explains an MCR result.
type Breakdown struct {
	Form        string `json:"form,omitempty"`
	Arrangement string `json:"arrangement,omitempty"`
	// Notation is the hand in the MCR tools' bracket notation.
	Notation string    `json:"mcr_notation"`
	Points   int       `json:"points_without_flowers"`
	Flowers  int       `json:"flowers"`
	Minimum  int       `json:"minimum"`
	Fans     []FanView `json:"fans,omitempty"`
	// Alternatives are the other readings of the hand, for a referee.
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// FalseWin is the penalty for declaring this hand.
	FalseWin *PenaltyView `json:"false_win_penalty,omitempty"`
	Rules    Rules        `json:"rules"`
}

// FanView is one fan with the sets that earned it.
type FanView struct {
	ID     int      `json:"id"`
	Name   string   `json:"name"`
	Fan    int      `json:"fan"`
	Count  int      `json:"count"`
	Points int      `json:"points"`
	Sets   []string `json:"sets,omitempty"`
}

// Alternative is one reading of the hand.
type Alternative struct {
	Form        string   `json:"form"`
	Arrangement string   `json:"arrangement,omitempty"`
	Points      int      `json:"points_without_flowers"`
	Fans        []string `json:"fans"`
	Chosen      bool     `json:"chosen"`
}

// Readings lists the readings weighed for a referee (scoring.Weighed).
// Their points leave out the flowers, so they carry no fan to compare a
// claim with.
func (b *Breakdown) Readings() []scoring.Alternative {
	out := make([]scoring.Alternative, len(b.Alternatives))
	for i := range b.Alternatives {
		a := &b.Alternatives[i]
		out[i] = scoring.Alternative{Shown: a, Arrangement: a.Arrangement, Chosen: a.Chosen}
	}
	return out
}

// PenaltyView is a false-win penalty.
type PenaltyView struct {
	Reason   string            `json:"reason"`
	Total    int               `json:"total"`
	Payments []scoring.Payment `json:"payments"`
}

func explainReading(hi *handInput, rules *Rules, ev *evaluator, best *reading, seen []reading) *Breakdown {
	b := &Breakdown{
		Form:     best.form.String(),
		Notation: formatInput(hi),
		Points:   best.total,
		Flowers:  hi.flowers,
		Minimum:  rules.Minimum,
		Rules:    *rules,
	}
	b.Arrangement = arrangement(hi, best)
	for i := 1; i < numFans; i++ {
		if n := best.fans[i]; n > 0 {
			v := fanValue(Fan(i), rules)
			b.Fans = append(b.Fans, FanView{ID: i, Name: fanNames[i], Fan: v, Count: int(n), Points: v * int(n), Sets: fanSets(hi, best, Fan(i))})
		}
	}
	if hi.flowers > 0 {
		b.Fans = append(b.Fans, FanView{ID: int(FlowerTiles), Name: fanNames[FlowerTiles], Fan: 1, Count: hi.flowers, Points: hi.flowers})
	}
	if len(seen) > 1 {
		for i := range seen {
			a := &seen[i]
			alt := Alternative{Form: a.form.String(), Arrangement: arrangement(hi, a), Points: a.total, Chosen: a.form == best.form && a.packs == best.packs}
			for j := 1; j < numFans; j++ {
				if a.fans[j] > 0 {
					alt.Fans = append(alt.Fans, fanNames[j])
				}
			}
			b.Alternatives = append(b.Alternatives, alt)
		}
	}
	if best.total < rules.Minimum {
		total, pays := Penalty(rules, FalseWinBelowMinimum, scoring.Wind(hi.seat))
		b.FalseWin = &PenaltyView{Reason: "under the minimum points", Total: total, Payments: pays}
	}
	return b
}
