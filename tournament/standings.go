package tournament

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Standing is one player's line in the standings.
type Standing struct {
	Rank   int    `json:"rank"`
	Player string `json:"player"`
	Stage  Stage  `json:"stage,omitempty"`
	// Games lists the game ids and Scores each game's score, in order.
	Games  []string `json:"games"`
	Scores []int    `json:"scores"`
	// TablePoints add up MCR rank points.
	TablePoints float64 `json:"table_points,omitempty"`
	// Penalty is the score penalties deducted (a positive number).
	Penalty int `json:"penalty"`
	// Total is the final score: game scores less penalties.
	Total int `json:"total"`
	// Tied marks a line equal to the one above on everything counted: the
	// seeds give no further tie-break, so the order is the draw order and
	// the organiser decides.
	Tied bool `json:"tied,omitempty"`
}

// Standings adds up finished games and score penalties per player. Table
// points, when any game has them, rank first (MCR); then the total.
// Players keep the order they first appear in when everything is equal.
func Standings(games []*Game, penalties []Penalty) []Standing {
	byName := map[string]*Standing{}
	var order []string
	row := func(name string) *Standing {
		if r, ok := byName[name]; ok {
			return r
		}
		order = append(order, name)
		byName[name] = &Standing{Player: name}
		return byName[name]
	}
	for _, g := range games {
		// A game still being played counts with its settlement so far.
		f := g.Final
		if f == nil {
			f = g.settleFinal()
		}
		for s, name := range g.Players {
			r := row(name)
			r.Games = append(r.Games, g.ID)
			r.Scores = append(r.Scores, f.Score[s])
			r.Total += f.Score[s]
			r.TablePoints += f.TablePoints[s]
		}
	}
	for _, p := range penalties {
		if p.Points == 0 {
			continue
		}
		r := row(p.Player)
		r.Penalty += p.Points
		r.Total -= p.Points
	}
	out := make([]Standing, 0, len(order))
	for _, name := range order {
		out = append(out, *byName[name])
	}
	same := func(a, b Standing) bool { return a.TablePoints == b.TablePoints && a.Total == b.Total }
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].TablePoints != out[j].TablePoints {
			return out[i].TablePoints > out[j].TablePoints
		}
		return out[i].Total > out[j].Total
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && same(out[i], out[i-1]) {
			out[i].Tied = true
		}
	}
	return out
}

// standings are one stage's lines, in draw order for equal totals.
func (t *Tournament) standings(played []*Played, stage Stage) []Standing {
	var games []*Game
	for _, p := range played {
		games = append(games, p.Game)
	}
	// Penalties count for the players of these games only: a table's
	// standings must not list a player penalised at another table.
	seated := map[string]bool{}
	for _, g := range games {
		for _, name := range g.Players {
			seated[name] = true
		}
	}
	var pens []Penalty
	for _, p := range t.Penalties {
		if p.Stage == string(stage) && seated[p.Player] {
			pens = append(pens, p)
		}
	}
	rows := Standings(games, pens)
	// Equal totals keep the draw order, not the seating order of games.
	pos := map[string]int{}
	for i, e := range t.Entrants {
		pos[e] = i
	}
	pos[t.Organizer] = len(t.Entrants)
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Total != rows[j].Total {
			return rows[i].Total > rows[j].Total
		}
		return pos[rows[i].Player] < pos[rows[j].Player]
	})
	for i := range rows {
		rows[i].Rank, rows[i].Stage = i+1, stage
		rows[i].Tied = i > 0 && rows[i].Total == rows[i-1].Total
	}
	return rows
}

// Standings are the tournament's order: the finalists by their final score
// in the finals (reset to 0 when the finals begin, seed 000), then everyone
// else by the qualifier. The organiser who filled a table is not listed.
func (t *Tournament) Standings() []Standing {
	var out []Standing
	finalists, err := t.Finalists()
	if err == nil && len(t.games(Finals, 0)) > 0 {
		out = t.standings(t.games(Finals, 0), Finals)
	} else {
		finalists = nil
	}
	var q []*Played
	for _, p := range t.Games {
		if p.Stage == Qualifier {
			q = append(q, p)
		}
	}
	for _, r := range t.standings(q, Qualifier) {
		if !contains(finalists, r.Player) && r.Player != t.Organizer {
			out = append(out, r)
		}
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// Winner is the tournament winner once the finals are complete.
func (t *Tournament) Winner() (string, error) {
	if n := len(t.games(Finals, 0)); n < t.Format.FinalGames {
		return "", fmt.Errorf("the finals have %d of %d games", n, t.Format.FinalGames)
	}
	return t.Standings()[0].Player, nil
}

// WriteCSV writes standings as CSV with a header line.
func WriteCSV(w io.Writer, rows []Standing) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"rank", "player", "stage", "games", "game_scores", "table_points", "penalty", "total", "tied"})
	for _, r := range rows {
		scores := make([]string, len(r.Scores))
		for i, s := range r.Scores {
			scores[i] = strconv.Itoa(s)
		}
		_ = cw.Write([]string{
			strconv.Itoa(r.Rank), r.Player, string(r.Stage), strings.Join(r.Games, " "), strings.Join(scores, " "),
			strconv.FormatFloat(r.TablePoints, 'f', -1, 64), strconv.Itoa(r.Penalty), strconv.Itoa(r.Total), strconv.FormatBool(r.Tied),
		})
	}
	cw.Flush()
	return cw.Error()
}
