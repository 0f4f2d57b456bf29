package tournament

import (
	"errors"
	"fmt"
	"sort"
)

// Stage names a part of the tournament.
type Stage string

const (
	Qualifier Stage = "qualifier"
	Finals    Stage = "final"
)

// Format is the MSMC 2016 tournament placement plan for a number of
// entrants (seed 000, "Tournament placement").
type Format struct {
	Entrants int `json:"entrants"`
	// QualifierGames are the games before the finals: for 5 or 6 entrants
	// two consecutive single-table games; for 7 or 8 two tables, each
	// playing two games; none for 4.
	QualifierGames int `json:"qualifier_games"`
	Tables         int `json:"tables"`
	// AdvanceFromGame is, for 5 or 6 entrants, how many players of each
	// qualifier game go to the finals by their placement in it: with six
	// the first two of each game, with five the first of game one and the
	// first three of game two.
	AdvanceFromGame []int `json:"advance_from_game,omitempty"`
	// AdvancePerTable is, for 7 or 8, how many players of each table go on
	// by their combined final score over the table's games.
	AdvancePerTable int `json:"advance_per_table,omitempty"`
	// OrganizerFills: a table of three is joined by the organiser, who
	// cannot enter the finals.
	OrganizerFills bool `json:"organizer_fills,omitempty"`
	// FinalGames: two, or three with five or fewer entrants.
	FinalGames int `json:"final_games"`
}

// MSMCFormat is seed 000's plan for n entrants.
func MSMCFormat(n int) (Format, error) {
	f := Format{Entrants: n, FinalGames: 2}
	switch {
	case n < 4:
		return f, fmt.Errorf("%d entrants: a tournament needs 4 to 8 entrants, four at a table", n)
	case n == 4:
		f.FinalGames = 3
	case n == 5:
		f.QualifierGames, f.Tables, f.AdvanceFromGame, f.FinalGames = 2, 1, []int{1, 3}, 3
	case n == 6:
		f.QualifierGames, f.Tables, f.AdvanceFromGame = 2, 1, []int{2, 2}
	case n == 7 || n == 8:
		f.QualifierGames, f.Tables, f.AdvancePerTable, f.OrganizerFills = 4, 2, 2, n == 7
	default:
		// Seed 000 leaves more than eight players "to be discussed".
		return f, fmt.Errorf("%d entrants: a tournament takes 4 to 8 entrants (the MSMC 2016 plan has no place for more)", n)
	}
	return f, nil
}

// Tournament is an MSMC 2016 tournament: its entrants (in the order of the
// random draw), the games played, score penalties, and the standings that
// follow from them.
type Tournament struct {
	Name string `json:"name"`
	// Entrants in draw order: the draw decides tables and who sits out.
	Entrants  []string  `json:"entrants"`
	Organizer string    `json:"organizer,omitempty"`
	Format    Format    `json:"format"`
	Games     []*Played `json:"games"`
	Penalties []Penalty `json:"penalties,omitempty"`
}

// Played is a finished game with its place in the tournament.
type Played struct {
	Stage Stage `json:"stage"`
	// Table is the qualifier table (0 or 1) for 7 or 8 entrants.
	Table int   `json:"table"`
	Game  *Game `json:"game"`
}

// NewMSMC sets up a tournament. Entrants come in draw order.
func NewMSMC(name string, entrants []string, organizer string) (*Tournament, error) {
	if err := CheckID("the tournament id", name); err != nil {
		return nil, err
	}
	f, err := MSMCFormat(len(entrants))
	if err != nil {
		return nil, err
	}
	if organizer != "" {
		if err := CheckName("the organiser", organizer); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for i, e := range entrants {
		if err := CheckName(fmt.Sprintf("entrant %d", i+1), e); err != nil {
			return nil, err
		}
		if seen[e] || e == organizer {
			return nil, fmt.Errorf("entrant %q: names must be given, distinct and not the organiser", e)
		}
		seen[e] = true
	}
	if f.OrganizerFills && organizer == "" {
		return nil, errors.New("seven entrants: a table of three needs the organiser to fill in")
	}
	return &Tournament{Name: name, Entrants: entrants, Organizer: organizer, Format: f}, nil
}

// NextPlayers says who plays the next game of a stage and table: the game
// record must seat exactly these players (in any seats).
func (t *Tournament) NextPlayers(stage Stage, table int) ([]string, error) {
	f := t.Format
	played := t.games(stage, table)
	switch stage {
	case Qualifier:
		switch {
		case f.QualifierGames == 0:
			return nil, errors.New("four entrants go straight to the finals")
		case f.AdvanceFromGame != nil:
			if len(played) == 0 {
				return t.Entrants[:4], nil
			}
			if len(played) == 1 {
				// The second game is played by everyone the first did not
				// send to the finals.
				out := []string{}
				gone := t.advancedFrom(played[0].Game, f.AdvanceFromGame[0])
				for _, e := range t.Entrants {
					if !contains(gone, e) {
						out = append(out, e)
					}
				}
				return out, nil
			}
			return nil, errors.New("both qualifier games are played")
		default:
			if table < 0 || table >= f.Tables {
				return nil, fmt.Errorf("table %d: the qualifier has tables 0 and 1", table)
			}
			if len(played) >= 2 {
				return nil, fmt.Errorf("table %d has played both its games", table)
			}
			if table == 0 {
				return t.Entrants[:4], nil
			}
			out := append([]string{}, t.Entrants[4:]...)
			if len(out) == 3 {
				out = append(out, t.Organizer)
			}
			return out, nil
		}
	case Finals:
		if len(played) >= f.FinalGames {
			return nil, errors.New("the finals are over")
		}
		return t.Finalists()
	}
	return nil, fmt.Errorf("unknown stage %s: use %q or %q", shown(string(stage)), Qualifier, Finals)
}

// Add records a finished game. The game must seat the players NextPlayers
// names; an unfinished game is ended (the organiser's time limit).
func (t *Tournament) Add(stage Stage, table int, g *Game) error {
	if err := t.CheckAdd(stage, table, g); err != nil {
		return err
	}
	g.End()
	t.Games = append(t.Games, &Played{Stage: stage, Table: table, Game: g})
	return nil
}

// CheckAdd says why Add would refuse the game, changing neither the
// tournament nor the game.
func (t *Tournament) CheckAdd(stage Stage, table int, g *Game) error {
	if tables := max(t.Format.Tables, 1); table < 0 || table >= tables || (stage == Finals && table != 0) {
		if stage == Finals || tables == 1 {
			return fmt.Errorf("table %d: this stage is played at table 0", table)
		}
		return fmt.Errorf("table %d: the qualifier has tables 0 to %d", table, tables-1)
	}
	want, err := t.NextPlayers(stage, table)
	if err != nil {
		return err
	}
	got := append([]string{}, g.Players[:]...)
	w := append([]string{}, want...)
	sort.Strings(got)
	sort.Strings(w)
	if fmt.Sprint(got) != fmt.Sprint(w) {
		return fmt.Errorf("game %s seats %v, but this game is for %v", g.ID, g.Players, want)
	}
	if g.Rules.Settlement != SettleMSMC {
		return fmt.Errorf("game %s is played under %s, the tournament under msmc-2016", g.ID, g.Rules.Name)
	}
	return nil
}

// Penalize takes points off a player's final score in a stage (seed 000
// score penalties: a dropped tile 2 per tile, talk up to 10, …).
func (t *Tournament) Penalize(p Penalty) error {
	p, err := t.CheckPenalty(p)
	if err != nil {
		return err
	}
	t.Penalties = append(t.Penalties, p)
	return nil
}

// CheckPenalty checks a penalty and returns it as Penalize records it:
// without a stage it counts in the stage being played. The tournament
// does not change; a log that stores the returned penalty replays to the
// same stage later.
func (t *Tournament) CheckPenalty(p Penalty) (Penalty, error) {
	if err := checkPenalty(p); err != nil {
		return p, err
	}
	if !contains(t.Entrants, p.Player) {
		return p, fmt.Errorf("%.40q is not an entrant", p.Player)
	}
	if p.Stage == "" {
		p.Stage = string(Qualifier)
		if len(t.games(Finals, 0)) > 0 || t.Format.QualifierGames == 0 {
			p.Stage = string(Finals)
		}
	}
	// A penalty in a stage the tournament does not play would be kept and
	// never counted.
	if Stage(p.Stage) == Qualifier && t.Format.QualifierGames == 0 {
		return p, fmt.Errorf("this tournament has no qualifier (%d entrants go straight to the finals): give the penalty in the %q stage, or leave the stage out", t.Format.Entrants, Finals)
	}
	return p, nil
}

func (t *Tournament) games(stage Stage, table int) []*Played {
	var out []*Played
	for _, p := range t.Games {
		if p.Stage == stage && (stage == Finals || t.Format.AdvancePerTable == 0 || p.Table == table) {
			out = append(out, p)
		}
	}
	return out
}

// advancedFrom is the first k of a game by placement, the organiser never
// among them.
func (t *Tournament) advancedFrom(g *Game, k int) []string {
	var out []string
	for _, s := range Placement(g.Final.Raw) {
		if len(out) < k && g.Players[s] != t.Organizer {
			out = append(out, g.Players[s])
		}
	}
	return out
}

// Finalists are the four players of the finals, once the qualifier is
// complete.
func (t *Tournament) Finalists() ([]string, error) {
	f := t.Format
	switch {
	case f.QualifierGames == 0:
		return t.Entrants, nil
	case f.AdvanceFromGame != nil:
		played := t.games(Qualifier, 0)
		if len(played) < 2 {
			return nil, fmt.Errorf("the qualifier has %d of 2 games", len(played))
		}
		out := t.advancedFrom(played[0].Game, f.AdvanceFromGame[0])
		return append(out, t.advancedFrom(played[1].Game, f.AdvanceFromGame[1])...), nil
	}
	var out []string
	for table := 0; table < f.Tables; table++ {
		played := t.games(Qualifier, table)
		if len(played) < 2 {
			return nil, fmt.Errorf("table %d has played %d of 2 games", table, len(played))
		}
		rows := t.standings(played, Qualifier)
		n := 0
		for _, r := range rows {
			if n < f.AdvancePerTable && r.Player != t.Organizer {
				out = append(out, r.Player)
				n++
			}
		}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
